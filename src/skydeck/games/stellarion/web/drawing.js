// Stellarion drawn in SVG: the eight Observatory decks with their discard piles, the
// Outpost, Shooting Stars, the Voyages (stacks or Mirror columns), victory piles,
// Theories and the Glaucous Sun track. Cards that some legal move uses glow; clicking
// them narrows the moves (see select.js).
import { el, svg, words, capital } from "/static/js/common.js";

/** Solo or co-op: the players win or lose together (the end dialog says so). */
export const cooperative = true;

const GALAXY = {
  alpha: { fill: "#24242c", ink: "#f2f2f2", name: "Alpha" },
  beta: { fill: "#6b3fa0", ink: "#fff", name: "Beta" },
  gamma: { fill: "#2f6fd0", ink: "#fff", name: "Gamma" },
  delta: { fill: "#e08a2a", ink: "#1d1200", name: "Delta" },
};
const TYPES = ["ship", "nebula", "stars", "planet"];
const W = 92, H = 128;

function typeIcon(type, cx, cy, r, colour) {
  const g = svg("g", { fill: colour, stroke: colour });
  if (type === "ship") g.append(svg("path", { d: `M${cx} ${cy - r} L${cx + r * 0.6} ${cy + r * 0.8} L${cx} ${cy + r * 0.45} L${cx - r * 0.6} ${cy + r * 0.8} Z` }));
  else if (type === "nebula") {
    for (const [dx, dy, rr] of [[-0.4, 0.1, 0.45], [0.1, -0.25, 0.5], [0.45, 0.15, 0.4], [0, 0.3, 0.45]]) g.append(svg("circle", { cx: cx + dx * r, cy: cy + dy * r, r: rr * r, opacity: 0.75, stroke: "none" }));
  } else if (type === "stars") {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = (Math.PI / 5) * i - Math.PI / 2, rr = i % 2 ? r * 0.42 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svg("polygon", { points: pts.join(" ") }));
  } else if (type === "planet") {
    g.append(svg("circle", { cx, cy, r: r * 0.6 }));
    g.append(svg("ellipse", { cx, cy, rx: r, ry: r * 0.28, fill: "none", "stroke-width": 3, transform: `rotate(-20 ${cx} ${cy})` }));
  }
  return g;
}

function cardFace(face, x, y, w = W, h = H) {
  const g = svg("g", {});
  if (!face) {
    g.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 8, fill: "#1b2452", stroke: "#4b5aa8", "stroke-width": 1.5 }));
    g.append(svg("rect", { x: x + 6, y: y + 6, width: w - 12, height: h - 12, rx: 5, fill: "url(#sd-back)" }));
    return g;
  }
  if (face === "blackhole") {
    g.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 8, fill: "#05050a", stroke: "#8a6cff", "stroke-width": 1.5 }));
    g.append(svg("circle", { cx: x + w / 2, cy: y + h / 2, r: w * 0.3, fill: "url(#sd-hole)" }));
    g.append(svg("text", { x: x + w / 2, y: y + h - 8, "text-anchor": "middle", "font-size": 11, fill: "#cbbcff" }, "Black Hole"));
    return g;
  }
  if (face === "mirror") {
    g.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 8, fill: "url(#sd-mirror)", stroke: "#e8ecff", "stroke-width": 1.5 }));
    g.append(svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", "font-size": 14, fill: "#223" }, "Mirror"));
    return g;
  }
  const [gal, type] = face.split(".");
  const c = GALAXY[gal] || { fill: "#444", ink: "#fff", name: gal };
  g.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 8, fill: c.fill, stroke: "#e8ecff", "stroke-opacity": 0.5, "stroke-width": 1.5 }));
  g.append(svg("text", { x: x + 7, y: y + 16, "font-size": Math.max(9, w * 0.12), fill: c.ink, "font-weight": 600 }, capital(type || "")));
  g.append(svg("text", { x: x + w - 7, y: y + 16, "text-anchor": "end", "font-size": Math.max(9, w * 0.12), fill: c.ink, opacity: 0.85 }, c.name[0]));
  g.append(typeIcon(type, x + w / 2, y + h / 2 + 4, Math.min(w, h) * 0.27, c.ink));
  g.append(svg("text", { x: x + w / 2, y: y + h - 8, "text-anchor": "middle", "font-size": Math.max(8, w * 0.11), fill: c.ink, opacity: 0.85 }, c.name));
  return g;
}

/** Wraps a drawn piece so that clicking it selects ``token`` when a legal move uses it. */
function clickable(node, token, ctx, x, y, w, h) {
  const g = svg("g", { "data-token": token });
  g.append(node);
  if (ctx.selected?.has(token)) {
    g.append(svg("rect", { x: x - 4, y: y - 4, width: w + 8, height: h + 8, rx: 10, fill: "none", stroke: "#ffd66b", "stroke-width": 4 }));
  } else if (ctx.hot?.(token)) {
    g.append(svg("rect", { class: "pulse", x: x - 3, y: y - 3, width: w + 6, height: h + 6, rx: 10, fill: "none", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "6 4" }));
  }
  if (ctx.hot?.(token) || ctx.selected?.has(token)) {
    g.append(svg("rect", { x, y, width: w, height: h, fill: "#000", "fill-opacity": 0, "pointer-events": "all" }));
    g.setAttribute("class", "hot");
    // a piece that is a whole move by itself (the deck a Stars power looks at) plays it
    const move = ctx.direct?.get(token);
    g.addEventListener("click", () => (move ? ctx.act(move) : ctx.toggle(token)));
  }
  return g;
}

/** The moves of ``kind`` that use every piece chosen so far on the board. */
function movesOf(ctx, kind) {
  const chosen = [...(ctx.selected || [])];
  return (ctx.legal || []).filter((m) => m.action.kind === kind
    && chosen.every((t) => t === kind || m.action.args.flat().map(String).includes(t)));
}

/** The Stars power's deck choice is one move a deck: a click on the deck plays it. */
function directMoves(ctx) {
  const out = new Map();
  for (const m of ctx.legal || []) if (m.action.kind === "stars") out.set(String(m.action.args[0]), m);
  return out;
}

/** A choice of cards, in a strip above the table (in sight on a phone, whatever part of
 *  the table its window shows): ``cards`` [{face, move}], each a button drawn as the
 *  card, whose press plays its move. The move list keeps the same moves. */
function chooser(title, note, cards, ctx) {
  const cw = 120, ch = 164; // its smallest text reads at 13 px, a finger's target
  const row = el("div", { style: "display:flex;flex-wrap:wrap;gap:10px" });
  for (const { face, move } of cards) {
    const picture = svg("svg", { viewBox: `0 0 ${cw} ${ch}`, width: cw, height: ch, "aria-hidden": "true", focusable: "false" });
    picture.append(cardFace(face, 1, 1, cw - 2, ch - 2));
    row.append(el("button", {
      type: "button", class: "card-choice", "data-choice": face, "data-board-move": "",
      "aria-label": `${short(face)}: ${move.label}`, title: move.label,
      style: "padding:0;border:2px dashed #ffd66b;border-radius:10px;background:none;line-height:0;cursor:pointer",
      onclick: () => ctx.act(move),
    }, picture));
  }
  return el("div", { class: "chooser", role: "group", "aria-label": title, style: "margin:0 0 10px" },
    el("p", { style: "margin:0 0 6px" }, el("b", {}, title), ` · ${note}`), row);
}

/** The power's choices shown as cards: a Ship search in the deck clicked (its cards, one
 *  of each), the Stars look (the two cards seen: the one pressed stays face up on top,
 *  the other goes to the bottom). None otherwise. */
function powerChoices(view, ctx) {
  const p = view.pending;
  if (!p || p.kind !== "coordinate" || !ctx.legal?.length) return null;
  if (p.power === "ship") {
    const deck = [...(ctx.selected || [])].find((t) => (view.decks || []).some((d) => d.name === t));
    if (!deck) return null;
    const cards = movesOf(ctx, "search").filter((m) => String(m.action.args[0]) === deck)
      .map((m) => ({ face: String(m.action.args[1]), move: m }));
    return cards.length ? chooser(`Search the ${capital(deck)} deck`, "choose the card to put face up on top of it", cards, ctx) : null;
  }
  if (p.power === "stars") {
    const cards = movesOf(ctx, "place")
      .filter((m) => m.action.args[0].length === 1 && m.action.args[1].length === 1)
      .map((m) => ({ face: String(m.action.args[0][0]), move: m }));
    return cards.length ? chooser(`The top two cards of the ${capital(p.deck || "")} deck`, "choose the card to keep face up on top; the other goes to the bottom", cards, ctx) : null;
  }
  return null;
}

function text(x, y, s, attrs = {}) {
  return svg("text", { x, y, "font-size": 13, fill: "#c9d2ff", ...attrs }, s);
}

function defs() {
  return svg("defs", {},
    svg("pattern", { id: "sd-back", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 10, height: 10, fill: "#222c66" }), svg("rect", { width: 4, height: 10, fill: "#2b377a" })),
    svg("radialGradient", { id: "sd-hole" }, svg("stop", { offset: "0%", "stop-color": "#000" }), svg("stop", { offset: "70%", "stop-color": "#2a1a5a" }), svg("stop", { offset: "100%", "stop-color": "#8a6cff" })),
    svg("linearGradient", { id: "sd-mirror", x1: 0, y1: 0, x2: 1, y2: 1 }, svg("stop", { offset: "0%", "stop-color": "#f4f7ff" }), svg("stop", { offset: "50%", "stop-color": "#a9b4d6" }), svg("stop", { offset: "100%", "stop-color": "#eef" })),
    svg("radialGradient", { id: "sd-sun" }, svg("stop", { offset: "0%", "stop-color": "#fff6c0" }), svg("stop", { offset: "100%", "stop-color": "#5aa0a8" })));
}

function deckSlot(root, deck, x, y, ctx) {
  const known = deck.face_up && deck.top ? deck.top : null;
  const drawn = deck.count === 0
    ? svg("rect", { x, y, width: W, height: H, rx: 8, fill: "none", stroke: "#4b5aa8", "stroke-dasharray": "5 4" })
    : cardFace(known, x, y);
  if (deck.count > 1) root.append(svg("rect", { x: x + 4, y: y + 4, width: W, height: H, rx: 8, fill: "#11183a", stroke: "#3a4a94" }));
  root.append(clickable(drawn, deck.name, ctx, x, y, W, H));
  root.append(svg("circle", { cx: x + W - 4, cy: y + H - 4, r: 13, fill: "#0b1026", stroke: "#ffd66b" }));
  root.append(text(x + W - 4, y + H, String(deck.count), { "text-anchor": "middle", "font-size": 12, fill: "#ffd66b", "font-weight": 700 }));
  root.append(text(x, y - 8, `${capital(deck.name)} deck`, { "font-weight": 600, fill: "#e8ecff" }));
  // Discard pile.
  const dx = x + W + 18, dw = 64, dh = 90;
  const top = deck.discards.length ? deck.discards[deck.discards.length - 1] : null;
  const pile = top ? cardFace(top, dx, y + 20, dw, dh) : svg("rect", { x: dx, y: y + 20, width: dw, height: dh, rx: 6, fill: "none", stroke: "#3a4a94", "stroke-dasharray": "4 4" });
  root.append(pile);
  root.append(text(dx, y + 14, `discard ${deck.discards.length}`, { "font-size": 11 }));
  const extra = [];
  if (deck.known_top.length > (deck.face_up ? 1 : 0)) extra.push(`next: ${deck.known_top.slice(deck.face_up ? 1 : 0).map(short).join(", ")}`);
  if (deck.known_bottom.length) extra.push(`bottom: ${deck.known_bottom.map(short).join(", ")}`);
  extra.forEach((line, i) => root.append(text(x, y + H + 18 + i * 14, line, { "font-size": 11, fill: "#ffd66b" })));
}

function short(face) {
  if (!face || !face.includes(".")) return words(face || "?");
  const [g, t] = face.split(".");
  return `${capital(g)} ${t}`;
}

const VH = 60; // a Voyage card's height; its width depends on where it lies

/** 'Alpha Deep Relay' -> ['Alpha', 'Deep Relay']: the Galaxy and the Voyage's own name. */
function voyageWords(id, galaxy, names) {
  const c = GALAXY[galaxy] || { name: capital(galaxy) };
  const full = names?.[id] || `${c.name} Voyage ${String(id).replace(/^\D+/, "")}`;
  const rest = full.startsWith(c.name + " ") ? full.slice(c.name.length + 1) : full;
  return [c.name, rest];
}

/** A Voyage card: ``lines`` 1 writes its whole name on one line at the top (a card of a
 *  Mirror column, of which only a strip shows), 2 the Galaxy above its own name (a
 *  stack's card, a victory pile's chip). */
function voyageCard(id, galaxy, x, y, accessible, { w, h = VH, lines, names }) {
  galaxy = galaxy || String(id).replace(/\d+$/, "");
  const c = GALAXY[galaxy] || { fill: "#444", ink: "#fff", name: galaxy };
  const [gal, rest] = voyageWords(id, galaxy, names);
  const g = svg("g", {});
  g.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 7, fill: c.fill, stroke: accessible ? "#ffd66b" : "#e8ecff", "stroke-opacity": accessible ? 1 : 0.4, "stroke-width": accessible ? 2 : 1 }));
  if (lines === 1) {
    g.append(svg("text", { x: x + 8, y: y + 16, "font-size": 12, fill: c.ink, "font-weight": 700 }, `${gal} ${rest}`));
  } else {
    g.append(svg("text", { x: x + 7, y: y + 15, "font-size": 12, fill: c.ink, "font-weight": 700 }, gal));
    g.append(svg("text", { x: x + 7, y: y + 31, "font-size": 11, fill: c.ink, opacity: 0.9 }, rest));
  }
  return g;
}

/** How a seat's victory pile is laid out: chips in rows under the seat's name. */
const CHIP = { w: 108, h: 40, gap: 6, left: 20, right: 600 };
const chipsPerRow = Math.floor((CHIP.right - CHIP.left + CHIP.gap) / (CHIP.w + CHIP.gap));
const pileHeight = (pile) => 20 + Math.max(1, Math.ceil(pile.length / chipsPerRow)) * (CHIP.h + CHIP.gap);

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The power being used and what the rule still allows: searches (Ship) and looks
 *  (Stars) left, or how many cards its one use moves (Nebula, Planet: 1, or up to 2 for
 *  the major). */
export function powerLine(p) {
  const head = `${capital(p.major ? "major" : "minor")} ${capital(p.power)} power`;
  const n = p.uses_left;
  const most = p.major ? "up to 2 cards" : "1 card";
  const what = {
    ship: `${plural(n, "search", "searches")} left`,
    stars: `${plural(n, "look", "looks")} left`,
    nebula: `take back ${most}`,
    planet: `move ${most} to the Outpost`,
  }[p.power];
  return what ? `${head}: ${what}` : head;
}

const faceName = (f) => (f === "blackhole" ? "Black Hole" : String(f).split(".").map(capital).join(" "));

/** The server names a Launch's or a Coordinate's cards by deck ("the Alpha top"): it
 * sends one list for every seat and every view. The page has the view, so the list names
 * the card on that top as the terminal does (`Game.describe(action, view)`): "the Alpha
 * Stars (Alpha top)". */
function relabel(legal, view) {
  const tops = {};
  for (const d of view.decks) if (d.face_up && d.top) tops[d.name] = d.top;
  for (const a of legal || []) {
    a.baseLabel ??= a.label;
    if (!["launch", "coordinate", "outpost"].includes(a.action.kind)) continue;
    a.label = a.baseLabel.replace(/the (\w+) top/g, (m, deck) => {
      const top = tops[deck.toLowerCase()];
      return top ? `the ${faceName(top)} (${deck} top)` : m;
    });
  }
}

export function render(root, view, ctx) {
  if (!view || !Array.isArray(view.decks)) return false;
  relabel(ctx.legal, view);
  const hasSun = !!view.sun;
  const s = svg("svg", { role: "img", "aria-label": "Stellarion table" });
  s.append(defs());
  ctx = { ...ctx, direct: directMoves(ctx) };
  const decks = Object.fromEntries(view.decks.map((d) => [d.name, d]));
  ["alpha", "beta", "gamma", "delta"].forEach((n, i) => decks[n] && deckSlot(s, decks[n], 20 + i * 245, 40, ctx));
  TYPES.forEach((n, i) => decks[n] && deckSlot(s, decks[n], 20 + i * 245, 245, ctx));

  // Outpost.
  let y = 450;
  s.append(text(20, y, "Outpost", { "font-weight": 600, fill: "#e8ecff" }));
  s.append(svg("rect", { x: 20, y: y + 8, width: 420, height: 120, rx: 10, fill: "rgba(255,255,255,0.03)", stroke: "#3a4a94", "stroke-dasharray": "6 4" }));
  (view.outpost || []).forEach((o, i) => {
    const x = 30 + i * 80;
    s.append(clickable(cardFace(o.card, x, y + 16, 70, 100), `out:${o.card}`, ctx, x, y + 16, 70, 100));
  });
  if (!view.outpost?.length) s.append(text(40, y + 72, "empty", { fill: "#6d78a8" }));

  // Shooting Stars.
  s.append(text(470, y, "Shooting Stars", { "font-weight": 600, fill: "#e8ecff" }));
  const starG = svg("g", {});
  for (let i = 0; i < Math.max(view.shooting_stars, 0); i++) starG.append(typeIcon("stars", 490 + (i % 3) * 40, y + 40 + Math.floor(i / 3) * 40, 16, "#ffd66b"));
  if (!view.shooting_stars) starG.append(text(470, y + 40, "none left", { fill: "#6d78a8" }));
  starG.append(svg("rect", { x: 465, y: y + 12, width: 125, height: 110, fill: "transparent" }));
  s.append(clickable(starG, "star", ctx, 465, y + 12, 125, 110));

  // Voyages.
  const vx = 610;
  s.append(text(vx, y, view.voyages.mode === "columns" ? "Voyages (Mirror columns: the last card is free)" : "Voyages", { "font-weight": 600, fill: "#e8ecff" }));
  const acc = new Set(view.voyages.accessible);
  const cols = view.voyages.columns;
  const names = view.voyages.names;
  // Each card shows its name in the strip the next card leaves uncovered: two lines in a
  // Galaxy's stack (up to 4 cards), one line in a Mirror column (up to 8).
  const stacks = cols.length > 2;
  const colW = stacks ? 96 : 190, w = colW - 6, step = stacks ? 40 : 25;
  cols.forEach((col, ci) => {
    col.forEach((id, k) => {
      const x = vx + ci * colW, yy = y + 14 + k * step;
      const card = voyageCard(id, view.voyages.galaxy[id], x, yy, acc.has(id), { w, lines: stacks ? 2 : 1, names });
      s.append(acc.has(id) ? clickable(card, id, ctx, x, yy, w, VH) : card);
    });
  });

  // Victory piles: each seat's name, then its Voyages in rows of chips.
  y = 720;
  s.append(text(20, y, ctx.names?.length > 1 ? "Victory piles" : "Victory pile", { "font-weight": 600, fill: "#e8ecff" }));
  let yy = y + 10;
  (view.victory || []).forEach((pile, seat) => {
    s.append(text(20, yy + 14, ctx.names?.[seat] || `Player ${seat + 1}`, { "font-size": 12 }));
    pile.forEach((id, k) => {
      const cx = CHIP.left + (k % chipsPerRow) * (CHIP.w + CHIP.gap), cy = yy + 20 + Math.floor(k / chipsPerRow) * (CHIP.h + CHIP.gap);
      s.append(voyageCard(id, view.voyages.galaxy[id], cx, cy, false, { w: CHIP.w, h: CHIP.h, lines: 2, names }));
    });
    if (!pile.length) s.append(text(CHIP.left, yy + 44, "no Voyage yet", { fill: "#6d78a8" }));
    yy += pileHeight(pile);
  });

  // Theories / Breakthrough / pending / outcome, on the right.
  const info = [];
  if (view.pending) {
    const p = view.pending;
    info.push(p.kind === "coordinate" ? powerLine(p) : `Traverse: take ${p.takes_left} more`);
  }
  if (view.phase === "end") info.push("End of turn: turn up a face-down deck");
  if (view.theories) info.push(`Theory on top: ${view.theories.top ? words(view.theories.top_type) : "none"} · ${view.theories.left} left · proven ${view.theories.proven.length}`);
  if (view.breakthrough) info.push(`Breakthrough: ${view.breakthrough.name} (${view.breakthrough.type})`);
  if (view.outcome && view.outcome !== "playing") info.push(`${view.outcome === "won" ? "Won" : "Lost"}${view.reason ? ": " + view.reason : ""}`);
  info.forEach((line, i) => s.append(text(610, 740 + i * 20, line, { fill: i === 0 && view.pending ? "#ffd66b" : "#c9d2ff", "font-size": 14 })));

  const height = Math.max(yy, 740 + info.length * 20) + 10 + (hasSun ? 90 : 0);
  s.setAttribute("viewBox", `0 0 1000 ${height}`);
  if (hasSun) {
    const sun = view.sun, y0 = height - 60, n = sun.final + 1, step = 960 / n;
    s.append(text(20, y0 - 22, `The Glaucous Sun · space ${sun.position} of ${sun.final} · Meteors held ${sun.meteors_held}`, { "font-weight": 600, fill: "#e8ecff" }));
    for (let i = 0; i < n; i++) {
      const cx = 20 + step * (i + 0.5);
      s.append(svg("circle", { cx, cy: y0, r: Math.min(8, step / 2 - 1), fill: i === sun.final ? "#6b1d2a" : "#1b2452", stroke: "#4b5aa8" }));
      if (sun.meteors_on_board.includes(i)) s.append(svg("circle", { cx, cy: y0, r: 4, fill: "#ff9f6b" }));
    }
    s.append(svg("circle", { cx: 20 + step * (sun.position + 0.5), cy: y0, r: 12, fill: "url(#sd-sun)", stroke: "#fff6c0" }));
  }
  const choice = powerChoices(view, ctx);
  root.replaceChildren(...(choice ? [choice, s] : [s]));
  return true;
}

export function eventText(e, name) {
  const who = typeof e.seat === "number" ? name(e.seat) : "";
  switch (e.kind) {
    case "action": return `${who}: ${e.action}`;
    case "revealed": return `The ${e.deck} deck turns up ${short(e.card)}`;
    case "looked": return `Looked at the top of the ${e.deck} deck: ${(e.cards || []).map(short).join(", ")}`;
    case "sun": return `The Glaucous Sun moves to space ${e.position}`;
    case "meteor_taken": return `Picked up the Meteor on space ${e.space}`;
    case "won": return `Victory! ${e.reason || ""}`;
    case "lost": return `Defeat: ${e.reason || ""}`;
    default: return null;
  }
}
