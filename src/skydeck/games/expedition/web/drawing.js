// Stellar Expedition: the hex map of Location tiles with ships and Embassies, then what
// is being decided now (the Encounter's test and outcomes, the Expedition's needs, the
// dice, the tiles), the Upgrade store, and each captain's dashboard with every card a
// player must judge written out: crew (name, level, skills, Solo mission), Upgrades
// (skill, ability), Expeditions (needs, points, bonus), Damage, powers, Objectives, the
// drone's next card. Card texts come with the view (`cards`, the catalogue the engine
// writes); hovering or focusing any card (or a tile on the map) shows it in full. Cards
// and cells a legal move uses glow; clicking them narrows the moves.
import { el, svg, capital, seatColour } from "/static/js/common.js";

const SIZE = 40;

(function linkStyle() {
  if (typeof document === "undefined" || document.getElementById("expedition-css")) return;
  document.head.append(el("link", { id: "expedition-css", rel: "stylesheet", href: "/static/expedition.css" }));
})();

// Card faces: fetched once per match from /api/matches/{id}/cards (they never change).
let catalogue = {};
let catalogueOf = null;
let lastDrawn = null; // [root, view, ctx] of the last drawing, redrawn once the faces come
function loadCards(ctx) {
  const id = ctx.header?.id;
  if (!id || catalogueOf === id) return;
  catalogueOf = id;
  fetch(`/api/matches/${encodeURIComponent(id)}/cards`)
    .then((r) => (r.ok ? r.json() : {}))
    .then((cards) => {
      catalogue = cards || {};
      if (ctx.redraw) ctx.redraw();
      else if (lastDrawn) render(...lastDrawn);
    })
    .catch(() => { catalogueOf = null; });
}
const card = (id) => catalogue[id];
const nameOf = (id) => (id === "space_gate" ? "Space Gate" : card(id)?.name || String(id).replace(/_/g, " "));
const RES = { rm: "RM", crystal: "Crystal", influence: "Influence" };
const FACES = { rm2: "2 RM", crystal: "Crystal", upgrade: "Upgrade", special1: "Special 1", special2: "Special 2", encounter: "Encounter", blank: "blank" };
const HARMS = { damage: "a Damage card", injury: "an Injury", destroy: "a destroyed Upgrade", steal: "a theft" };

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

// --- effects in words (the pending "choose" options come as effect data) ----------------
function resources(e) {
  const parts = Object.entries(RES).filter(([k]) => e[k]).map(([k, v]) => `${e[k]} ${v}`);
  return parts.length ? parts.join(" and ") : "nothing";
}

export function effectText(e) {
  const n = e.n ?? 1;
  switch (e.op) {
    case "gain": return `gain ${resources(e)}`;
    case "lose": return `lose ${resources(e)}`;
    case "moves": return `${n} extra move${n === 1 ? "" : "s"}`;
    case "take_upgrade": return "take an Upgrade from the store, free";
    case "injury": return n === 1 ? "a crew member goes to the Sickbay" : `${n} crew go to the Sickbay`;
    case "damage": return `take ${n} Damage card${n === 1 ? "" : "s"}`;
    case "destroy": return `${n} Upgrade${n === 1 ? "" : "s"} destroyed`;
    case "repair": return `repair ${n} Damage`;
    case "heal": return `${n} crew back from the Sickbay`;
    case "steal": return `take ${e.rm} RM from another ship`;
    case "theft": return `a thief takes ${e.rm} RM from you`;
    case "attack": return `another ship suffers ${HARMS[e.harm] || "harm"}`;
    case "place_tiles": return `place ${n} Location tile${n === 1 ? "" : "s"}`;
    case "points": return `${n} point${n === 1 ? "" : "s"}`;
    case "d_move": return `the drone moves ${n} time${n === 1 ? "" : "s"}`;
    case "d_embassy": return "the drone builds an Embassy";
    case "d_upgrade": return "a die roll removes an Upgrade from the store";
    case "d_expedition": return `the drone completes the top ${capital(e.tier || "")} Expedition`;
    case "d_points": return `the drone scores ${n} point${n === 1 ? "" : "s"}`;
    case "d_discover": return `${n} Location tile${n === 1 ? "" : "s"} placed next to the drone`;
    case "d_extra": return `an extra card from ${e.deck === "current" ? "this" : "the previous"} round's deck`;
    case "d_attack": return `your ship suffers ${HARMS[e.harm] || "harm"}`;
    case "d_drain": return `you lose ${resources(e)}`;
    case "choose": return "choose: " + (e.options || []).map((o) => o.map(effectText).join(" and ")).join(" or ");
    default: return String(e.op || "").replace(/_/g, " ");
  }
}

// --- cards ------------------------------------------------------------------------------
let popup = null;
let shownId = null;
function showFull(id, anchor) {
  const c = card(id);
  if (!c) return;
  shownId = id;
  if (!popup) { popup = el("div", { class: "xcard-full", role: "tooltip", id: "xcard-full" }); document.body.append(popup); }
  popup.className = `xcard-full kind-${c.kind}${c.tier ? " tier-" + c.tier : ""}`;
  popup.replaceChildren(el("div", { class: "xname" }, c.name), el("div", { class: "xkind" }, capital(c.kind === "drone" ? "drone action" : c.kind)), ...c.lines.map((l) => el("div", { class: "xline" }, l)));
  const r = anchor.getBoundingClientRect();
  popup.hidden = false;
  const w = popup.offsetWidth, h = popup.offsetHeight;
  const left = Math.min(window.innerWidth - w - 8, Math.max(8, r.left + r.width / 2 - w / 2));
  const top = r.top - h - 8 > 8 ? r.top - h - 8 : Math.min(window.innerHeight - h - 8, r.bottom + 8);
  popup.style.left = `${left + window.scrollX}px`;
  popup.style.top = `${top + window.scrollY}px`;
}
function hideFull() { if (popup) popup.hidden = true; }

// A move button shows the first card it names in full (its notation holds the ids);
// the notation tooltip would only repeat the ids, so it gives way to the card.
(function moveCards() {
  if (typeof document === "undefined") return;
  const cardOf = (b) => (b.getAttribute("data-action") || "").split(/[\s(),]+/).find((t) => catalogue[t]);
  document.addEventListener("mouseover", (ev) => {
    const b = ev.target.closest?.(".action-group button[data-action]");
    const id = b && cardOf(b);
    if (!id) return;
    b.removeAttribute("title");
    showFull(id, b);
  });
  document.addEventListener("mouseout", (ev) => { if (ev.target.closest?.(".action-group button")) hideFull(); });
})();

/** Hover, focus or a long press shows the full card. */
function hoverable(node, id) {
  node.setAttribute("data-card", id);
  node.addEventListener("mouseenter", () => showFull(id, node));
  node.addEventListener("mouseleave", hideFull);
  node.addEventListener("focus", () => showFull(id, node));
  node.addEventListener("blur", hideFull);
  let timer = null;
  node.addEventListener("touchstart", () => { timer = setTimeout(() => showFull(id, node), 350); }, { passive: true });
  node.addEventListener("touchend", () => { clearTimeout(timer); setTimeout(hideFull, 1500); });
  return node;
}

/** A card written out: name, then every line of its face. `small` keeps the first lines. */
function cardBox(id, ctx, { note = "", small = false, extraClass = "" } = {}) {
  const c = card(id);
  const on = ctx.hot?.(id), chosen = ctx.selected?.has(id);
  const cls = ["xcard", `kind-${c?.kind || "unknown"}`, c?.tier ? `tier-${c.tier}` : "", on ? "hot pulse-box" : "", chosen ? "chosen" : "", extraClass].filter(Boolean).join(" ");
  const lines = c ? (small ? c.lines.slice(0, 2) : c.lines) : [];
  const box = el("div", { class: cls, tabindex: 0 },
    el("div", { class: "xname" }, c ? c.name : nameOf(id)),
    ...lines.map((l) => el("div", { class: "xline" }, l)),
    note ? el("div", { class: "xnote" }, note) : null);
  if (on || chosen) {
    box.setAttribute("data-token", id);
    box.addEventListener("click", () => ctx.toggle(id));
    box.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ctx.toggle(id); } });
  }
  return hoverable(box, id);
}

function row(title, ids, ctx, opts = {}) {
  if (!ids || !ids.length) return opts.empty ? el("div", { class: "xrow" }, el("h5", {}, title), el("span", { class: "muted" }, opts.empty)) : null;
  const note = (i) => (opts.slots ? `Slot ${i + 1}` : "");
  return el("div", { class: "xrow" }, el("h5", {}, title), el("div", { class: "xcards" }, ids.map((id, i) => (id ? cardBox(id, ctx, { ...opts, note: note(i) }) : el("div", { class: "xcard kind-empty" }, el("div", { class: "xname" }, opts.nullText || "—"), note(i) ? el("div", { class: "xnote" }, note(i)) : null)))));
}

// --- the map ----------------------------------------------------------------------------
function mapSvg(view, ctx) {
  const R = view.map.radius;
  const all = cells(R);
  const pos = ([q, r]) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
  const W = SIZE * Math.sqrt(3) * (2 * R + 1) + 20, H = SIZE * 1.5 * 2 * R + SIZE * 2 + 20;
  const ox = W / 2, oy = H / 2;
  // A window on the map where its labels read at 12 px, on a desktop too (drawn whole
  // in its column they read at 6-7 px), opening on the middle, where the Space Gate and
  // the tiles are (js/zoom.js).
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Stellar Expedition map", class: "xmap", "data-zoom-start": "center", "data-zoom-desktop": "1" });
  const tiles = new Map(view.map.tiles.map((t) => [t.cell, t]));
  const usedCells = new Set((ctx.legal || []).filter((a) => CELL_KINDS.includes(a.action.kind)).map(cellOfMove));
  const cellOfTile = new Map(view.map.tiles.map((t) => [t.tile, t.cell]));
  all.forEach(([q, r], cell) => {
    const [x, y] = pos([q, r]);
    const cx = ox + x, cy = oy + y;
    const t = tiles.get(cell);
    const g = svg("g", { "data-cell": cell });
    const c = t ? card(t.tile) : null;
    const fill = !t ? "rgba(255,255,255,0.02)" : t.tile === "space_gate" ? "#4a3a10" : c?.kind === "anomaly" ? "#3a2346" : "#173a4a";
    g.append(svg("polygon", { points: hex(cx, cy, SIZE - 2), fill, stroke: t ? "#5aa0c8" : "#26306a", "stroke-width": t ? 2 : 1 }));
    if (t) {
      const label = nameOf(t.tile);
      const cut = label.length > 11 ? Math.max(label.lastIndexOf(" ", 11), 0) || 11 : 0;
      const parts = cut ? [label.slice(0, cut), label.slice(cut).trim()] : [label];
      parts.forEach((p, i) => g.append(svg("text", { x: cx, y: cy - 10 + i * 12, "text-anchor": "middle", "font-size": 10, fill: "#e8ecff" }, p)));
      if (c?.kind === "location" && c.lines?.[0]) g.append(svg("text", { x: cx, y: cy + 18, "text-anchor": "middle", "font-size": 8, fill: "#9aa6d8" }, c.lines[0].split(" · ").slice(0, 2).join(" ")));
      const owner = view.map.owners?.[t.tile];
      if (owner !== undefined) g.append(svg("circle", { cx: cx + SIZE * 0.55, cy: cy - SIZE * 0.45, r: 5, fill: seatColour(owner) }));
      hoverable(g, t.tile);
    }
    const token = String(cell);
    // A cell glows only for a move that names it as a cell: a die's or an option's
    // index is the same token ("0", "1") and would light cells 0 and 1 otherwise.
    const on = usedCells.has(cell) && ctx.hot?.(token), chosen = ctx.selected?.has(token);
    if (on || chosen) {
      g.append(svg("polygon", chosen ? { points: hex(cx, cy, SIZE - 4), fill: "none", stroke: "#ffd66b", "stroke-width": 4 } : { points: hex(cx, cy, SIZE - 4), class: "pulse", fill: "none", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "6 4" }));
      g.append(svg("polygon", { points: hex(cx, cy, SIZE - 4), fill: "#000", "fill-opacity": 0, "pointer-events": "all" }));
      g.setAttribute("class", "hot");
      g.setAttribute("data-token", token);
      g.addEventListener("click", () => ctx.toggle(token));
    }
    s.append(g);
  });
  // the window opens on the middle of the tiles placed so far
  const placed = view.map.tiles.map((t) => pos(all[t.cell] || [0, 0]));
  if (placed.length) {
    const xs = placed.map((p) => p[0]), ys = placed.map((p) => p[1]);
    s.dataset.zoomCenter = `${(ox + (Math.min(...xs) + Math.max(...xs)) / 2).toFixed(1)} ${(oy + (Math.min(...ys) + Math.max(...ys)) / 2).toFixed(1)}`;
  }
  view.players.forEach((p, seat) => {
    for (const [loc, n] of Object.entries(p.embassies || {})) {
      const cell = cellOfTile.get(loc);
      if (cell === undefined) continue;
      const [x, y] = pos(all[cell]);
      for (let i = 0; i < n; i++) s.append(svg("rect", { x: ox + x - 18 + (seat * 3 + i) * 8, y: oy + y + 22, width: 7, height: 7, fill: seatColour(seat), stroke: "#000", "pointer-events": "none" }));
    }
    if (p.ship !== null && p.ship !== undefined && all[p.ship]) {
      const [x, y] = pos(all[p.ship]);
      const cx = ox + x + (seat - (view.players.length - 1) / 2) * 13, cy = oy + y + 4;
      s.append(svg("path", { d: `M${cx} ${cy - 9} L${cx + 7} ${cy + 7} L${cx} ${cy + 3} L${cx - 7} ${cy + 7} Z`, fill: seatColour(seat), stroke: "#000", "data-ship": seat, "pointer-events": "none" }));
    }
  });
  const drone = view.modules?.drone;
  if (drone && drone.ship !== null && drone.ship !== undefined && all[drone.ship]) {
    const [x, y] = pos(all[drone.ship]);
    s.append(svg("circle", { cx: ox + x, cy: oy + y + 4, r: 7, fill: "#c0c6e0", stroke: "#000", "data-ship": "drone", "pointer-events": "none" }));
  }
  return { node: s, all, tiles };
}

/** A cell in words: its tile, or an empty space beside a named tile. */
function cellWords(cell, all, tiles) {
  const t = tiles.get(cell);
  if (t) return nameOf(t.tile);
  const [q, r] = all[cell] || [0, 0];
  // the direction from a placed neighbour to this cell (pointy-top hexes)
  const DIRS = [[1, 0, "west"], [-1, 0, "east"], [0, 1, "north-west"], [0, -1, "south-east"], [1, -1, "south-west"], [-1, 1, "north-east"]];
  const near = [];
  for (const [dq, dr, dir] of DIRS) {
    const i = all.findIndex(([a, b]) => a === q + dq && b === r + dr);
    if (i >= 0 && tiles.has(i)) near.push(`${dir} of ${nameOf(tiles.get(i).tile)}`);
  }
  return near.length ? `the empty space ${near.slice(0, 2).join(" and ")}` : "an empty space";
}

/** The moves that name a cell of the map, and which argument is the cell. */
const CELL_KINDS = ["move", "warp", "wormhole", "place", "start"];
const cellOfMove = (a) => Number(a.action.kind === "place" ? a.action.args[1] : a.action.args[0]);

/** Buttons on the table for the legal moves ``pick`` selects (a die's re-roll, an
 * option, a target): made where the thing chosen is drawn, one tap each; the move list
 * repeats them for keyboards and screen readers. */
function moveButtons(ctx, pick, word = (a) => a.label) {
  return (ctx.legal || []).filter(pick).map((a) => el("button", {
    type: "button", class: "secondary xmove", "data-board-move": a.action.kind,
    disabled: ctx.pending, onclick: () => ctx.act(a),
  }, word(a)));
}

/** The two Sensor dice as drawn on the table, each with what may be done with it. */
function diceRow(p, ctx) {
  const dice = (p.dice || []).map((face, i) => {
    const here = (a) => ["reroll", "reroll_free"].includes(a.action.kind) && Number(a.action.args[0]) === i;
    const take = (a) => (a.action.kind === "reward" && a.action.args[0] === face) || (a.action.kind === "encounter" && face === "encounter");
    const firstOfFace = p.dice.indexOf(face) === i; // two equal faces: one reward button
    return el("div", { class: `xdie face-${face}` },
      el("div", { class: "xdie-face" }, FACES[face] || face),
      ...moveButtons(ctx, (a) => (firstOfFace && take(a)) || here(a),
        (a) => (a.action.kind === "reroll" ? "re-roll (1 Influence)" : a.action.kind === "reroll_free" ? "re-roll free" : a.action.kind === "encounter" ? "face the Encounter" : "take it")));
  });
  return el("div", { class: "xdice" }, ...dice, ...moveButtons(ctx, (a) => a.action.kind === "pass"));
}

/** The server names moves without the table; here they get its words: "space 39"
 * becomes the tile there, a chosen option its effects, a die its face, a seat its name. */
function relabel(legal, view, ctx, all, tiles) {
  const p = view.pending;
  for (const a of legal || []) {
    const k = a.action.kind, args = a.action.args;
    a.baseLabel ??= a.label;
    if (["move", "warp", "wormhole", "place", "start"].includes(k)) {
      const cell = Number(k === "place" ? args[1] : args[0]);
      a.label = a.baseLabel.replace(`space ${cell}`, cellWords(cell, all, tiles));
    } else if (k === "option" && p?.options?.[args[0]]) {
      a.label = `choose: ${p.options[args[0]].map(effectText).join(" and ")}`;
    } else if ((k === "reroll" || k === "reroll_free") && p?.dice?.[args[0]] !== undefined) {
      a.label = a.baseLabel.replace(`die ${Number(args[0]) + 1}`, `the ${FACES[p.dice[args[0]]] || p.dice[args[0]]} die`);
    } else if (k === "target" && ctx.names?.[args[0]]) {
      a.label = `target ${ctx.names[args[0]]}`;
    }
  }
}

// --- what is being decided now ------------------------------------------------------------
function pendingBox(view, ctx, name) {
  const p = view.pending;
  const rowIn = (...args) => { const r = row(...args); if (r) box.append(r); };
  const box = el("div", { class: "xnow" });
  const who = p ? name(p.seat) : view.turn !== null && view.turn !== undefined ? name(view.turn) : "";
  const say = (t) => box.append(el("p", { class: "xsay" }, t));
  if (!p) {
    if (view.phase === "command") say(`${who}: Command phase — move, build, recruit, buy, attempt Expeditions, or end the turn.`);
    else if (view.phase === "draft") say("Draft: keep one Expedition from your pack, then pass the rest.");
    else if (view.phase === "powers") say("Powers: give up one of your three powers.");
    else if (view.phase === "start") say("Each captain in turn places the Starting tile next to the Space Gate.");
    else if (view.phase === "over") say("The game is over.");
    else say(`${capital(view.phase)} phase.`);
    return box;
  }
  switch (p.kind) {
    case "place": say(`${who}: place a Location tile ${p.anywhere ? "on any empty space next to the map" : "next to the ship"}${p.for_drone ? " (for the drone)" : ""}.`); rowIn("Tiles to place", p.tiles, ctx); break;
    case "sensor": say(`${who} rolled the Sensor dice: ${(p.dice || []).map((d) => FACES[d] || d).join(" and ")}. Take a reward, face an Encounter, re-roll a die or pass.`); box.append(diceRow(p, ctx)); break;
    case "enc_pick": say(`${who}: choose the Encounter to face.`); rowIn("Encounters", p.encounters, ctx); break;
    case "enc": say(`${who} faces this Encounter: play crew or Upgrades that meet its test, then resolve it — or fail it.`); rowIn("Encounter", [p.encounter], ctx, { extraClass: "big" }); rowIn("Played so far", [...(p.played || []), ...(p.upgrades || [])], ctx, { small: true, empty: "nothing yet" }); box.append(el("div", { class: "xdice" }, ...moveButtons(ctx, (a) => ["resolve", "fail"].includes(a.action.kind)))); break;
    case "enc_reward": say(`${who} overcame the Encounter: take its bonus${p.alternative ? " or the other reward" : ""}.`); rowIn("Encounter", [p.encounter], ctx); break;
    case "exp": say(`${who} attempts this Expedition: play the crew it needs, then complete it — or give up.`); rowIn("Expedition", [p.expedition], ctx, { extraClass: "big" }); rowIn("Played so far", [...(p.played || []), ...(p.upgrades || [])], ctx, { small: true, empty: "nothing yet" }); box.append(el("div", { class: "xdice" }, ...moveButtons(ctx, (a) => ["complete", "cancel"].includes(a.action.kind)))); break;
    case "take_upgrade": say(`${who}: take an Upgrade from the store for free, or decline.`); break;
    case "choose": say(`${who}: choose one — ${(p.options || []).map((o, i) => `option ${i + 1}: ${o.map(effectText).join(" and ")}`).join("; ")}.`); box.append(el("div", { class: "xdice" }, ...moveButtons(ctx, (a) => a.action.kind === "option"))); break;
    case "target": say(`${who}: choose the ship that suffers ${HARMS[p.harm] || "the harm"}.`); box.append(el("div", { class: "xdice" }, ...moveButtons(ctx, (a) => a.action.kind === "target"))); break;
    case "react": say(`${who} is about to suffer ${HARMS[p.harm] || "harm"}: answer with a Solo mission or an Upgrade, or accept it.`); break;
    case "collect_remote": say(`${who}: collect at one of your Embassies from afar, or decline.`); break;
    case "secret_pick": say(`${who}: take a Secret Expedition for free, or decline.`); break;
    case "tokens": say(`${who}: put ${p.left} Collection token${p.left === 1 ? "" : "s"} on your Locations.`); break;
    case "new_exp": say(`${who}: draw ${p.left} new Expedition${p.left === 1 ? "" : "s"}.`); break;
    case "window": say(`${who}: you may use a special action or an Upgrade's ability now, or go on.`); break;
    case "artifact": say(`${who}: take an Artifact, or decline.`); break;
    default: say(`${who} is deciding.`);
  }
  return box;
}

// --- the whole table ----------------------------------------------------------------------
export function render(root, view, ctx) {
  if (!view || !view.map || !Array.isArray(view.players)) return false;
  lastDrawn = [root, view, ctx];
  loadCards(ctx);
  const name = (s) => ctx.names?.[s] || `Player ${s + 1}`;
  const { node: map, all, tiles } = mapSvg(view, ctx);
  relabel(ctx.legal, view, ctx, all, tiles);

  const side = el("div", { class: "xside" });
  side.append(el("div", { class: "xround" }, `Round ${view.round} of ${view.rounds} · ${capital(view.phase)}`));
  side.append(pendingBox(view, ctx, name));
  const add = (parent, ...nodes) => { for (const n of nodes) if (n) parent.append(n); };
  if (view.draft?.pack) add(side, row("Your pack", view.draft.pack, ctx, { empty: "empty" }), row("Kept", view.draft.kept, ctx, { small: true }));
  add(side, row("Upgrade store (2 RM each)", view.store, ctx, { nullText: "empty place" }));
  const mods = view.modules;
  if (mods) {
    add(side, row("Objectives", mods.objectives, ctx));
    add(side, row("Galactic events", mods.events, ctx));
    const d = mods.drone;
    if (d) {
      const next = d.decks?.[d.current_deck]?.next;
      const box = el("div", { class: "xrow" }, el("h5", {}, `The drone (${capital(d.rank)}, ${capital(d.faction)}) · ${d.points} points · ${d.embassies_left} Embassies left`));
      if (next) box.append(el("div", { class: "xcards" }, el("div", { class: "xcard kind-drone" }, el("div", { class: "xname" }, "Its next action"), el("div", { class: "xline" }, capital(effectText(next))))));
      side.append(box);
    }
  }
  side.append(el("div", { class: "xdecks muted" }, `Decks: ${view.decks.locations} Locations · ${view.decks.encounters} Encounters · ${view.decks.upgrades} Upgrades · ${view.decks.damage} Damage cards`));

  // Crew played to the Encounter or Expedition being judged stay in the hand in the view
  // until it is resolved; the page lists them once, under "Played so far".
  const pend = view.pending;
  const playedNow = ["enc", "exp"].includes(pend?.kind) ? new Set(pend.played || []) : new Set();
  const panels = el("div", { class: "xplayers" });
  view.players.forEach((p, seat) => {
    const played = seat === pend?.seat ? playedNow : new Set();
    const hand = p.hand ? p.hand.filter((id) => !played.has(id)) : null;
    const handCount = hand ? hand.length : Math.max(0, (p.hand_count ?? 0) - played.size);
    const mine = seat === view.seat;
    const turn = view.turn === seat || (view.to_move || []).includes(seat);
    const panel = el("section", { class: `xplayer${turn ? " turn" : ""}`, style: `border-color:${seatColour(seat)}`, "data-seat": seat });
    panel.append(el("h4", {}, el("span", { class: "seat-dot", style: `background:${seatColour(seat)}` }), ` ${name(seat)}${mine ? " (you)" : ""} · ${card(p.faction)?.name || capital(p.faction)} · ${p.points} points`));
    panel.append(el("div", { class: "xres" },
      el("span", {}, `${p.rm} RM`), el("span", {}, `${p.crystal} Crystals`), el("span", {}, `${p.influence} Influence`),
      el("span", {}, `${p.embassies_left} Embassies left`), el("span", {}, `${p.moves} moves`), el("span", {}, `crew in hand: ${handCount}`)));
    const faction = card(p.faction);
    if (faction) panel.append(el("div", { class: "xspecials muted" }, faction.lines.join(" · ")));
    if (p.powers?.length) add(panel, row("Powers", p.powers, ctx, { small: true }));
    if (hand) add(panel, row("Crew in hand", hand, ctx, { empty: "none" }));
    add(panel, row("Expeditions", [...(p.expeditions || []), ...(p.secret || [])], ctx, { empty: "none" }));
    if (!p.secret && p.secret_tiers?.length) panel.append(el("div", { class: "muted" }, `Secret Expeditions: ${p.secret_tiers.map(capital).join(", ")}`));
    add(panel, row("Upgrades", p.slots, ctx, { small: true, slots: true, nullText: "under a Damage card", empty: "none" }));
    if (p.damage_cards?.length) add(panel, row("Damage", p.damage_cards, ctx, { small: true }));
    const away = [...(p.transit || []), ...(p.sickbay || []), ...(p.solo || [])];
    if (away.length) add(panel, row("Crew away (transit, Sickbay, Solo)", away, ctx, { small: true }));
    if (p.completed?.length) add(panel, row("Completed", p.completed, ctx, { small: true }));
    panels.append(panel);
  });

  // While an Encounter or an Expedition is judged, the map stays in sight beside it (or,
  // on a phone held upright, above it in a shorter window): expedition.css.
  const judging = ["enc_pick", "enc", "enc_reward", "exp"].includes(view.pending?.kind);
  if (judging) Object.assign(map.dataset, { roomTall: "0.36", roomWide: "0.7" });
  root.replaceChildren(el("div", { class: `xgrid${judging ? " judging" : ""}` }, el("div", { class: "xmap-wrap" }, map), side), panels);
  // a full card stays up while its card is still on the page (an update redraws it)
  if (popup && !popup.hidden && !document.querySelector(`[data-card="${CSS.escape(shownId || "")}"]`)) hideFull();
  return true;
}

/** Only used for an event that came without the server's sentence. */
export function eventText(e, name) {
  const who = typeof e.seat === "number" ? name(e.seat) : "The drone";
  switch (e.kind) {
    case "round": return `Round ${e.round ?? ""} begins`;
    case "game_over": return "The game is over";
    case "encounter": return e.card ? `${who} meets ${nameOf(e.card)}` : null;
    default: return null;
  }
}
