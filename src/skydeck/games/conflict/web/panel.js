// The panel of each seat of Stellar Conflict, in the match page's right-hand column: its
// score and the counts that matter here, read from the view the page shows (so a
// spectator sees only what is public). The page draws it (../../js/panels.js).
import { stat } from "/static/js/panels.js";

/** (view, seat) -> {score, scoreTitle, stats, note?}. */
export function seatPanel(view, seat) {
  const s = (view.seats || [])[seat];
  if (!s) return null;
  const phase = view.phase;
  const state = phase === "preparation" ? (s.ready ? "ready" : "choosing a fleet") : s.done ? "done deploying" : s.holding ? "holding a card" : "";
  return {
    score: s.score ?? 0,
    scoreTitle: "victory points: ships destroyed plus cargo stolen",
    stats: [
      stat("deck", s.deck, "cards left in the deck"),
      s.holding ? stat("in hand", 1, "card being played") : null,
      stat("kills", (s.kill_pile || []).length, "enemy ships destroyed (kill pile)"),
      phase !== "preparation" ? stat("on table", (view.cards || []).filter((c) => c.owner === seat && c.on_table).length, "own cards on the table") : null,
    ],
    note: [s.race ? s.race[0].toUpperCase() + s.race.slice(1) : "", state].filter(Boolean).join(" · "),
  };
}
