// Stellar Expedition drawn in SVG: the hex map of Location tiles with ships and
// Embassies, then each captain's dashboard (resources, Upgrades, Damage, crew in hand,
// Expeditions). Cells and cards that a legal move uses glow; clicking them narrows the
// moves.
import { svg, words, capital, seatColour } from "../common.js";

const SIZE = 46;
const pretty = (id) => capital(words(String(id)).replace(/ (\d+)$/, " $1"));

function cells(radius) {
  const out = [];
  for (let q = -radius; q <= radius; q++) for (let r = -radius; r <= radius; r++) if (Math.abs(q + r) <= radius) out.push([q, r]);
  return out;
}

function hex(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) { const a = (Math.PI / 180) * (60 * i - 30); pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`); }
  return pts.join(" ");
}

function hot(g, token, ctx, shape) {
  const on = ctx.hot?.(token), chosen = ctx.selected?.has(token);
  if (!on && !chosen) return g;
  g.append(shape(chosen ? { fill: "none", stroke: "#ffd66b", "stroke-width": 4 } : { class: "pulse", fill: "none", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "6 4" }));
  g.append(shape({ fill: "#000", "fill-opacity": 0, "pointer-events": "all" }));
  g.setAttribute("class", "hot");
  g.setAttribute("data-token", token);
  g.addEventListener("click", () => ctx.toggle(token));
  return g;
}

function chip(s, x, y, label, token, ctx, colour = "#26336f") {
  const w = Math.max(60, label.length * 7 + 14);
  const g = svg("g", {});
  g.append(svg("rect", { x, y, width: w, height: 24, rx: 6, fill: colour, stroke: "#3a4a94" }));
  g.append(svg("text", { x: x + 7, y: y + 16, "font-size": 12, fill: "#e8ecff" }, label));
  s.append(token ? hot(g, token, ctx, (a) => svg("rect", { x: x - 2, y: y - 2, width: w + 4, height: 28, rx: 7, ...a })) : g);
  return w + 6;
}

export function render(root, view, ctx) {
  if (!view || !view.map || !Array.isArray(view.players)) return false;
  const R = view.map.radius;
  const all = cells(R);
  const pos = ([q, r]) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
  const mapW = SIZE * Math.sqrt(3) * (2 * R + 1) + 20, mapH = SIZE * 1.5 * 2 * R + SIZE * 2 + 20;
  const ox = mapW / 2, oy = mapH / 2;
  const panelY = mapH + 20, rowH = 190;
  const width = mapW + 330, height = panelY + view.players.length * rowH + 10;
  const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "Stellar Expedition map" });
  const tiles = new Map(view.map.tiles.map((t) => [t.cell, t]));
  const cellOfTile = new Map(view.map.tiles.map((t) => [t.tile, t.cell]));
  all.forEach(([q, r], cell) => {
    const [x, y] = pos([q, r]);
    const cx = ox + x, cy = oy + y;
    const t = tiles.get(cell);
    const g = svg("g", { "data-cell": cell });
    const kind = !t ? "empty" : t.tile === "space_gate" ? "gate" : view.map.owners?.[t.tile] !== undefined || /^[a-z_]+$/.test(t.tile) ? "loc" : "loc";
    g.append(svg("polygon", { points: hex(cx, cy, SIZE - 2), fill: kind === "empty" ? "rgba(255,255,255,0.02)" : kind === "gate" ? "#4a3a10" : "#173a4a", stroke: kind === "empty" ? "#26306a" : "#5aa0c8", "stroke-width": kind === "empty" ? 1 : 2 }));
    if (t) {
      const label = t.tile === "space_gate" ? "Space Gate" : pretty(t.tile);
      const parts = label.length > 12 ? [label.slice(0, label.lastIndexOf(" ", 12) > 0 ? label.lastIndexOf(" ", 12) : 12), label.slice(label.lastIndexOf(" ", 12) > 0 ? label.lastIndexOf(" ", 12) + 1 : 12)] : [label];
      parts.forEach((p, i) => g.append(svg("text", { x: cx, y: cy - 10 + i * 13, "text-anchor": "middle", "font-size": 11, fill: "#e8ecff" }, p)));
      const owner = view.map.owners?.[t.tile];
      if (owner !== undefined) g.append(svg("circle", { cx: cx + SIZE * 0.55, cy: cy - SIZE * 0.45, r: 6, fill: seatColour(owner) }));
    }
    s.append(hot(g, String(cell), ctx, (a) => svg("polygon", { points: hex(cx, cy, SIZE - 4), ...a })));
  });
  // Embassies and ships.
  view.players.forEach((p, seat) => {
    let k = 0;
    for (const [loc, n] of Object.entries(p.embassies || {})) {
      const cell = cellOfTile.get(loc);
      if (cell === undefined) continue;
      const [x, y] = pos(all[cell]);
      for (let i = 0; i < n; i++) s.append(svg("rect", { x: ox + x - 18 + (seat * 3 + i) * 9, y: oy + y + 14, width: 8, height: 8, fill: seatColour(seat), stroke: "#000" }));
      k++;
    }
    if (p.ship !== null && p.ship !== undefined && all[p.ship]) {
      const [x, y] = pos(all[p.ship]);
      const cx = ox + x + (seat - (view.players.length - 1) / 2) * 14, cy = oy + y + 6;
      s.append(svg("path", { d: `M${cx} ${cy - 9} L${cx + 7} ${cy + 7} L${cx} ${cy + 3} L${cx - 7} ${cy + 7} Z`, fill: seatColour(seat), stroke: "#000", "data-ship": seat }));
    }
  });
  // Right column: round, phase, pending decision, store.
  const px = mapW + 10;
  let y = 24;
  const line = (t, attrs = {}) => { s.append(svg("text", { x: px, y, "font-size": 14, fill: "#c9d2ff", ...attrs }, t)); y += 22; };
  line(`Round ${view.round} of ${view.rounds} · ${capital(view.phase)}`, { "font-weight": 600, fill: "#e8ecff", "font-size": 16 });
  if (view.turn !== null && view.turn !== undefined) line(`${ctx.names?.[view.turn] || "Seat " + (view.turn + 1)}'s turn`, { fill: seatColour(view.turn) });
  if (view.pending) {
    line(`Waiting for: ${words(view.pending.kind)}`, { fill: "#ffd66b" });
    if (view.pending.tiles) { let x = px; for (const t of view.pending.tiles) x += chip(s, x, y - 14, pretty(t), t, ctx); y += 24; }
    if (view.pending.dice) line(`Dice: ${view.pending.dice.map(words).join(", ")}`);
    if (view.pending.encounter) line(`Encounter: ${pretty(view.pending.encounter)}`);
    if (view.pending.expedition) line(`Expedition: ${pretty(view.pending.expedition)}`);
  }
  y += 6;
  line("Upgrade store", { "font-weight": 600, fill: "#e8ecff" });
  (view.store || []).forEach((u, i) => {
    if (u) chip(s, px + (i % 2) * 150, y - 14 + Math.floor(i / 2) * 30, pretty(u), u, ctx);
  });
  y += 3 * 30;
  line(`Decks: ${view.decks.locations} Locations · ${view.decks.encounters} Encounters · ${view.decks.upgrades} Upgrades`, { "font-size": 12 });
  // Dashboards.
  view.players.forEach((p, seat) => {
    const y0 = panelY + seat * rowH;
    s.append(svg("rect", { x: 4, y: y0, width: width - 8, height: rowH - 10, rx: 12, fill: view.turn === seat ? "rgba(255,214,107,0.05)" : "rgba(255,255,255,0.02)", stroke: seatColour(seat) }));
    s.append(svg("text", { x: 16, y: y0 + 22, "font-size": 15, fill: "#e8ecff", "font-weight": 600 }, `${ctx.names?.[seat] || "Seat " + (seat + 1)} · ${capital(p.faction)} · ${p.points} points`));
    s.append(svg("text", { x: 16, y: y0 + 44, "font-size": 13, fill: "#c9d2ff" }, `Raw Materials ${p.rm} · Crystals ${p.crystal} · Influence ${p.influence} · Embassies left ${p.embassies_left} · moves ${p.moves} · Damage ${p.damage}`));
    let x = 16;
    s.append(svg("text", { x, y: y0 + 72, "font-size": 12, fill: "#9aa6d8" }, "Upgrades:"));
    x = 90;
    (p.slots || []).forEach((u) => { x += chip(s, x, y0 + 58, u ? pretty(u) : "— damaged —", u, ctx); });
    if (!(p.slots || []).length) s.append(svg("text", { x, y: y0 + 72, "font-size": 12, fill: "#6d78a8" }, "none"));
    s.append(svg("text", { x: 16, y: y0 + 104, "font-size": 12, fill: "#9aa6d8" }, p.hand ? "Crew in hand:" : `Crew in hand: ${p.hand_count}`));
    x = 110;
    (p.hand || []).forEach((c) => { x += chip(s, x, y0 + 90, pretty(c), c, ctx, "#2a3f2a"); });
    if (p.transit?.length) { s.append(svg("text", { x: x + 10, y: y0 + 104, "font-size": 12, fill: "#9aa6d8" }, `transit: ${p.transit.map(pretty).join(", ")}`)); }
    s.append(svg("text", { x: 16, y: y0 + 136, "font-size": 12, fill: "#9aa6d8" }, "Expeditions:"));
    x = 110;
    (p.expeditions || []).forEach((e) => { x += chip(s, x, y0 + 122, pretty(e), e, ctx, "#3f2a4a"); });
    (p.secret || []).forEach((e) => { x += chip(s, x, y0 + 122, `secret: ${pretty(e)}`, e, ctx, "#4a2a3a"); });
    s.append(svg("text", { x: 16, y: y0 + 166, "font-size": 12, fill: "#9aa6d8" }, `Completed: ${(p.completed || []).map(pretty).join(", ") || "none"}`));
  });
  root.replaceChildren(s);
  return true;
}

export function eventText(e, name) {
  const who = typeof e.seat === "number" ? name(e.seat) : "";
  switch (e.kind) {
    case "action": return typeof e.action === "string" ? `${who}: ${e.action}` : null;
    case "sensor_roll": return `${who} rolled ${(e.dice || []).map(words).join(" and ")}`;
    case "encounter": return e.card ? `${who} meets ${pretty(e.card)}` : null;
    case "chance_roll": return `${who} rolled ${e.roll} (needed ${e.need}): ${e.ok ? "success" : "failure"}`;
    case "moved": return `${who} moved`;
    case "embassy": return `${who} built an Embassy${e.location ? " on " + pretty(e.location) : ""}`;
    case "expedition_completed": return `${who} completed an Expedition${e.expedition ? ": " + pretty(e.expedition) : ""}`;
    case "round": return `Round ${e.round ?? ""} begins`;
    case "game_over": return "The game is over";
    default: return null;
  }
}
