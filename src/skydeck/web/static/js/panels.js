// Player panels, one per seat, in the right-hand column as on Board Game Arena: the
// seat's colour, name, who is to move, score, clock, and the counts that matter in that
// game (cards in hand, resources, deck). Read from the view this page shows, so a
// spectator sees only what is public.
//
// Why one table of per-game readers here rather than a hook in each game module: the
// panels must look the same in every game, and a game whose view lacks a key still
// gets a panel (name, score, clock) instead of none.
import { el, seatColour, seatName } from "./common.js";

/** A stat chip: an icon or short word, a value, and a tooltip saying what it counts. */
const stat = (icon, value, title, cls = "") => ({ icon, value, title, cls });

const STELLIUM_TOKEN = { green: "#57c46a", blue: "#4a8cff", yellow: "#f2c744", pink: "#ff6fae" };

/** Per game: (view, seat) -> {score, scoreTitle, stats: [...], note?}. */
const READERS = {
  stellarion(view, seat) {
    const won = (view.victory?.[seat] || []).length;
    const total = Object.keys(view.voyages?.galaxy || {}).length;
    return {
      score: `${won}${total ? ` / ${total}` : ""}`,
      scoreTitle: "Voyages taken (cooperative: together you need every Voyage)",
      stats: [
        stat("★", view.shooting_stars ?? 0, "Shooting Stars left (shared)"),
        stat("outpost", (view.outpost || []).length, "cards in the Outpost (shared)"),
        view.turns !== undefined ? stat("turn", view.turns, "the turn being played") : null,
      ],
    };
  },
  stellium(view, seat) {
    const hand = view.hands?.[seat] || [];
    const done = view.completed?.[seat] || [];
    const tokens = view.tokens?.[seat] || [];
    return {
      score: view.scores?.[seat] ?? 0,
      scoreTitle: `Stelliums (the game ends after the round someone reaches ${view.target ?? "the target"})`,
      stats: [
        stat("hand", hand.length, "Missions in hand"),
        stat("done", done.length, "Missions completed"),
        { tokens: tokens.map((c) => ({ colour: STELLIUM_TOKEN[c] || c, title: `${c} Influence token` })) },
      ],
    };
  },
  expedition(view, seat) {
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
  },
  conflict(view, seat) {
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
  },
};

function fallback(view, seat, msg) {
  const scores = view?.scores || msg?.scores;
  return { score: scores ? scores[seat] ?? "" : "", scoreTitle: "score", stats: [] };
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

/** The clock of one seat, from the state's deadlines; "" when it has none running. */
function clockFor(deadlines, seat) {
  return (deadlines || []).find((d) => d.seat === seat && d.kind !== "deployment") || null;
}

function clockText(d, offset) {
  const now = Date.now() / 1000 + offset;
  if (d.start && d.start > now) return { text: "waits", low: false };
  const left = Math.max(0, d.due - now);
  return { text: `${left.toFixed(left < 10 ? 1 : 0)} s`, low: left < 5 };
}

/**
 * Draws one panel per seat in ``root``.
 * @param {HTMLElement} root
 * @param {{header: object, view: object, msg: object, held: number[], activeSeat: number|null, clockOffset: number, game: object}} at
 *   (``game``: the game's module, for words it already has, e.g. the drone's next action)
 */
export function drawPanels(root, { header, view, msg, held, activeSeat, clockOffset = 0, game = {} }) {
  if (!root || !header) return;
  const reader = READERS[header.game];
  const toMove = new Set(msg?.to_move || []);
  const winners = new Set(msg?.winners || []);
  const over = msg && msg.status !== "live";
  const panels = header.seats.map((seatInfo, seat) => {
    let info = null;
    try { info = view && reader ? reader(view, seat) : null; } catch (err) { console.error(err); }
    info = info || fallback(view, seat, msg);
    if (over && msg.scores && header.game !== "stellarion") info.score = msg.scores[seat];
    const mine = held.includes(seat);
    const cls = ["pp", toMove.has(seat) && !over ? "to-move" : "", mine ? "mine" : "", seat === activeSeat && held.length > 1 ? "active" : "", winners.has(seat) ? "winner" : ""].filter(Boolean).join(" ");
    const d = clockFor(msg?.deadlines, seat);
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
        el("span", { class: `pp-clock${clock?.low ? " low" : ""}`, "data-due": d?.due, "data-start": d?.start, title: d ? `${d.kind} clock` : "no clock running" }, clock ? `◔ ${clock.text}` : "")),
      stats);
  });
  const drone = header.game === "expedition" ? dronePanel(view, game) : null;
  root.dataset.offset = String(clockOffset);
  root.replaceChildren(...panels, ...(drone ? [drone] : []));
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
  }
}
setInterval(tick, 250);
