// The panel of each seat of Stellarion, in the match page's right-hand column: its
// score and the counts that matter here, read from the view the page shows (so a
// spectator sees only what is public). The page draws it (../../js/panels.js).
import { stat } from "/static/js/panels.js";

/** The score stays the Voyages taken at the end too (the result is everyone's). */
export const keepsScore = true;

/** (view, seat) -> {score, scoreTitle, stats, note?}. */
export function seatPanel(view, seat) {
  const won = (view.victory?.[seat] || []).length;
  // every Voyage of the game: those still to take and those taken (``galaxy`` holds
  // only the ones still on the board)
  const total = Object.keys(view.voyages?.names || {}).length;
  return {
    score: `${won}${total ? ` / ${total}` : ""}`,
    scoreTitle: "Voyages taken (cooperative: together you need every Voyage)",
    stats: [
      stat("★", view.shooting_stars ?? 0, "Shooting Stars left (shared)"),
      stat("outpost", (view.outpost || []).length, "cards in the Outpost (shared)"),
      view.turns !== undefined ? stat("turn", view.turns, "the turn being played") : null,
    ],
  };
}
