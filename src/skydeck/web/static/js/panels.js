// Player panels, one per seat, in the right-hand column as on Board Game Arena: the
// seat's colour, name, who is to move, score, clock, and the counts that matter in that
// game (cards in hand, resources, deck). Read from the view this page shows, so a
// spectator sees only what is public.
//
// The panels look the same in every game: this module draws them; what a game's panel
// says comes from its own ``web/panel.js`` (``seatPanel(view, seat)``, and optionally
// ``keepsScore``, ``extraPanels(view, game)``). A game without one, or whose view lacks
// a key, still gets a panel (name, score, clock) instead of none.
import { countdown, el, seatColour, seatName } from "./common.js";

/** A stat chip: an icon or short word, a value, and a tooltip saying what it counts. */
export const stat = (icon, value, title, cls = "") => ({ icon, value, title, cls });

function fallback(view, seat, msg) {
  const scores = view?.scores || msg?.scores;
  return { score: scores ? scores[seat] ?? "" : "", scoreTitle: "score", stats: [] };
}

/** What each kind of clock is for, in words (the panel's tooltip, the bar's label). */
export function clockLabel(kind) {
  return { move: "move clock", draw: "draw from the bag", deployment: "deployment" }[kind] || kind.replace(/_/g, " ");
}

const CLOCK_TITLE = {
  move: "move clock: the move is owed by then",
  draw: "draw from the bag: the clock draws at random",
};

/** A clock of the whole table (every seat deploys against it), not of one seat. */
function tableClock(d, game) {
  return d.kind === "deployment" || (game?.boardClocks || []).includes(d.kind);
}

/** The clock a seat's panel shows, from the state's deadlines; null when it has none
 * running. The table's clocks are no seat's: the game draws them (boardClocks) or the
 * page does under the panels. */
export function clockFor(deadlines, seat, game = {}) {
  return (deadlines || []).find((d) => d.seat === seat && !tableClock(d, game)) || null;
}

function clockText(d, offset) {
  const now = Date.now() / 1000 + offset;
  if (d.start && d.start > now) return { text: "waits", low: false, waiting: true };
  const left = Math.max(0, d.due - now);
  return { text: countdown(left), low: left < 5, waiting: false };
}

/** The clock's tooltip: what it is for, or that it waits for the seat to connect. */
function clockTitle(kind, waiting) {
  const what = CLOCK_TITLE[kind] || `${clockLabel(kind)} clock`;
  return waiting ? `${clockLabel(kind)}: starts when they connect` : what;
}

/**
 * Draws one panel per seat in ``root``.
 * @param {HTMLElement} root
 * @param {{header: object, view: object, msg: object, held: number[], activeSeat: number|null, clockOffset: number, game: object, panel: object}} at
 *   (``game``: the game's drawing module, for words it already has, e.g. the drone's next
 *   action; ``panel``: the game's panel module)
 */
export function drawPanels(root, { header, view, msg, held, activeSeat, clockOffset = 0, game = {}, panel = {} }) {
  if (!root || !header) return;
  const reader = panel.seatPanel;
  const toMove = new Set(msg?.to_move || []);
  const winners = new Set(msg?.winners || []);
  const over = msg && msg.status !== "live";
  const panels = header.seats.map((seatInfo, seat) => {
    let info = null;
    try { info = view && reader ? reader(view, seat) : null; } catch (err) { console.error(err); }
    info = info || fallback(view, seat, msg);
    if (over && msg.scores && !panel.keepsScore) info.score = msg.scores[seat];
    const mine = held.includes(seat);
    const cls = ["pp", toMove.has(seat) && !over ? "to-move" : "", mine ? "mine" : "", seat === activeSeat && held.length > 1 ? "active" : "", winners.has(seat) ? "winner" : ""].filter(Boolean).join(" ");
    const d = clockFor(msg?.deadlines, seat, game);
    const clock = d ? clockText(d, clockOffset) : null;
    const tag = seatInfo.kind === "ai" ? "AI" : mine ? "you" : "";
    const stats = el("div", { class: "pp-stats" });
    for (const s of info.stats || []) {
      if (!s) continue;
      if (s.tokens) {
        if (s.tokens.length) stats.append(el("span", { class: "pp-stat pp-tokens", title: "Influence tokens left" },
          s.tokens.map((t) => el("span", { class: "pp-token", title: t.title, style: `background:${t.colour}` }))));
        continue;
      }
      if (s.value === undefined || s.value === null) continue;
      stats.append(el("span", { class: `pp-stat ${s.cls}`.trim(), title: s.title }, el("b", {}, s.icon), " ", String(s.value)));
    }
    return el("div", { class: cls, "data-seat": seat, style: `--seat:${seatColour(seat)}` },
      el("div", { class: "pp-head" },
        el("span", { class: "seat-dot", style: `background:${seatColour(seat)}` }),
        el("span", { class: "pp-name", title: seatName(header, seat) }, seatName(header, seat)),
        tag ? el("span", { class: "pp-tag" }, tag) : null,
        el("span", { class: "pp-score", title: info.scoreTitle || "score" }, winners.has(seat) ? "★ " : "", String(info.score))),
      el("div", { class: "pp-line" },
        el("span", { class: "pp-note" }, toMove.has(seat) && !over ? (mine ? "your move" : "to move") : info.note || ""),
        toMove.has(seat) && !over && info.note ? el("span", { class: "pp-note muted" }, info.note) : null,
        el("span", { class: `pp-clock${clock?.low ? " low" : ""}`, "data-due": d?.due, "data-start": d?.start, "data-kind": d?.kind, title: d ? clockTitle(d.kind, clock.waiting) : "no clock running" }, clock ? `◔ ${clock.text}` : "")),
      stats);
  });
  let extra = [];
  try { extra = view && panel.extraPanels ? panel.extraPanels(view, game) : []; } catch (err) { console.error(err); }
  root.dataset.offset = String(clockOffset);
  root.replaceChildren(...panels, ...extra);
}

/** Keeps the panels' clocks counting between updates. */
function tick() {
  const root = document.getElementById("panels");
  if (!root) return;
  const offset = Number(root.dataset.offset || 0);
  for (const node of root.querySelectorAll(".pp-clock[data-due]")) {
    const d = { due: Number(node.dataset.due), start: node.dataset.start ? Number(node.dataset.start) : null };
    const c = clockText(d, offset);
    node.textContent = `◔ ${c.text}`;
    node.classList.toggle("low", c.low);
    node.title = clockTitle(node.dataset.kind, c.waiting);
  }
}
setInterval(tick, 250);
