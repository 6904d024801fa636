// The panel of each seat of Stellar Expedition, in the match page's right-hand column: its
// score and the counts that matter here, read from the view the page shows (so a
// spectator sees only what is public). The page draws it (../../js/panels.js).
import { el } from "/static/js/common.js";
import { stat } from "/static/js/panels.js";

/** (view, seat) -> {score, scoreTitle, stats, note?}. */
export function seatPanel(view, seat) {
  const p = (view.players || [])[seat];
  if (!p) return null;
  return {
    score: p.points ?? 0,
    scoreTitle: "Expedition points so far",
    stats: [
      stat("RM", p.rm, "Raw Materials", "res-rm"),
      stat("◆", p.crystal, "Crystals", "res-crystal"),
      stat("✦", p.influence, "Influence", "res-influence"),
      stat("crew", p.hand_count ?? (p.hand || []).length, "crew cards in hand"),
      stat("embassies", p.embassies_left, "Embassies left to build"),
      p.damage ? stat("damage", p.damage, "Damage cards", "bad") : null,
    ],
    note: p.faction ? p.faction[0].toUpperCase() + p.faction.slice(1) : "",
  };
}

/** The drone of solo Stellar Expedition plays as a rival without a seat: a panel too. */
function dronePanel(view, game) {
  const d = view?.modules?.drone || view?.drone;
  if (!d) return null;
  const next = (d.decks || [])[d.current_deck ?? 0]?.next;
  let nextText = "";
  if (next) {
    try { nextText = game?.effectText ? game.effectText(next) : ""; } catch (err) { console.error(err); }
    nextText = nextText || String(next.op || "").replace(/^d_/, "").replace(/_/g, " ");
  }
  return el("div", { class: "pp pp-drone", style: "--seat:#9aa0b0", "data-seat": "drone" },
    el("div", { class: "pp-head" },
      el("span", { class: "seat-dot", style: "background:#9aa0b0" }),
      el("span", { class: "pp-name" }, "The drone"),
      el("span", { class: "pp-tag" }, d.rank ? `rank ${d.rank}` : "rival"),
      el("span", { class: "pp-score", title: "the drone's points" }, String(d.points ?? 0))),
    el("div", { class: "pp-stats" },
      el("span", { class: "pp-stat", title: "Embassies left" }, "embassies ", String(d.embassies_left ?? "")),
      nextText ? el("span", { class: "pp-stat pp-next", title: "the drone's next action (its Action card is face up)" }, el("b", {}, "next"), " ", nextText) : null));
}

/** Panels beside the seats': the solo drone's. */
export function extraPanels(view, game) {
  const drone = dronePanel(view, game);
  return drone ? [drone] : [];
}
