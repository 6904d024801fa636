// The Comet's Collision chosen on the board: once the player has picked the body the
// Comet crashes into, an arrow for each legal push direction rings it (a finger's size
// on a phone). Hovering an arrow with a mouse, or a first tap, previews where the pushed
// bodies end up (and which one leaves the Universe); a click on the previewed arrow, or a
// second tap, makes the move. The move list stays the keyboard and screen-reader path.
// The blue Influence token's Collision is chosen the same way: a tap on the body just
// placed (its effect pending) brings its arrows. The preview follows the rule of
// rules/effects.py's push: the unbroken line of bodies from the space moves one step
// on, the last off the Universe when no space is there.
import { svg, capital } from "/static/js/common.js";

// The six lattice directions in doubled columns (universe.py's LATTICE_DIRS): rows, columns.
const STEP = { e: [0, 2], se: [1, 1], sw: [1, -1], w: [0, -2], nw: [-1, -1], ne: [-1, 1] };
const WORD = { e: "east", se: "south-east", sw: "south-west", w: "west", nw: "north-west", ne: "north-east" };
const RING = 50; // drawing units from the space's centre to an arrow's
const TARGET = 23; // an arrow's radius: 46 units, over 44 CSS px at a phone's readable scale
let previewed = null; // { key, dir }: the arrow previewed, kept across redraws of one choice
let armed = null; // the key of the token Collision whose arrows the player asked for

/** The push being chosen: the legal ``place SPACE DIR`` moves of the space the player
 *  picked, or the ``push DIR`` moves of the body just placed; null when there is none. */
function choice(view, ctx, spaces) {
  if (!ctx.act || ctx.replay || ctx.pending) return null;
  if (view.phase === "effect" && view.placed) {
    const moves = (ctx.legal || []).filter((a) => a.action.kind === "push" && STEP[String(a.action.args[0])]);
    const key = `${view.turn_count}:${view.turn}:push:${view.placed}`;
    return moves.length ? { space: view.placed, moves, key, token: true, armed: armed === key } : null;
  }
  if (view.phase !== "place") return null;
  const picked = [...(ctx.selected || [])].filter((t) => spaces.has(t));
  if (picked.length !== 1) return null;
  const space = picked[0];
  const moves = (ctx.legal || []).filter((a) => a.action.kind === "place" && a.action.args.length === 2 && String(a.action.args[0]) === space && STEP[String(a.action.args[1])]);
  return moves.length ? { space, moves, key: `${view.turn_count}:${view.turn}:${space}`, armed: true } : null;
}

/** The token Collision's result: the line beside the placed body moves on, and the
 *  placed body takes the first space of it. */
function tokenPushResult(view, cols, spaces, placed, dir) {
  const first = stepFrom(cols, spaces, placed, dir);
  const moves = pushResult(view, cols, spaces, first, dir).slice(0, -1);
  moves.push({ from: placed, to: first, body: view.board[placed] });
  return moves;
}

function stepFrom(cols, spaces, name, dir) {
  const c = cols.indexOf(name[0]) + STEP[dir][1], r = Number(name.slice(1)) + STEP[dir][0];
  const n = c >= 0 && c < cols.length && r >= 1 ? `${cols[c]}${r}` : null;
  return n && spaces.has(n) ? n : null;
}

/** Where each body goes when the Comet crashes into ``space`` pushing ``dir``:
 *  [{from, to (null: off the Universe), body}], the Comet itself last. */
export function pushResult(view, cols, spaces, space, dir) {
  const next = (name) => stepFrom(cols, spaces, name, dir);
  const chain = [space];
  let end = next(space);
  while (end && view.board[end]) { chain.push(end); end = next(end); }
  const moves = chain.map((from, i) => ({ from, to: i + 1 < chain.length ? chain[i + 1] : end, body: view.board[from] }));
  moves.push({ from: null, to: space, body: view.drawn || "comet" });
  return moves;
}

function sentence(result, dir, touch, mover) {
  const moved = result.filter((m) => m.from && m.to).map((m) => `the ${capital(m.body)} on ${m.from} goes to ${m.to}`);
  const off = result.find((m) => m.from && !m.to);
  const parts = [...moved, off ? `the ${capital(off.body)} on ${off.from} leaves the Universe` : null].filter(Boolean);
  return `Pushing ${WORD[dir]}: ${parts.join(", ")}; the ${mover} takes ${result.at(-1).to}. ${touch ? "Tap the arrow again" : "Click the arrow"} to confirm.`;
}

/** Draws the arrows (and the kept preview) on ``s``; returns the prompt to show, or null
 *  when no push direction is being chosen. ``geo``: {pos, body, cols, spaces, cell}. */
export function drawPushChoice(s, view, ctx, geo) {
  const c = choice(view, ctx, geo.spaces);
  if (!c) { previewed = null; armed = null; return null; }
  if (previewed && previewed.key !== c.key) previewed = null;
  const [cx, cy] = geo.pos(c.space);
  const who = ctx.names?.[view.turn] || "You";
  const mover = c.token ? capital(view.board[c.space]) : "Comet";
  if (c.token) {
    // The placed body itself (no other move uses it) asks for the arrows, or puts them away.
    const arm = svg("g", { class: "hot push-arm", "data-arm-push": c.space, cursor: "pointer" });
    arm.append(svg("circle", { cx, cy, r: 24, fill: "#000", "fill-opacity": 0, stroke: "#4a8cff", "stroke-width": 3, "stroke-dasharray": c.armed ? "" : "5 3", class: c.armed ? "" : "pulse", "pointer-events": "all" }));
    arm.append(svg("title", {}, c.armed ? "put the push arrows away" : "push with the blue Influence token"));
    arm.addEventListener("click", () => { armed = c.armed ? null : c.key; previewed = null; ctx.redraw?.(); });
    s.append(arm);
    if (!c.armed) return `${who}: resolve the effect, or push with the ${mover} on ${c.space} by the blue Influence token: press it for the arrows.`;
  }
  const layer = svg("g", { class: "sm-preview", "pointer-events": "none" });
  const arrows = svg("g", { class: "sm-arrows" });
  s.append(arrows, layer); // the preview over the arrows, which cover the neighbours

  const prompt = () => s.parentElement?.querySelector(".sm-prompt");
  const show = (dir, touch) => {
    previewed = { key: c.key, dir, touch };
    const result = (c.token ? tokenPushResult : pushResult)(view, geo.cols, geo.spaces, c.space, dir);
    layer.replaceChildren(...ghosts(result, dir, geo));
    layer.setAttribute("data-preview", dir);
    for (const a of arrows.children) {
      a.classList.toggle("previewed", a.dataset.push === dir);
      a.setAttribute("opacity", a.dataset.push === dir ? "0.75" : "0.35");
    }
    const p = prompt();
    const text = sentence(result, dir, touch, mover);
    if (p) p.textContent = text;
    return text;
  };
  const hide = () => {
    previewed = null;
    layer.replaceChildren();
    layer.removeAttribute("data-preview");
    for (const a of arrows.children) { a.classList.remove("previewed"); a.removeAttribute("opacity"); }
    const p = prompt();
    if (p) p.textContent = choosing;
  };
  const choosing = c.token
    ? `${who}: the ${mover} on ${c.space} pushes by the blue Influence token; choose where with an arrow on the board.`
    : `${who}: the Comet crashes into ${c.space}; choose where it pushes with an arrow on the board.`;
  for (const entry of c.moves) {
    const dir = String(entry.action.args.at(-1));
    const [dr, dc] = STEP[dir];
    const ux = dc / 2, uy = (dr * Math.sqrt(3)) / 2; // a step on the drawing, in cells
    const len = Math.hypot(ux, uy);
    const ax = cx + (ux / len) * RING, ay = cy + (uy / len) * RING;
    const angle = (Math.atan2(uy, ux) * 180) / Math.PI;
    const g = svg("g", { class: "hot push-arrow", "data-push": dir, "data-token": dir, cursor: "pointer" });
    g.append(svg("circle", { cx: ax, cy: ay, r: TARGET, fill: "#141a45", "fill-opacity": 0.92, stroke: "#ffd66b", "stroke-width": 2, "pointer-events": "all" }));
    g.append(svg("path", { d: `M${ax - 12} ${ay - 4} L${ax + 2} ${ay - 4} L${ax + 2} ${ay - 11} L${ax + 14} ${ay} L${ax + 2} ${ay + 11} L${ax + 2} ${ay + 4} L${ax - 12} ${ay + 4} Z`, fill: "#ffd66b", transform: `rotate(${angle.toFixed(1)} ${ax} ${ay})` }));
    g.append(svg("title", {}, `push ${WORD[dir]}`));
    g.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") show(dir, false); });
    g.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse" && previewed?.dir === dir && !previewed.touch) hide(); });
    g.addEventListener("click", () => {
      if (previewed?.key === c.key && previewed.dir === dir) { previewed = null; ctx.act(entry); }
      else show(dir, true);
    });
    arrows.append(g);
  }
  if (previewed) return show(previewed.dir, previewed.touch);
  return choosing;
}

/** The bodies where the push leaves them, drawn faint over the board, with their paths. */
function ghosts(result, dir, geo) {
  const out = [];
  for (const m of result) {
    const [tx, ty] = m.to ? geo.pos(m.to) : beyond(geo.pos(m.from), dir, geo.cell);
    if (m.from) {
      const [fx, fy] = geo.pos(m.from);
      out.push(svg("line", { x1: fx, y1: fy, x2: tx, y2: ty, stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "4 3" }));
    }
    const g = svg("g", { opacity: m.to ? 0.9 : 0.5 });
    g.setAttribute(m.to ? "data-preview-space" : "data-preview-off", m.to || m.body);
    g.setAttribute("data-preview-body", m.body);
    g.append(svg("circle", { cx: tx, cy: ty, r: 22, fill: "none", stroke: m.to ? "#ffd66b" : "#ff6b6b", "stroke-width": 2, "stroke-dasharray": "5 3" }));
    g.append(geo.body(m.body, tx, ty, 15));
    if (!m.to) g.append(svg("path", { d: `M${tx - 12} ${ty - 12} L${tx + 12} ${ty + 12} M${tx + 12} ${ty - 12} L${tx - 12} ${ty + 12}`, stroke: "#ff6b6b", "stroke-width": 3 }));
    out.push(g);
  }
  return out;
}

/** The point one step beyond ``[x, y]`` towards ``dir`` (a body pushed off the edge). */
function beyond([x, y], dir, cell) {
  const [dr, dc] = STEP[dir];
  return [x + (dc * cell) / 2, y + (dr * cell * Math.sqrt(3)) / 2];
}
