// Stellium drawn in SVG: the published Universe, a triangular lattice of holes whose six
// Galaxy discs are seven-hole flowers (a centre and a ring of six) that visibly turn by
// sixths when rotated, Black Holes between them, coloured holes and bodies; the bag;
// Missions available, in hand and completed; Influence tokens and scores. Spaces, bodies
// and Missions that a legal move uses glow; clicking them narrows the moves, except a
// body of the bag, which is drawn at once (the draw has 5 seconds). Above the drawing, in
// HTML so that it stays in sight on a phone, the prompt and the bag's draw buttons.
// Coordinates are doubled columns (VIEW.md): a hole only where row + column is even, so a
// column is half a hole apart and a row sqrt(3)/2 of a hole.
import { el, svg, capital, words } from "/static/js/common.js";
import { drawPushChoice } from "./push.js";

const CELL = 60, PAD = 28, ROW = CELL * Math.sqrt(3) / 2;
const HOLE = { green: "#4cc46a", blue: "#4a8cff", yellow: "#f2c94c", pink: "#ff6fae" };
const BODY = {
  planet: { fill: "url(#sm-planet)", letter: "P" },
  comet: { fill: "url(#sm-comet)", letter: "C" },
  star: { fill: "url(#sm-star)", letter: "S" },
  supernova: { fill: "url(#sm-nova)", letter: "N" },
};
const LETTER = { P: "planet", C: "comet", S: "star", N: "supernova" };
let lastTurns = {};

function defs() {
  const grad = (id, a, b) => svg("radialGradient", { id, cx: "35%", cy: "35%" }, svg("stop", { offset: "0%", "stop-color": a }), svg("stop", { offset: "100%", "stop-color": b }));
  return svg("defs", {}, grad("sm-planet", "#b9f3ff", "#1f7a9a"), grad("sm-comet", "#e6d9c4", "#6a5640"), grad("sm-star", "#fff7c2", "#e0a020"), grad("sm-nova", "#fff0f0", "#c0304a"),
    svg("radialGradient", { id: "sm-disc" }, svg("stop", { offset: "0%", "stop-color": "#3a3f8f" }), svg("stop", { offset: "100%", "stop-color": "#1a1d52" })),
    svg("radialGradient", { id: "sm-hole" }, svg("stop", { offset: "0%", "stop-color": "#000" }), svg("stop", { offset: "80%", "stop-color": "#301a60" }), svg("stop", { offset: "100%", "stop-color": "#7a5cff" })));
}

function body(kind, cx, cy, r) {
  const g = svg("g", { "data-body": kind });
  const b = BODY[kind] || BODY.planet;
  if (kind === "star") {
    const pts = [];
    for (let i = 0; i < 16; i++) { const a = (Math.PI / 8) * i, rr = i % 2 ? r * 0.78 : r; pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`); }
    g.append(svg("polygon", { points: pts.join(" "), fill: b.fill, stroke: "#8a5a00" }));
  } else if (kind === "comet") {
    g.append(svg("path", { d: `M${cx - r * 1.1} ${cy - r * 0.9} L${cx} ${cy - r * 0.5} L${cx} ${cy + r * 0.5} Z`, fill: "#9fb6ff", opacity: 0.45 }));
    g.append(svg("circle", { cx, cy, r: r * 0.9, fill: b.fill, stroke: "#3a2a18" }));
  } else if (kind === "supernova") {
    for (let i = 0; i < 8; i++) { const a = (Math.PI / 4) * i; g.append(svg("line", { x1: cx, y1: cy, x2: cx + r * 1.05 * Math.cos(a), y2: cy + r * 1.05 * Math.sin(a), stroke: "#ff8a8a", "stroke-width": 2 })); }
    g.append(svg("circle", { cx, cy, r: r * 0.75, fill: b.fill, stroke: "#7a1020" }));
  } else {
    g.append(svg("circle", { cx, cy, r: r * 0.9, fill: b.fill, stroke: "#0d4050" }));
  }
  return g;
}

function mark(g, token, ctx, cx, cy, r, pick = null) {
  const hot = ctx.hot?.(token), chosen = ctx.selected?.has(token);
  if (chosen) g.append(svg("circle", { cx, cy, r: r + 4, fill: "none", stroke: "#ffd66b", "stroke-width": 4 }));
  else if (hot) g.append(svg("circle", { class: "pulse", cx, cy, r: r + 3, fill: "none", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "5 3" }));
  if (hot || chosen) {
    g.append(svg("circle", { cx, cy, r: r + 4, fill: "#000", "fill-opacity": 0, "pointer-events": "all" }));
    g.setAttribute("class", "hot");
    g.setAttribute("data-token", token);
    g.addEventListener("click", () => (pick ? pick() : ctx.toggle(token)));
  }
  return g;
}

function markRect(g, token, ctx, x, y, w, h) {
  const hot = ctx.hot?.(token), chosen = ctx.selected?.has(token);
  if (chosen) g.append(svg("rect", { x: x - 3, y: y - 3, width: w + 6, height: h + 6, rx: 9, fill: "none", stroke: "#ffd66b", "stroke-width": 4 }));
  else if (hot) g.append(svg("rect", { class: "pulse", x: x - 2, y: y - 2, width: w + 4, height: h + 4, rx: 9, fill: "none", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "5 3" }));
  if (hot || chosen) {
    g.append(svg("rect", { x, y, width: w, height: h, fill: "#000", "fill-opacity": 0, "pointer-events": "all" }));
    g.setAttribute("class", "hot");
    g.setAttribute("data-token", token);
    g.addEventListener("click", () => ctx.toggle(token));
  }
  return g;
}

/** Words in lines of at most ``width`` characters (a card's text stays inside it). */
function wrap(text, width) {
  const lines = [];
  for (const word of String(text).split(" ")) {
    const lastLine = lines[lines.length - 1];
    if (lastLine !== undefined && (lastLine + " " + word).length <= width) lines[lines.length - 1] = lastLine + " " + word;
    else lines.push(word);
  }
  return lines;
}

function cardLines(g, lines, cx, y) {
  lines.forEach((line, i) => g.append(svg("text", { x: cx, y: y + i * 13, "text-anchor": "middle", "font-size": 11, fill: "#c9d2ff" }, line)));
}

function missionCard(card, x, y, ctx, opts = {}) {
  const w = 118, h = 118;
  const g = svg("g", { "data-mission": card.id });
  g.append(svg("rect", { x, y, width: w, height: h, rx: 8, fill: "#1b2350", stroke: HOLE[card.colour] || "#888", "stroke-width": 2, opacity: opts.done ? 0.55 : 1 }));
  g.append(svg("rect", { x, y, width: w, height: 20, rx: 8, fill: HOLE[card.colour] || "#888" }));
  g.append(svg("text", { x: x + 6, y: y + 14, "font-size": 11, fill: "#10131f", "font-weight": 700 }, card.name.length > 17 ? card.name.slice(0, 16) + "…" : card.name));
  g.append(svg("text", { x: x + w - 6, y: y + h - 7, "text-anchor": "end", "font-size": 14, fill: "#ffd66b", "font-weight": 700 }, `${card.points}★`));
  if (card.shape) {
    // Drawn on the lattice like the board: doubled columns, only the holes of the
    // bodies' parity are holes at all.
    const rows = card.shape, cols = Math.max(...rows.map((r) => r.length));
    let parity = 0;
    rows.forEach((row, r) => [...row].forEach((ch, c) => { if (ch !== ".") parity = (r + c) % 2; }));
    const cs = Math.min(22, 90 / Math.max((cols + 1) / 2, rows.length * 0.87));
    const ox = x + (w - (cols + 1) * cs / 2) / 2, oy = y + 30;
    rows.forEach((row, r) => [...row].forEach((ch, c) => {
      if ((r + c) % 2 !== parity) return;
      const cx = ox + (c + 1) * cs / 2, cy = oy + r * cs * 0.87 + cs / 2;
      if (ch === ".") g.append(svg("circle", { cx, cy, r: 2, fill: "#55608f" }));
      else g.append(body(LETTER[ch], cx, cy, cs * 0.42));
    }));
  } else if (card.kind === "across" && card.bodies?.length === 2) {
    // The two bodies side by side, a Galaxy border between them.
    const cy = y + 50;
    g.append(body(card.bodies[0], x + w / 2 - 22, cy, 12));
    g.append(body(card.bodies[1], x + w / 2 + 22, cy, 12));
    g.append(svg("line", { x1: x + w / 2, y1: cy - 18, x2: x + w / 2, y2: cy + 18, stroke: "#c9d2ff", "stroke-width": 1.5, "stroke-dasharray": "3 3" }));
    cardLines(g, ["neighbours in", "two Galaxies"], x + w / 2, y + 82);
  } else {
    const what = card.kind === "colour_spaces" ? `${card.count} on ${card.colour} holes` : card.kind === "centres" ? `${card.count} on centres` : card.bodies ? `${card.bodies.join(" + ")} across` : words(card.kind);
    cardLines(g, wrap(what, 18), x + w / 2, y + 60);
  }
  return markRect(g, card.id, ctx, x, y, w, h);
}

export function render(root, view, ctx) {
  const U = view?.universe;
  if (!U || !view.board) return false;
  const cols = U.columns;
  const pos = (name) => {
    const c = cols.indexOf(name[0]), r = Number(name.slice(1)) - 1;
    return [PAD + (c + 1) * CELL / 2, PAD + r * ROW + CELL / 2];
  };
  const boardW = PAD * 2 + (U.width + 1) * CELL / 2, boardH = PAD * 2 + (U.height - 1) * ROW + CELL;
  const stepDeg = U.turn_degrees || 60, full = Math.round(360 / stepDeg);
  const width = boardW + 300;
  const missionsBottom = 236 + Math.ceil((view.available || []).length / 2) * 126;
  const top = Math.max(boardH, missionsBottom) + 20;
  const rows = seatRows(view, width);
  const height = top + 4 + rows.reduce((sum, r) => sum + r.height, 0);
  const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "Stellium universe" });
  s.append(defs());
  // The Outer Belt.
  s.append(svg("rect", { x: 4, y: 4, width: boardW - 8, height: boardH - 8, rx: 28, fill: "#0f1433", stroke: "#3a4a94", "stroke-width": 2 }));
  const spaces = new Set(U.spaces);
  const holes = new Set(U.black_holes);
  const inGalaxy = new Map();
  for (const gal of U.galaxies) for (const sp of gal.spaces) inGalaxy.set(sp, gal);
  // Discs, each in its own group so that a rotation can be animated.
  const disc = Object.fromEntries((view.discs || []).map((d) => [d.galaxy, d]));
  const discGroups = new Map();
  for (const gal of U.galaxies) {
    const [cx, cy] = pos(gal.centre);
    const g = svg("g", { "data-galaxy": gal.slot });
    // A flower: the disc, then a petal behind each of the seven holes, and a mark on the
    // rim so that a turn by a sixth shows.
    g.append(svg("circle", { cx, cy, r: CELL * 1.4, fill: "url(#sm-disc)", stroke: "#6a72d8", "stroke-width": 2 }));
    for (const sp of gal.spaces) {
      if (sp === gal.centre) continue;
      const [px, py] = pos(sp);
      g.append(svg("line", { x1: cx, y1: cy, x2: px, y2: py, stroke: "#9aa6ff", "stroke-width": 2, opacity: 0.25 }));
    }
    const angle = (disc[gal.slot]?.turns ?? 0) * stepDeg; // the rim mark shows how the disc lies
    g.append(svg("path", { d: `M${cx} ${cy - CELL * 1.32} A ${CELL * 1.32} ${CELL * 1.32} 0 0 1 ${cx + CELL * 1.14} ${cy - CELL * 0.66}`, fill: "none", stroke: "#9aa6ff", "stroke-width": 3, opacity: 0.6, transform: `rotate(${angle} ${cx} ${cy})` }));
    discGroups.set(gal.slot, { g, cx, cy });
    s.append(g);
  }
  for (const sp of U.spaces) {
    const [cx, cy] = pos(sp);
    const gal = inGalaxy.get(sp);
    const parent = gal ? discGroups.get(gal.slot).g : s;
    const g = svg("g", { "data-space": sp });
    if (holes.has(sp)) g.append(svg("circle", { cx, cy, r: 19, fill: "url(#sm-hole)" }));
    else g.append(svg("circle", { cx, cy, r: 19, fill: "#0c0f2a", stroke: view.colours?.[sp] ? HOLE[view.colours[sp]] : "#55608f", "stroke-width": view.colours?.[sp] ? 4 : 1.5 }));
    if (gal && gal.centre === sp) g.append(svg("circle", { cx, cy, r: 24, fill: "none", stroke: "#ffffff", "stroke-opacity": 0.35, "stroke-dasharray": "3 3" }));
    const b = view.board[sp];
    if (b) g.append(body(b, cx, cy, 18));
    if (view.placed === sp) g.append(svg("circle", { cx, cy, r: 26, fill: "none", stroke: "#fff", "stroke-width": 2 }));
    parent.append(mark(g, sp, ctx, cx, cy, 20));
  }
  // Space names along the edges.
  cols.forEach((c, i) => s.append(svg("text", { x: PAD + (i + 1) * CELL / 2, y: 16, "text-anchor": "middle", "font-size": 11, fill: "#6d78a8" }, c)));
  for (let r = 1; r <= U.height; r++) s.append(svg("text", { x: 10, y: PAD + (r - 1) * ROW + CELL / 2 + 4, "text-anchor": "middle", "font-size": 11, fill: "#6d78a8" }, String(r)));
  // Animate discs that turned since the last drawing.
  for (const [slot, info] of discGroups) {
    const turns = disc[slot]?.turns ?? 0;
    const before = lastTurns[slot];
    if (before !== undefined && before !== turns && !ctx.replay) {
      const delta = (((turns - before) % full) + full) % full;
      info.g.style.transformBox = "view-box";
      info.g.style.transformOrigin = `${info.cx}px ${info.cy}px`;
      info.g.style.transform = `rotate(${-stepDeg * delta}deg)`;
      info.g.setAttribute("data-turning", String(delta));
      requestAnimationFrame(() => requestAnimationFrame(() => {
        info.g.style.transition = "transform 0.9s ease-in-out";
        info.g.style.transform = "rotate(0deg)";
      }));
    }
  }
  lastTurns = Object.fromEntries((view.discs || []).map((d) => [d.galaxy, d.turns]));

  // The bag, the drawn body and the phase, on the right.
  const px = boardW + 20;
  s.append(svg("text", { x: px, y: 30, "font-size": 15, fill: "#e8ecff", "font-weight": 600 }, "The bag"));
  Object.entries(view.bag || {}).forEach(([kind, n], i) => {
    const cx = px + 30 + i * 66, cy = 70;
    const g = svg("g", {});
    g.append(body(kind, cx, cy, 20));
    g.append(svg("text", { x: cx, y: cy + 40, "text-anchor": "middle", "font-size": 12, fill: "#c9d2ff" }, `${capital(kind)} ${n}`));
    const entry = drawOf(ctx, kind);
    s.append(mark(g, kind, ctx, cx, cy, 22, entry && !ctx.selected?.size ? () => ctx.act(entry) : null));
  });
  if (view.drawn) { s.append(svg("text", { x: px, y: 150, "font-size": 13, fill: "#c9d2ff" }, "In hand:")); s.append(body(view.drawn, px + 80, 145, 16)); }
  if (view.final_round) s.append(svg("text", { x: px, y: 190, "font-size": 13, fill: "#ff9f6b" }, "Final round!"));
  s.append(svg("text", { x: px, y: 226, "font-size": 15, fill: "#e8ecff", "font-weight": 600 }, `Available Missions (reserve ${view.reserve})`));
  (view.available || []).forEach((id, i) => s.append(missionCard(view.cards[id], px + (i % 2) * 128, 236 + Math.floor(i / 2) * 126, ctx)));

  // Each player: the name line on top, clear of the cards; below it tokens and counts,
  // the Missions in hand, and every completed Mission (in as many lines as they need).
  let y = top + 4;
  for (const row of rows) {
    const seat = row.seat;
    const turn = view.turn === seat;
    s.append(svg("rect", { x: 4, y, width: width - 8, height: row.height - 10, rx: 12, fill: turn ? "rgba(255,214,107,0.06)" : "rgba(255,255,255,0.02)", stroke: turn ? "#ffd66b" : "#2c3870" }));
    s.append(svg("text", { x: 16, y: y + 22, "font-size": 15, fill: "#e8ecff", "font-weight": 600 }, `${ctx.names?.[seat] || "Player " + (seat + 1)} · ${view.scores?.[seat] ?? 0} Stelliums`));
    const cards = y + 34;
    (view.tokens?.[seat] || []).forEach((c, i) => s.append(svg("circle", { cx: 24 + i * 24, cy: cards + 14, r: 9, fill: HOLE[c], stroke: "#fff", "stroke-opacity": 0.4 })));
    s.append(svg("text", { x: 16, y: cards + 52, "font-size": 12, fill: "#9aa6d8" }, `Missions in hand: ${(view.hands?.[seat] || []).length}`));
    s.append(svg("text", { x: 16, y: cards + 72, "font-size": 12, fill: "#9aa6d8" }, `completed: ${row.done.length} (${view.mission_points?.[seat] ?? 0}★)`));
    (view.hands?.[seat] || []).forEach((id, i) => s.append(missionCard(view.cards[id], HAND_X + i * CARD_STEP, cards, ctx)));
    row.done.forEach((id, i) => view.cards[id] && s.append(missionCard(view.cards[id], DONE_X + (i % row.perLine) * CARD_STEP, cards + Math.floor(i / row.perLine) * CARD_STEP, ctx, { done: true })));
    y += row.height;
  }
  const pushing = drawPushChoice(s, view, ctx, { pos, body, cols, spaces, cell: CELL });
  root.replaceChildren(header(view, ctx, pushing), s);
  return true;
}

const CARD_STEP = 124, HAND_X = 230, DONE_X = 620;

/** Each seat's strip: as tall as its completed Missions need, in lines of what fits. */
function seatRows(view, width) {
  const perLine = Math.max(1, Math.floor((width - 8 - DONE_X) / CARD_STEP));
  return Array.from({ length: view.players }, (_, seat) => {
    const done = view.completed?.[seat] || [];
    const lines = Math.max(1, Math.ceil(done.length / perLine));
    return { seat, done, perLine, height: 34 + lines * CARD_STEP + 12 };
  });
}

const PHASE = { draw: "choose a body from the bag", effect: "resolve the effect", missions: "complete Missions or stop", keep: "keep one body of the Mission", refill: "refill an empty Galaxy", new_mission: "take a new Mission", over: "the game is over" };

/** Above the drawing, in the page's own text (so it wraps and stays in sight on any
 *  screen, a phone's zoomed window included): what the player to move must do and, while
 *  they draw, one button per body in the bag, each drawing it at once (5 seconds). */
function header(view, ctx, text = null) {
  const who = ctx.names?.[view.turn] || `Player ${view.turn + 1}`;
  const what = view.phase === "place" ? `place the ${capital(view.drawn || "body")}` : PHASE[view.phase] || view.phase;
  const prompt = el("p", { class: "sm-prompt", role: "status", style: "margin:0 0 0.4em;color:#ffd66b;font-weight:600" }, text || `${who}: ${what}`);
  const box = el("div", { class: "sm-head" }, prompt);
  const draws = Object.keys(view.bag || {}).map((kind) => [kind, drawOf(ctx, kind)]).filter(([, entry]) => entry);
  if (draws.length) {
    box.append(el("div", { class: "sm-bag", role: "group", "aria-label": "draw from the bag", style: "display:flex;flex-wrap:wrap;gap:0.4em;margin:0 0 0.5em" },
      ...draws.map(([kind, entry]) => el("button", { type: "button", "data-draw": kind, disabled: ctx.pending ? "" : null, onclick: () => ctx.act(entry) },
        bodyIcon(kind), ` ${capital(kind)} (${view.bag[kind]})`))));
  }
  return box;
}

/** The legal move that draws ``kind``, when the page may make it (not in a replay). */
function drawOf(ctx, kind) {
  if (!ctx.act || ctx.replay) return null;
  return (ctx.legal || []).find((a) => a.action.kind === "draw" && String(a.action.args[0]) === kind) || null;
}

function bodyIcon(kind) {
  const icon = svg("svg", { viewBox: "-13 -13 26 26", "aria-hidden": "true", focusable: "false", style: "width:22px;height:22px;max-width:22px;vertical-align:middle;display:inline-block" });
  icon.append(body(kind, 0, 0, 12));
  return icon;
}

export function eventText(e, name) {
  const who = typeof e.seat === "number" ? name(e.seat) : "";
  switch (e.kind) {
    case "drew": return `${who} drew a ${e.body}`;
    case "timeout": return `${who} ran out of time: a random body is drawn`;
    case "placed": return `${who} placed the ${e.body} on ${e.space}`;
    case "effect": return e.effect === "none" ? `${who}: no effect` : `${capital(e.effect)}${e.off_edge ? " (a body left the Universe)" : ""}`;
    case "token": return `${who} used the ${e.colour} Influence token`;
    case "took": return `${who} took a Mission (${e.mission})`;
    case "revealed": return `A new Mission is available (${e.reserve} left in reserve)`;
    case "final_round": return `The final round begins (${e.reason === "target" ? "target reached" : "no Missions left"})`;
    case "turn": return `${who}'s turn`;
    case "game_over": return "The game is over";
    default: return null;
  }
}
