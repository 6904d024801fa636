// Stellar Conflict drawn in SVG: the table seen from above (y up), every ship card with
// its lasers and shields, the card in hand placed by pointing on the table (wheel or
// Q/E turns it) during a visible countdown, and the battle step by step with the
// lasers of the last initiative drawn.
import { svg, el, capital, seatColour } from "../common.js";

export const hiddenKinds = ["place"];
export const hiddenNote = "Place the card in hand by clicking on the table; the mouse wheel, Q/E or the ⟲ ⟳ buttons turn it.";

const LASER = { 1: { c: "#d9c2ff", w: 1.5 }, 2: { c: "#ff5a5a", w: 3 }, 3: { c: "#7dffa8", w: 5 } };
let ghost = { x: null, y: null, angle: 0 };
let countdown = null;
let redraw = null;
let cardNames = {};

function heading(deg) {
  const a = (deg * Math.PI) / 180;
  return [-Math.sin(a), Math.cos(a)];
}

function corners(x, y, angle, hw, hl) {
  const a = (angle * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  return [[-hw, -hl], [hw, -hl], [hw, hl], [-hw, hl]].map(([lx, ly]) => [x + lx * c - ly * s, y + lx * s + ly * c]);
}

function separated(p, q) {
  for (const poly of [p, q]) {
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
      const nx = y2 - y1, ny = x1 - x2;
      const proj = (pts) => pts.map(([x, y]) => x * nx + y * ny);
      const a = proj(p), b = proj(q);
      if (Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a)) return true;
    }
  }
  return false;
}

function placeable(view, poly) {
  const { width, height } = view.table;
  if (poly.some(([x, y]) => x < 0 || y < 0 || x > width || y > height)) return false;
  return view.cards.filter((c) => c.on_table).every((c) => separated(poly, c.corners));
}

export function render(root, view, ctx) {
  if (!view || !view.table || !Array.isArray(view.cards)) return false;
  redraw = ctx.redraw;
  cardNames = Object.fromEntries(view.cards.map((c) => [c.card, c.name]));
  const W = view.table.width, H = view.table.height;
  const hw = view.card_size.width / 2, hl = view.card_size.length / 2;
  const P = ([x, y]) => `${x.toFixed(1)},${(H - y).toFixed(1)}`;
  const owner = (c) => (c.owner === null || c.owner === undefined ? "#9aa0b0" : seatColour(c.owner));
  const wrap = el("div", { class: "conflict" });
  const seat = ctx.seat;
  const me = seat !== null && seat !== undefined ? view.seats[seat] : null;
  const canPlace = ctx.legal.some((a) => a.action.kind === "place") && !ctx.pending;

  // Header: phase, countdown, seats.
  const head = el("div", { class: "cf-head" });
  const phase = { preparation: "Preparation: choose your fleet in secret", deployment: view.deployment === "timed" ? "Deployment against the clock" : "Deployment (Light Speed: stops when someone deploys their last card)", last_card: "Last card: deploy it or hold it back", battle: `Battle: initiative ${view.battle.next ?? "—"} fires next`, over: "The battle is over" }[view.phase] || view.phase;
  head.append(el("strong", {}, phase));
  const timer = (ctx.deadlines || []).find((d) => d.kind === "deployment");
  if (timer) head.append(el("span", { class: "cf-count", "data-due": timer.due, "data-offset": ctx.clockOffset || 0 }, ""));
  wrap.append(head);
  const seatsLine = el("div", { class: "cf-seats" });
  view.seats.forEach((s, i) => seatsLine.append(el("span", { class: "cf-seat", style: `border-color:${seatColour(i)}` },
    `${ctx.names?.[i] || "Seat " + (i + 1)} · ${capital(s.race)} · ${s.score} VP`,
    view.phase === "preparation" ? (s.ready ? " · ready" : " · choosing") : ` · deck ${s.deck}${s.holding ? " + 1 in hand" : ""}${s.done ? " · done" : ""}`)));
  wrap.append(seatsLine);
  if (me && view.phase === "preparation") {
    wrap.append(el("div", { class: "cf-fleet" }, `Your fleet (${me.credits_left} of ${view.credits} credits left): `,
      (me.fleet || []).length ? me.fleet.map((id) => el("span", { class: "chip" }, view.ships[id]?.name || id)) : el("span", { class: "muted" }, "no ship bought yet")));
  }
  if (me && me.hand) {
    const ship = view.ships[me.hand];
    wrap.append(el("div", { class: "cf-hand" }, "In hand: ", el("b", {}, ship?.name || me.hand),
      ship ? ` (initiative ${ship.initiative}, hull ${ship.hull}, ${ship.vp} VP)` : "",
      canPlace ? [" ", el("button", { class: "secondary", id: "rot-left", onclick: () => { ghost.angle = (ghost.angle + 15) % 360; ctx.redraw(); } }, "⟲"),
        el("button", { class: "secondary", id: "rot-right", onclick: () => { ghost.angle = (ghost.angle + 345) % 360; ctx.redraw(); } }, "⟳"),
        ` ${ghost.angle}°`] : ""));
  }

  const s = svg("svg", { viewBox: `-10 -10 ${W + 20} ${H + 20}`, role: "img", "aria-label": "Stellar Conflict table" });
  s.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 6, fill: "#0d1a2c", stroke: "#3a4a94", "stroke-width": 2, "data-table": "1" }));
  for (let gx = 100; gx < W; gx += 100) s.append(svg("line", { x1: gx, y1: 0, x2: gx, y2: H, stroke: "#1a2a44", "stroke-width": 1 }));
  for (let gy = 100; gy < H; gy += 100) s.append(svg("line", { x1: 0, y1: gy, x2: W, y2: gy, stroke: "#1a2a44", "stroke-width": 1 }));
  for (const c of view.cards) {
    if (!c.on_table) continue;
    const g = svg("g", { "data-card": c.card, "data-ship": c.ship });
    g.append(svg("polygon", { points: c.corners.map(P).join(" "), fill: c.role === "meteor" ? "#4a4a52" : "#1d2a55", stroke: owner(c), "stroke-width": 2.5 }));
    for (const sh of c.shields || []) g.append(svg("line", { x1: sh[0], y1: H - sh[1], x2: sh[2], y2: H - sh[3], stroke: "#ff4050", "stroke-width": 4 }));
    for (const lz of c.lasers || []) {
      const [dx, dy] = heading(lz.direction);
      const st = LASER[lz.strength] || LASER[1];
      g.append(svg("line", { x1: lz.from[0], y1: H - lz.from[1], x2: lz.from[0] + dx * 14, y2: H - (lz.from[1] + dy * 14), stroke: st.c, "stroke-width": st.w }));
    }
    const dmg = (c.damage || []).length;
    g.append(svg("text", { x: c.x, y: H - c.y - 6, "text-anchor": "middle", "font-size": 11, fill: "#e8ecff" }, c.name.length > 14 ? c.name.slice(0, 13) + "…" : c.name));
    g.append(svg("text", { x: c.x, y: H - c.y + 10, "text-anchor": "middle", "font-size": 10, fill: "#ffd66b" },
      c.role === "cargo" ? `cargo ${c.cubes}` : c.role === "meteor" ? "meteor" : `i${c.initiative} · ${dmg}/${c.hull}${c.delays ? ` · delay ${c.delays}` : ""}`));
    s.append(g);
  }
  // Lasers of the last initiative step.
  for (const shot of view.battle.shots || []) {
    const st = LASER[shot.strength] || LASER[1];
    s.append(svg("line", { class: "laser", x1: shot.from[0], y1: H - shot.from[1], x2: shot.to[0], y2: H - shot.to[1], stroke: st.c, "stroke-width": st.w + 1, opacity: 0.9 }));
    s.append(svg("circle", { cx: shot.to[0], cy: H - shot.to[1], r: 5, fill: shot.result === "shield" ? "#ff4050" : st.c }));
  }
  // The card in hand follows the pointer.
  if (canPlace) {
    const toTable = (ev) => {
      const pt = s.createSVGPoint();
      pt.x = ev.clientX; pt.y = ev.clientY;
      const p = pt.matrixTransform(s.getScreenCTM().inverse());
      return [Math.round(p.x), Math.round(H - p.y)];
    };
    const ghostG = svg("g", { class: "ghost", "pointer-events": "none" });
    s.append(ghostG);
    const drawGhost = () => {
      ghostG.replaceChildren();
      if (ghost.x === null) return;
      const poly = corners(ghost.x, ghost.y, ghost.angle, hw, hl);
      const ok = placeable(view, poly);
      ghostG.append(svg("polygon", { points: poly.map(P).join(" "), fill: ok ? "rgba(110,231,168,0.25)" : "rgba(255,123,138,0.25)", stroke: ok ? "#6ee7a8" : "#ff7b8a", "stroke-width": 2, "stroke-dasharray": "6 4" }));
      const [dx, dy] = heading(ghost.angle);
      ghostG.append(svg("line", { x1: ghost.x, y1: H - ghost.y, x2: ghost.x + dx * 40, y2: H - (ghost.y + dy * 40), stroke: "#ffd66b", "stroke-width": 2 }));
    };
    s.addEventListener("pointermove", (ev) => { [ghost.x, ghost.y] = toTable(ev); drawGhost(); });
    s.addEventListener("wheel", (ev) => { ev.preventDefault(); ghost.angle = (ghost.angle + (ev.deltaY > 0 ? 345 : 15)) % 360; drawGhost(); }, { passive: false });
    s.addEventListener("click", (ev) => {
      [ghost.x, ghost.y] = toTable(ev);
      const x = Math.max(0, Math.min(W, ghost.x)), y = Math.max(0, Math.min(H, ghost.y));
      ctx.act({ action: { kind: "place", args: [x, y, ghost.angle] }, label: `place at (${x}, ${y})` });
    });
    s.style.cursor = "crosshair";
    drawGhost();
  }
  wrap.append(s);
  root.replaceChildren(wrap);
  tick();
  return true;
}

function tick() {
  const node = document.querySelector(".cf-count");
  if (!node) return;
  const left = Math.max(0, Number(node.dataset.due) - (Date.now() / 1000 + Number(node.dataset.offset)));
  node.textContent = `${left.toFixed(1)} s left`;
  node.classList.toggle("low", left < 5);
}

if (!countdown) countdown = setInterval(tick, 100);

document.addEventListener("keydown", (ev) => {
  if (!document.querySelector("svg[aria-label='Stellar Conflict table']")) return;
  if (ev.key === "q" || ev.key === "e") {
    ghost.angle = (ghost.angle + (ev.key === "q" ? 15 : 345)) % 360;
    redraw?.();
  }
});

const RESULT = { miss: "misses", shield: "is stopped by a shield", damage: "hits", cargo: "steals cargo", delay: "delays its target", ion_no_effect: "has no effect" };

export function eventText(e, name) {
  const who = typeof e.seat === "number" ? name(e.seat) : "";
  const card = (u) => (u === null || u === undefined ? "nothing" : cardNames[u] || `card ${u}`);
  if (e.kind === "laser" && "from_card" in e) {
    const target = e.target === null || e.target === undefined ? "" : ` at ${card(e.target)}`;
    return `${card(e.from_card)} fires a ${e.laser_kind} laser (${e.strength})${target}: ${RESULT[e.result] || e.result || ""}${e.damage ? `, ${e.damage} damage` : ""}`;
  }
  if (e.kind === "cubes" && "why" in e) return `${e.cubes} cargo cube(s) ${e.why === "stolen" ? `stolen by ${card(e.to_card)}` : e.why} from ${card(e.from_card)}`;
  switch (e.kind) {
    case "buy": return e.ship ? `${who} added ${e.ship} to the fleet` : null;
    case "sell": return e.ship ? `${who} took ${e.ship} out of the fleet` : null;
    case "ready": return `${who} is ready`;
    case "drew": return e.ship ? `${who} drew ${e.ship} (${e.deck} left in the deck)` : `${who} drew a card`;
    case "deck_empty": return `${who}'s deck is empty`;
    case "deployment": return `Deployment begins${e.timed ? " — the clock is running" : ""}`;
    case "placed": case "deployed": return `${who} deployed ${e.ship || "a ship"}`;
    case "done": return `${who} stopped deploying`;
    case "stop": return e.why === "timeout" ? "Time is up: deployment stops" : `${e.seat !== null && e.seat !== undefined ? name(e.seat) : "Someone"} called stop`;
    case "battle": return "The battle begins";
    case "initiative": return `Initiative ${e.initiative} fires`;
    case "laser": return `A laser (${e.strength}) ${e.result === "miss" ? "misses" : e.result === "shield" ? "hits a shield" : "hits"}`;
    case "destroyed": return `${card(e.card)} is destroyed`;
    case "cargo": return `${card(e.card)} is loaded with ${e.cubes} cargo cubes`;
    case "over": return "The battle is over";
    default: return null;
  }
}
