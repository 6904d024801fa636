// The panel of each seat of Stellium, in the match page's right-hand column: its
// score and the counts that matter here, read from the view the page shows (so a
// spectator sees only what is public). The page draws it (../../js/panels.js).
import { stat } from "/static/js/panels.js";

const TOKEN = { green: "#57c46a", blue: "#4a8cff", yellow: "#f2c744", pink: "#ff6fae" };

/** (view, seat) -> {score, scoreTitle, stats, note?}. */
export function seatPanel(view, seat) {
  const hand = view.hands?.[seat] || [];
  const done = view.completed?.[seat] || [];
  const tokens = view.tokens?.[seat] || [];
  return {
    score: view.scores?.[seat] ?? 0,
    scoreTitle: `Stelliums (the game ends after the round someone reaches ${view.target ?? "the target"})`,
    stats: [
      stat("hand", hand.length, "Missions in hand"),
      stat("done", done.length, "Missions completed"),
      { tokens: tokens.map((c) => ({ colour: TOKEN[c] || c, title: `${c} Influence token` })) },
    ],
  };
}
