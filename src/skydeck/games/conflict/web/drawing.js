// Stellar Conflict drawn in SVG: the table seen from above (y up), every ship card with
// its lasers and shields, the card in hand dragged onto the table and turned while it is
// held (wheel, Q/E, or its round handle) during a visible countdown, and the battle step
// by step with the lasers of the last initiative drawn.
//
// Why the drag lives outside the drawing: the table is redrawn whenever any player acts,
// so the card being dragged (where it is, how it is turned, which pointer holds it) is
// kept in this module and the pointer is followed on `window`; every redraw paints the
// held card again where it was, and the next pointer move carries on from there.
//
// The held card is also reported to the server (a "hold" message, at most every
// REPORT_MS while it moves): when the deployment clock rings, or someone calls stop in
// Light Speed, the card being moved lands where it is, as the rulebook says.
import { svg, el, capital, seatColour } from "/static/js/common.js";
import { cardArt, shotArt, playShots, shotsPlaying, newDamageByCard, laserColour, LASER_WIDTH, SHIELD } from "./conflict_art.js";

export const hiddenKinds = ["place"];
/** The table's clocks, drawn here in the head as "57.3 s left" (the page draws them
 * nowhere else: each clock once, issue 49). */
export const boardClocks = ["deployment", "stop", "alarm"];
export const hiddenNote =
  "Drag the card in hand onto the table (or press on the table) and let go to deploy it. " +
  "While you hold it, the mouse wheel, Q/E or its round handle turn it; Escape puts it back. " +
  "Keyboard: focus the card in hand, arrows move it, Q/E turn it, Enter deploys.";

const TURN = 15; // degrees per wheel notch or Q/E press (Shift: FINE)
const FINE = 5; // the handle snaps to this (Shift: TURN)
const HANDLE = 20; // mm from the card's nose to the rotate handle
const KEY_STEP = 10; // mm per arrow key (Shift: 1)
const REPORT_MS = 150; // the fastest the held card's position is reported to the server

let angle = 0; // heading chosen for the card in hand, kept from one card to the next
let drag = null; // {by: pointerId or "keys", seat, x, y} in table mm while a card is held
let turning = null; // {pointerId, on: "hand" | "ghost"} while a rotate handle is dragged
let sent = null; // {x, y, angle} dropped and sent, until the server answers
let lastSpot = null; // where the last card went: the keyboard starts from there
let live = null; // the latest drawing: {view, ctx, table, layer, hand, canPlace, W, H, hw, hl}
let countdown = null;
let cardNames = {};
let reported = null; // the last report sent: "card|x,y,angle" (or "card|" back in hand)
let reportedAt = 0;
let reportTimer = null;

// --- geometry (table mm, y up; angle counter-clockwise from +y) -------------------------

function heading(deg) {
  const a = (deg * Math.PI) / 180;
  return [-Math.sin(a), Math.cos(a)];
}

function corners(x, y, deg, hw, hl) {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  return [[-hw, -hl], [hw, -hl], [hw, hl], [-hw, hl]].map(([lx, ly]) => [x + lx * c - ly * s, y + lx * s + ly * c]);
}

/** Separating-axis test: true when two convex quadrilaterals neither overlap nor touch. */
function separated(p, q) {
  for (const poly of [p, q]) {
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
      const nx = y2 - y1, ny = x1 - x2;
      let amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
      for (const [x, y] of p) { const v = x * nx + y * ny; amin = Math.min(amin, v); amax = Math.max(amax, v); }
      for (const [x, y] of q) { const v = x * nx + y * ny; bmin = Math.min(bmin, v); bmax = Math.max(bmax, v); }
      if (amax < bmin || bmax < amin) return true;
    }
  }
  return false;
}

/** Why the card in hand may not go at (x, y, deg), or null: the client's preview of the
 * server's check (same rules: on the table, touching no card). The server still judges. */
export function spotProblem(view, x, y, deg) {
  const { width, height } = view.table;
  const poly = corners(x, y, deg, view.card_size.width / 2, view.card_size.length / 2);
  if (poly.some(([px, py]) => px < -1e-6 || py < -1e-6 || px > width + 1e-6 || py > height + 1e-6)) return "Part of the card would be off the table";
  const hit = view.cards.find((c) => c.on_table && !separated(poly, c.corners));
  return hit ? `It would touch or overlap ${hit.name}` : null;
}

const norm = (deg) => ((Math.round(deg) % 360) + 360) % 360;

// --- the card in hand and the held card ---------------------------------------------

/** A card design drawn around (0, 0), nose up (SVG y down), with its lasers and shields. */
function cardFace(ship, hw, hl, attrs) {
  const g = svg("g", {});
  g.append(svg("rect", { x: -hw, y: -hl, width: 2 * hw, height: 2 * hl, rx: 3, ...attrs }));
  g.append(svg("path", { d: `M ${-8} ${-hl + 10} L 0 ${-hl + 2} L 8 ${-hl + 10}`, fill: "none", stroke: "#ffd66b", "stroke-width": 2 }));
  stubs(g, ship);
  if (ship) {
    g.append(svg("text", { x: 0, y: -4, "text-anchor": "middle", "font-size": 10, fill: "#e8ecff" }, ship.name.length > 14 ? ship.name.slice(0, 13) + "…" : ship.name));
    g.append(svg("text", { x: 0, y: 12, "text-anchor": "middle", "font-size": 10, fill: "#ffd66b" }, `i${ship.initiative} · hull ${ship.hull}`));
  }
  return g;
}

/** A design's shields and laser stubs in its own frame (nose up, SVG y down). */
function stubs(g, ship) {
  for (const sh of ship?.shields || []) g.append(svg("line", { x1: sh[0], y1: -sh[1], x2: sh[2], y2: -sh[3], stroke: SHIELD, "stroke-width": 3, "stroke-linecap": "round" }));
  for (const lz of ship?.lasers || []) {
    const [dx, dy] = heading(lz.direction);
    g.append(svg("line", { x1: lz.x, y1: -lz.y, x2: lz.x + dx * 14, y2: -(lz.y + dy * 14), stroke: laserColour(lz.strength, lz.kind), "stroke-width": (LASER_WIDTH[lz.strength] || 1.6) + 1 }));
  }
}

/** The rotate handle: a stalk from the nose to a round grip, drawn nose up around (0, 0). */
function handle(hl, on) {
  const g = svg("g", { class: "cf-handle", "data-handle": on, "pointer-events": "all" });
  g.append(svg("line", { x1: 0, y1: -hl, x2: 0, y2: -(hl + HANDLE), stroke: "#ffd66b", "stroke-width": 1.5 }));
  g.append(svg("circle", { cx: 0, cy: -(hl + HANDLE), r: 8, fill: "#3a2c00", stroke: "#ffd66b", "stroke-width": 2 }));
  g.append(svg("path", { d: `M -4 ${-(hl + HANDLE) - 1} a 4 4 0 1 1 4 4`, fill: "none", stroke: "#ffd66b", "stroke-width": 1.5 }));
  return g;
}

/** Tells the server where the held card is (or that it is back in hand), throttled to
 * one message per REPORT_MS; the latest position always goes out last. */
function report() {
  if (!live?.ctx?.report || !live.cardKey) return;
  const wait = reportedAt + REPORT_MS - Date.now();
  if (wait > 0) {
    if (!reportTimer) reportTimer = setTimeout(() => { reportTimer = null; report(); }, wait);
    return;
  }
  let at = null;
  if (drag && live.canPlace) {
    const x = Math.round(drag.x), y = Math.round(drag.y);
    if (x >= 0 && y >= 0 && x <= live.W && y <= live.H) at = [x, y, angle];
  }
  const key = `${live.cardKey}|${at ? at.join(",") : ""}`;
  if (key === reported || (!at && reported === null)) return;
  reported = key;
  reportedAt = Date.now();
  live.ctx.report("hold", { at });
}

/** Paints the held (or just dropped) card on the table and the angle read-outs. */
function paint() {
  document.documentElement.classList.toggle("cf-dragging", Boolean(drag || turning));
  if (!live) return;
  const { view, layer, W, H, hw, hl } = live;
  const spot = drag || sent;
  const x = spot ? Math.round(spot.x) : 0, y = spot ? Math.round(spot.y) : 0;
  const deg = spot === sent && sent ? sent.angle : angle;
  const away = x < 0 || y < 0 || x > W || y > H;
  const why = spot ? spotProblem(view, x, y, deg) : null;
  if (layer) {
    layer.replaceChildren();
    if (spot) {
      const g = svg("g", { class: `cf-ghost ${why ? "cf-illegal" : "cf-legal"}${spot === sent ? " cf-sent" : ""}`,
        transform: `translate(${x} ${H - y})`, "data-x": x, "data-y": y, "data-angle": deg });
      const turned = svg("g", { transform: `rotate(${-deg})` });
      turned.append(cardFace(live.ship, hw, hl, { class: "cf-outline", fill: why ? "rgba(255,123,138,0.28)" : "rgba(110,231,168,0.28)", stroke: why ? "#ff7b8a" : "#6ee7a8", "stroke-width": 2.5, "stroke-dasharray": "6 4" }));
      if (spot === drag) turned.append(handle(hl, "ghost"));
      g.append(turned);
      const [dx, dy] = heading(deg);
      const r = hl + HANDLE + 16;
      g.append(svg("text", { class: "cf-angle-label", x: dx * r, y: -dy * r + 4, "text-anchor": "middle", "font-size": 13, fill: "#ffd66b" }, `${deg}°`));
      layer.append(g);
    }
  }
  if (live.turn) live.turn.setAttribute("transform", `rotate(${-angle})`);
  const readout = document.getElementById("cf-angle");
  if (readout) readout.textContent = `${angle}°`;
  const note = document.getElementById("cf-spot");
  if (note) {
    note.textContent = !drag ? "" : away ? "Off the table: let go to put the card back in hand" : why || "Free spot: let go to deploy here";
    note.className = !drag || away ? "" : why ? "cf-bad" : "cf-good";
  }
  report();
}

function toTable(ev) {
  const s = live.table;
  const pt = s.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(s.getScreenCTM().inverse());
  return [p.x, live.H - p.y];
}

function turnBy(delta) {
  angle = norm(angle + delta);
  paint();
}

function startDrag(by, x, y) {
  drag = { by, seat: live.ctx.seat, x, y };
  sent = null;
  paint();
}

function cancelDrag() {
  drag = null;
  turning = null;
  paint();
}

/** Lets go of the held card: off the table it goes back to hand, else the server judges. */
function drop() {
  const x = Math.round(drag.x), y = Math.round(drag.y);
  drag = null;
  turning = null;
  const { W, H, ctx } = live;
  if (!live.canPlace || x < 0 || y < 0 || x > W || y > H) {
    paint();
    return;
  }
  lastSpot = [x, y];
  sent = { x, y, angle };
  reported = null; // the server forgets the report when the placement lands
  paint();
  ctx.act({ action: { kind: "place", args: [x, y, angle] }, label: `place at (${x}, ${y}) turned ${angle}°` });
}

function angleToward(ev) {
  if (turning.on === "hand") {
    const box = live.hand.getBoundingClientRect();
    const dx = ev.clientX - (box.left + box.width / 2), dy = ev.clientY - (box.top + box.height / 2);
    return (Math.atan2(-dx, -dy) * 180) / Math.PI;
  }
  const [px, py] = toTable(ev);
  return (Math.atan2(-(px - drag.x), py - drag.y) * 180) / Math.PI;
}

window.addEventListener("pointermove", (ev) => {
  if (!live) return;
  if (turning && ev.pointerId === turning.pointerId) {
    if (turning.on === "ghost" && !drag) return;
    const snap = ev.shiftKey ? TURN : FINE;
    angle = norm(Math.round(angleToward(ev) / snap) * snap);
    paint();
  } else if (drag && ev.pointerId === drag.by) {
    [drag.x, drag.y] = toTable(ev);
    paint();
  }
});

window.addEventListener("pointerup", (ev) => {
  if (turning && ev.pointerId === turning.pointerId) turning = null;
  else if (drag && ev.pointerId === drag.by) drop();
});

window.addEventListener("pointercancel", (ev) => {
  if (turning && ev.pointerId === turning.pointerId) turning = null;
  else if (drag && ev.pointerId === drag.by) cancelDrag();
});

window.addEventListener("wheel", (ev) => {
  if (!live?.canPlace) return;
  const over = ev.target instanceof Element && ev.target.closest(".cf-table, .cf-hand-card");
  if (!drag && !over) return;
  const d = ev.deltaY || ev.deltaX;
  if (!d) return;
  ev.preventDefault();
  const step = ev.shiftKey ? FINE : TURN;
  turnBy(d > 0 ? -step : step);
}, { passive: false });

document.addEventListener("keydown", (ev) => {
  if (!live || !document.querySelector(".cf-table")) return;
  if (ev.target instanceof Element && ev.target.closest("input, select, textarea")) return;
  if (ev.key === "Escape" && drag) {
    ev.preventDefault();
    cancelDrag();
    return;
  }
  if (!live.canPlace) return;
  const k = ev.key.toLowerCase();
  if (k === "q" || k === "e") {
    turnBy((k === "q" ? 1 : -1) * (ev.shiftKey ? FINE : TURN));
    return;
  }
  const byKeys = drag?.by === "keys";
  const focused = document.activeElement === live.hand;
  if (!byKeys && !focused) return;
  const step = ev.shiftKey ? 1 : KEY_STEP;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
  if (ev.key in moves) {
    ev.preventDefault();
    if (drag && !byKeys) return; // a pointer holds the card
    if (!drag) startDrag("keys", ...(lastSpot || [live.W / 2, live.H / 2]));
    drag.x = Math.max(0, Math.min(live.W, Math.round(drag.x) + moves[ev.key][0]));
    drag.y = Math.max(0, Math.min(live.H, Math.round(drag.y) + moves[ev.key][1]));
    paint();
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    if (byKeys) drop();
    else if (!drag) startDrag("keys", ...(lastSpot || [live.W / 2, live.H / 2]));
  }
});

// --- the battle, one step at a time ---------------------------------------------------
//
// An AI (or another player) may fire the next steps faster than their shots can be
// watched: each step's view waits in a queue until the shots on screen are shown, so
// every step plays out in order. The moves offered are always the latest.

let battleQueue = []; // later battle views, oldest first, one per step
let onScreen = null; // the battle view being drawn while its shots play

/** The view to draw for the latest ``view``: itself, or an earlier step still to show. */
function battleView(view, ctx) {
  const inBattle = view.phase === "battle" || view.phase === "over";
  if (ctx.replay || !inBattle) {
    battleQueue = [];
    onScreen = null;
    return view;
  }
  const step = view.battle.step;
  if (onScreen && onScreen.battle.step === step) onScreen = view;
  else if (battleQueue.length && battleQueue.at(-1).battle.step === step) battleQueue[battleQueue.length - 1] = view;
  else battleQueue.push(view);
  if ((!onScreen || !shotsPlaying()) && battleQueue.length) onScreen = battleQueue.shift();
  return onScreen || view;
}

/** True while steps are still to be shown: the page waits before its end dialog. */
export function busy() {
  return battleQueue.length > 0 || (onScreen !== null && shotsPlaying());
}

// --- the page -------------------------------------------------------------------------

export function render(root, latest, ctx) {
  if (!latest || !latest.table || !Array.isArray(latest.cards)) return false;
  const view = battleView(latest, ctx);
  cardNames = Object.fromEntries(view.cards.map((c) => [c.card, c.name]));
  const W = view.table.width, H = view.table.height;
  const hw = view.card_size.width / 2, hl = view.card_size.length / 2;
  const P = ([x, y]) => `${x.toFixed(1)},${(H - y).toFixed(1)}`;
  const owner = (c) => (c.owner === null || c.owner === undefined ? "#9aa0b0" : seatColour(c.owner));
  const wrap = el("div", { class: "conflict cf-wrap" });
  const seat = ctx.seat;
  const me = seat !== null && seat !== undefined ? view.seats[seat] : null;
  // After a stop (Light Speed, real clock) the card being moved stays where it is: the
  // server reports it; it can no longer be moved.
  const placing = view.phase === "deployment";
  const canPlace = Boolean(ctx.live && !ctx.replay && !ctx.pending && me && me.hand && placing &&
    (view.to_move || []).includes(seat) && ctx.legal.some((a) => ["place", "done"].includes(a.action.kind)));
  if (!ctx.pending) sent = null;
  // A card that can no longer be moved (the alarm, a stop) is not "back in hand": its
  // last report stands (no report of the card leaving the table is sent).
  if (drag && (!canPlace || drag.seat !== seat)) { drag = null; turning = null; reported = null; }
  const hadFocus = document.activeElement instanceof Element && document.activeElement.matches(".cf-hand-card");

  // Header: phase, countdown, seats.
  const head = el("div", { class: "cf-head" });
  const phase = { preparation: "Preparation: choose your fleet in secret", deployment: view.deployment === "timed" ? "Deployment against the clock" : "Deployment (Light Speed: stops when someone deploys their last card)", last_card: "Stop! The card being moved lands where it is", alarm: `${view.deployment === "timed" ? "Time is up" : "Stop was called"}: each card being moved is frozen where it is — deploy it there or remove it`, battle: `Battle: initiative ${view.battle.next ?? "—"} fires next`, over: "The battle is over" }[view.phase] || view.phase;
  head.append(el("strong", {}, phase));
  const timer = (ctx.deadlines || []).find((d) => boardClocks.includes(d.kind));
  if (timer) head.append(el("span", { class: "cf-count", "data-due": timer.due, "data-offset": ctx.clockOffset || 0 }, ""));
  wrap.append(head);
  const seatsLine = el("div", { class: "cf-seats" });
  view.seats.forEach((s, i) => seatsLine.append(el("span", { class: "cf-seat", style: `border-color:${seatColour(i)}` },
    `${ctx.names?.[i] || "Player " + (i + 1)} · ${capital(s.race)} · ${s.score} VP`,
    view.phase === "preparation" ? (s.ready ? " · ready" : " · choosing") : ` · deck ${s.deck}${s.holding ? " + 1 in hand" : ""}${s.done ? " · done" : ""}`)));
  wrap.append(seatsLine);
  const battleBar = battleLine(view, ctx, latest);
  if (battleBar) wrap.append(battleBar);
  const alarmBar = alarmLine(view, ctx);
  if (alarmBar) wrap.append(alarmBar);
  if (me && view.phase === "preparation") {
    wrap.append(el("div", { class: "cf-fleet" }, `Your fleet (${me.credits_left} of ${view.credits} credits left): `,
      (me.fleet || []).length ? me.fleet.map((id) => el("span", { class: "chip" }, view.ships[id]?.name || id)) : el("span", { class: "muted" }, "no ship bought yet")));
  }

  const shop = shopLine(view, ctx);
  if (shop) wrap.append(shop);

  // The card in hand, at the table's scale, turned as it will be deployed.
  const ship = me && me.hand ? view.ships[me.hand] : null;
  let hand = null, turn = null;
  if (me && me.hand) {
    const R = hl + HANDLE + 12;
    hand = svg("svg", { class: `cf-hand-card${canPlace ? " cf-can-drag" : ""}`, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`,
      style: `width: calc(100% * ${2 * R} / ${W + 20})`, role: "button", tabindex: canPlace ? 0 : -1,
      "aria-label": `Card in hand: ${ship?.name || me.hand}. Drag it onto the table; arrow keys move it, Q or E turn it, Enter deploys it, Escape puts it back.` });
    turn = svg("g", { transform: `rotate(${-angle})` });
    const face = cardArt({ ...(ship || { name: me.hand }), owner: seat, damage: [], cubes: 0, delays: 0, fired: false }, hw, hl);
    stubs(face, ship);
    turn.append(face);
    if (canPlace) turn.append(handle(hl, "hand"));
    hand.append(turn);
    hand.addEventListener("pointerdown", (ev) => {
      if (!live?.canPlace || (ev.pointerType === "mouse" && ev.button !== 0)) return;
      ev.preventDefault();
      if (ev.target instanceof Element && ev.target.closest(".cf-handle")) turning = { pointerId: ev.pointerId, on: "hand" };
      else if (!drag) startDrag(ev.pointerId, ...toTable(ev));
    });
    const info = el("div", { class: "cf-hand-info" },
      el("div", {}, "In hand: ", el("b", {}, ship?.name || me.hand),
        ship ? ` (initiative ${ship.initiative}, hull ${ship.hull}, ${ship.vp} VP)` : ""),
      canPlace ? el("div", { class: "cf-turn" },
        el("button", { class: "secondary", id: "rot-left", title: "turn left (Q)", onclick: () => turnBy(TURN) }, "⟲"),
        el("button", { class: "secondary", id: "rot-right", title: "turn right (E)", onclick: () => turnBy(-TURN) }, "⟳"),
        " ", el("span", { id: "cf-angle" }, `${angle}°`)) : "",
      canPlace ? el("div", { id: "cf-spot", role: "status" }) : "",
      canPlace ? el("div", { class: "muted cf-tip" }, "Drag the card onto the table and let go; wheel, Q/E or the round handle turn it; Escape puts it back.") : "");
    wrap.append(el("div", { class: "cf-hand" }, hand, info));
  }

  const s = svg("svg", { class: `cf-table${canPlace ? " cf-placing" : ""}`, viewBox: `-10 -10 ${W + 20} ${H + 20}`, role: "img", "aria-label": "Stellar Conflict table" });
  s.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 6, fill: "#0d1a2c", stroke: "#3a4a94", "stroke-width": 2, "data-table": "1" }));
  for (let gx = 100; gx < W; gx += 100) s.append(svg("line", { x1: gx, y1: 0, x2: gx, y2: H, stroke: "#1a2a44", "stroke-width": 1 }));
  for (let gy = 100; gy < H; gy += 100) s.append(svg("line", { x1: 0, y1: gy, x2: W, y2: gy, stroke: "#1a2a44", "stroke-width": 1 }));
  // The cards, as `skydeck render` draws them; a battle step's lasers over them, revealed
  // one after another in firing order. Cards the step destroyed or emptied stay as
  // dashed ghosts (marked when their last hit lands) so every beam ends on something.
  const shots = view.phase === "battle" || view.phase === "over" ? view.battle.shots || [] : [];
  const hitNow = newDamageByCard(shots);
  const lastHit = new Map(shots.map((sh, i) => [sh.target, i]));
  const firing = new Set(shots.map((sh) => sh.from_card));
  const cardsLayer = svg("g", { class: "cf-cards" });
  const edges = svg("g", { class: "cf-edges" });
  for (const c of view.cards) {
    const ghost = !c.on_table && lastHit.has(c.card);
    if (!c.on_table && !ghost) continue;
    const g = svg("g", { [ghost ? "data-ghost" : "data-card"]: c.card, "data-ship": c.ship, "data-x": c.x, "data-y": c.y, "data-angle": c.angle, "data-owner": c.owner ?? "",
      transform: `translate(${c.x} ${H - c.y}) rotate(${-c.angle})` });
    g.append(svg("title", {}, `${c.name}${c.owner === null || c.owner === undefined ? "" : ` (${ctx.names?.[c.owner] || `Player ${c.owner + 1}`})`}: ${c.role === "ship" || c.role === "flagship" ? `initiative ${c.initiative}, damage ${(c.damage || []).length} of ${c.hull}, ${c.vp} VP` : `${c.role}, ${c.cubes} cubes`}`));
    if (firing.has(c.card) && view.phase === "battle") g.append(svg("rect", { class: "cf-firing", x: -hw - 4, y: -hl - 4, width: 2 * hw + 8, height: 2 * hl + 8, rx: 6, fill: "none", stroke: "#fff176", "stroke-width": 2.5 }));
    g.append(cardArt(c, hw, hl, { angle: c.angle, ghost, newDamage: (hitNow.get(c.card) || []).slice(-(c.damage || []).length || Infinity) }));
    if (ghost) {
      const x = svg("g", { class: "cf-shot cf-gone", "data-i": lastHit.get(c.card) });
      x.append(svg("path", { d: "M-24,-26 L24,26 M24,-26 L-24,26", stroke: "#ff1744", "stroke-width": 4, "stroke-linecap": "round", opacity: 0.9 }));
      g.append(x);
    }
    cardsLayer.append(g);
    if (!c.on_table) continue;
    for (const sh of c.shields || []) edges.append(svg("line", { class: "shield", x1: sh[0], y1: H - sh[1], x2: sh[2], y2: H - sh[3], stroke: SHIELD, "stroke-width": 3, "stroke-linecap": "round", opacity: 0.9 }));
    for (const lz of c.lasers || []) {
      const [dx, dy] = heading(lz.direction);
      edges.append(svg("line", { x1: lz.from[0], y1: H - lz.from[1], x2: lz.from[0] + dx * 14, y2: H - (lz.from[1] + dy * 14), stroke: laserColour(lz.strength, lz.kind), "stroke-width": (LASER_WIDTH[lz.strength] || 1.6) + 1, "stroke-linecap": "round" }));
    }
  }
  s.append(cardsLayer, edges);
  // After the alarm: the cards frozen under their players' fingers, not yet deployed
  // (one's own face up, the others' face down), drawn dashed where they stopped.
  view.seats.forEach((st, i) => {
    if (!st.frozen) return;
    const [fx, fy, fa] = st.frozen;
    const g = svg("g", { class: "cf-frozen", "data-frozen": i, "data-x": fx, "data-y": fy, "data-angle": fa, transform: `translate(${fx} ${H - fy}) rotate(${-fa})` });
    const face = i === seat && me?.hand ? view.ships[me.hand] : null;
    g.append(svg("title", {}, `${ctx.names?.[i] || `Player ${i + 1}`}'s card, frozen where it stopped${face ? `: ${face.name}` : ""}`));
    if (face) g.append(cardFace(face, hw, hl, { fill: "#1b2740", stroke: seatColour(i), "stroke-width": 2, "stroke-dasharray": "6 4", opacity: 0.85 }));
    else g.append(svg("rect", { x: -hw, y: -hl, width: 2 * hw, height: 2 * hl, rx: 3, fill: "#1b2740", stroke: seatColour(i), "stroke-width": 2, "stroke-dasharray": "6 4", opacity: 0.85 }));
    s.append(g);
  });
  const name = (u) => (u === null || u === undefined ? "nothing" : view.cards[u]?.name || `card ${u}`);
  const beams = svg("g", { class: "cf-shots" });
  shots.forEach((sh, i) => beams.append(shotArt(sh, i, H, name)));
  s.append(beams);
  s.dataset.step = String(view.battle.step || 0);
  // The held card: pressing on the table picks the card in hand up right there; a second
  // pointer (another finger) on the held card's handle turns it.
  const layer = svg("g", { class: "cf-held", "pointer-events": "none" });
  s.append(layer);
  if (canPlace) {
    s.addEventListener("pointerdown", (ev) => {
      if (!live?.canPlace || (ev.pointerType === "mouse" && ev.button !== 0)) return;
      ev.preventDefault();
      if (ev.target instanceof Element && ev.target.closest(".cf-handle")) {
        if (drag) turning = { pointerId: ev.pointerId, on: "ghost" };
      } else if (!drag) startDrag(ev.pointerId, ...toTable(ev));
      else if (drag.by === "keys") { // the pointer takes over a card held from the keyboard
        drag.by = ev.pointerId;
        [drag.x, drag.y] = toTable(ev);
        paint();
      }
    });
  }
  wrap.append(s);
  wrap.append(legend());
  root.replaceChildren(wrap);
  // When this step's shots are shown, the next waiting step (or the end dialog) comes.
  const redraw = ctx.redraw;
  playShots(s, `${ctx.replay ? "replay" : "live"}|${view.battle.step}|${view.battle.initiative}`, shots.length, false,
    ctx.replay || !redraw ? null : () => { if (battleQueue.length || view.phase === "over") redraw(); });
  // which card the reports are about: a new card in hand starts a fresh report
  const cardKey = me && me.hand ? `${seat}:${me.hand}:${me.deck}` : null;
  if (cardKey !== live?.cardKey) reported = null;
  live = { view, ctx, table: s, layer, hand, turn, ship, canPlace, W, H, hw, hl, cardKey };
  paint();
  if (hadFocus && hand && canPlace) hand.focus();
  tick();
  return true;
}

/** The battle's caption: which step and initiative just fired and who fired, the board's
 * Fire button (the first place to look for the move), and the shots shown again. */
function battleLine(view, ctx, latest) {
  if (view.phase !== "battle" && view.phase !== "over") return null;
  const b = view.battle;
  const bar = el("div", { class: "cf-battle", role: "status" });
  if (b.step) {
    const firing = [...new Set((b.shots || []).map((sh) => sh.from_card))].map((u) => view.cards[u]?.name).filter(Boolean);
    bar.append(el("span", { class: "cf-step", "data-step": b.step, "data-initiative": b.initiative }, `Step ${b.step}: initiative ${b.initiative}`),
      el("span", {}, firing.length ? `fired: ${firing.join(", ")}` : "nobody could fire"));
    if ((b.shots || []).length) bar.append(el("button", { class: "secondary", id: "cf-replay-shots", type: "button", title: "show this step's lasers again",
      onclick: () => { const table = document.querySelector(".cf-table"); if (table) playShots(table, `again|${Date.now()}`, (b.shots || []).length, true); } }, "↻ Show the shots again"));
  } else bar.append(el("span", { class: "cf-step", "data-step": 0 }, "Deployed: the battle is about to start"));
  const fire = (ctx.legal || []).find((a) => a.action.kind === "fire");
  if (fire && ctx.live) bar.append(el("button", { class: "primary", id: "cf-fire", type: "button", "data-board-move": "fire", disabled: ctx.pending, onclick: () => ctx.act(fire) },
    latest.battle.next !== null && latest.battle.next !== undefined ? `Fire initiative ${latest.battle.next} ▸` : "Fire ▸"));
  return bar;
}

/** After the alarm: the frozen card's two choices, "deploy here" and "remove" (the
 * rulebook's "lift their finger" or "remove it and not deploy it at all"). */
function alarmLine(view, ctx) {
  if (view.phase !== "alarm" || !ctx.live) return null;
  const deploy = (ctx.legal || []).find((a) => a.action.kind === "deploy");
  const remove = (ctx.legal || []).find((a) => a.action.kind === "remove");
  if (!deploy && !remove) return null;
  const bar = el("div", { class: "cf-alarm", role: "status" },
    el("span", {}, deploy ? "Your card is frozen where it was when time ran out." : "Your card is frozen where it stopped, touching another frozen card: it cannot be deployed there."));
  if (deploy) bar.append(el("button", { class: "primary", id: "cf-deploy-here", type: "button", "data-board-move": "deploy", disabled: ctx.pending, onclick: () => ctx.act(deploy) }, "Deploy here"));
  if (remove) bar.append(el("button", { class: "secondary", id: "cf-remove", type: "button", "data-board-move": "remove", disabled: ctx.pending, onclick: () => ctx.act(remove) }, "Remove"));
  return bar;
}

/** A card's abilities in short words, printed on the shop's card (its full sentences
 * stay in the tooltip and the rules). */
function abilityWords(ship) {
  const ab = ship?.abilities || {};
  const out = (ab.immune_to || []).map((k) => `immune to strength-${k} lasers`);
  if (ab.regenerate) out.push(`regenerates ${ab.regenerate}`);
  if (ab.ion_proof) out.push("ion-proof");
  return out;
}

/** "lasers 1, ion 1 · 2 shields": what the shop's picture of a card shows, in words. */
function armsWords(ship) {
  const lasers = ship?.lasers || [], shields = (ship?.shields || []).length;
  const arms = lasers.length ? `laser${lasers.length > 1 ? "s" : ""} ${lasers.map((lz) => `${lz.kind && lz.kind !== "normal" ? lz.kind + " " : ""}${lz.strength}`).join(", ")}` : "no lasers";
  return shields ? `${arms} · ${shields} shield${shields > 1 ? "s" : ""}` : arms;
}

/** The shop's picture of a card: its outline nose up with its shields and laser stubs in
 * the table's colours (laser strength by colour, as the legend says), the same marks as
 * the card in hand and on the table. */
function shopArt(ship, hw, hl, seat) {
  const m = 16;
  const lasers = ship.lasers || [], shields = ship.shields || [];
  // a picture only (its words are on the card beside it: armsWords), so the phone's
  // zoom (svg[role=img]) leaves it alone
  const g = svg("svg", { class: "cf-shop-art", viewBox: `${-hw - m} ${-hl - m} ${2 * (hw + m)} ${2 * (hl + m)}`, "aria-hidden": "true" });
  g.append(svg("rect", { x: -hw, y: -hl, width: 2 * hw, height: 2 * hl, rx: 3, fill: "#fff", stroke: seatColour(seat), "stroke-width": 2 }));
  g.append(svg("path", { d: `M -8 ${-hl} L 0 ${-hl - 8} L 8 ${-hl} Z`, fill: seatColour(seat) }));
  for (const sh of shields) g.append(svg("line", { class: "cf-shield", x1: sh[0], y1: -sh[1], x2: sh[2], y2: -sh[3], stroke: SHIELD, "stroke-width": 4, "stroke-linecap": "round" }));
  for (const lz of lasers) {
    const [dx, dy] = heading(lz.direction);
    g.append(svg("line", { class: "cf-laser", "data-strength": lz.strength, x1: lz.x, y1: -lz.y, x2: lz.x + dx * 14, y2: -(lz.y + dy * 14), stroke: laserColour(lz.strength, lz.kind), "stroke-width": (LASER_WIDTH[lz.strength] || 1.6) + 2, "stroke-linecap": "round" }));
  }
  return g;
}

/** Preparation: the ships one may still buy, as small cards on the board. */
function shopLine(view, ctx) {
  if (view.phase !== "preparation" || !ctx.live) return null;
  const buys = (ctx.legal || []).filter((a) => a.action.kind === "buy");
  const ready = (ctx.legal || []).find((a) => a.action.kind === "ready");
  if (!buys.length && !ready) return null;
  const row = el("div", { class: "cf-shop", style: `--seat:${seatColour(ctx.seat ?? 0)}` });
  const hw = view.card_size.width / 2, hl = view.card_size.length / 2;
  for (const a of buys) {
    const ship = view.ships[a.action.args[0]];
    const words = el("span", { class: "cf-shop-words" },
      el("b", {}, ship?.name || a.action.args[0]), el("span", {}, `${ship?.cost ?? "?"} cr`), el("span", {}, `init ${ship?.initiative ?? "?"} · hull ${ship?.hull ?? "?"}`),
      el("span", { class: "cf-arms" }, armsWords(ship)),
      ...abilityWords(ship).map((w) => el("span", { class: "cf-ability" }, w)));
    row.append(el("button", { type: "button", "data-board-move": "buy", "data-ship": a.action.args[0], disabled: ctx.pending, title: ship?.text || a.label, onclick: () => ctx.act(a) },
      ship ? shopArt(ship, hw, hl, ctx.seat ?? 0) : null, words));
  }
  if (ready) row.append(el("button", { type: "button", class: "primary cf-ready", "data-board-move": "ready", disabled: ctx.pending, onclick: () => ctx.act(ready) }, "Fleet ready ▸"));
  return row;
}

/** What the colours and marks mean, as on the rendered pictures. */
function legend() {
  const item = (colour, words, dashed = false) => el("span", {}, el("i", { style: dashed ? `background:repeating-linear-gradient(90deg, ${colour} 0 5px, transparent 5px 8px)` : `background:${colour}` }), words);
  return el("div", { class: "cf-legend" }, item(laserColour(1), "laser 1"), item(laserColour(2), "laser 2"), item(laserColour(3), "laser 3"),
    item(laserColour(1, "ion"), "ion"), item(laserColour(1, "piercing"), "piercing"), item(SHIELD, "shield"), item("#ffc107", "cargo cube"),
    item("#ccc", "missed (left the table)", true), el("span", {}, "hull boxes fill with the shooter's colour"));
}

function tick() {
  const node = document.querySelector(".cf-count");
  if (!node) return;
  const left = Math.max(0, Number(node.dataset.due) - (Date.now() / 1000 + Number(node.dataset.offset)));
  node.textContent = `${left.toFixed(1)} s left`;
  node.classList.toggle("low", left < 5);
}

if (!countdown) countdown = setInterval(tick, 100);

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
    case "placed": case "deployed": return `${who} deployed ${e.ship || "a ship"}${e.at_alarm ? " where it was held" : ""}`;
    case "frozen": return `${who}'s card is frozen where it was: deploy it there or remove it`;
    case "removed": return `${who}'s card in play is removed (${e.why})`;
    case "time_up": return `${who} has had time for ${e.cards} cards`;
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
