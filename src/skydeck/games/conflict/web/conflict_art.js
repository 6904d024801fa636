// Stellar Conflict's cards and battle, drawn in the browser as `skydeck render`
// (games/conflict/svg.py) draws them: each card in its owner's colour with a nose band
// and name, initiative in a ring (blue with Delay tokens), hull boxes filled in the colour
// of the seat that dealt each damage token, gold Cargo cubes, VP; shields as cyan edges.
// A battle step's lasers then appear one after another in firing order, each traced from
// the firing card to what it met, with the result marked where it landed (damage burst,
// shield ring, cubes taken, Delay, immune / no effect, a dashed beam off the table).
//
// Why drawn here from the view rather than fetched as the server's SVG: the view already
// carries every shot of the last step (`battle.shots`, sent as a patch of one key), the
// table must stay interactive (dragging, hovering) in the same drawing, and the reveal is
// timed per shot, which a finished picture cannot do. svg.py stays the reference for
// the look (same palette, same marks) and for pictures outside the browser.
import { svg, seatColour } from "/static/js/common.js";

export const LASER_COLOUR = { 1: "#d05ce3", 2: "#ff5252", 3: "#69f0ae" };
export const KIND_COLOUR = { ion: "#40c4ff", piercing: "#ffab40" };
export const LASER_WIDTH = { 1: 1.6, 2: 2.6, 3: 3.6 };
export const SHIELD = "#00e5ff";
const CUBE = "#ffc107";
const METEOR = { fill: "#eadfcb", stroke: "#7a5c3a" };
/** ms before the first shot of a step appears, then between two shots. */
export const LEAD_MS = 250;
export const STAGGER_MS = 450;

export const laserColour = (strength, kind) => KIND_COLOUR[kind] || LASER_COLOUR[strength] || "#fff";

/** A seat colour mixed with white: the card's printed paper. */
function tint(hex, k = 0.78) {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v + (255 - v) * k));
  return `rgb(${ch.join(",")})`;
}

const ownerColours = (owner) => (owner === null || owner === undefined ? METEOR : { fill: tint(seatColour(owner)), stroke: seatColour(owner) });

function text(x, y, s, size, fill, extra = {}) {
  return svg("text", { x, y, "font-size": size, fill, "text-anchor": "middle", ...extra }, s);
}

/**
 * One card in its own frame, nose up (SVG y down) around (0, 0).
 * ``c``: {name, role, owner, initiative, hull, vp, damage: [seat...], cubes, delays, fired};
 * ``newDamage``: how many of the last damage tokens arrived in the step being shown, each
 * with the index of the shot that placed it (revealed with that shot).
 */
export function cardArt(c, hw, hl, { angle = 0, ghost = false, newDamage = [] } = {}) {
  const { fill, stroke } = ownerColours(c.owner);
  const flip = ((angle % 360) + 360) % 360 > 90 && ((angle % 360) + 360) % 360 < 270;
  const g = svg("g", { class: "cf-art", opacity: ghost ? 0.45 : 1 });
  const dash = ghost ? "4 3" : null;
  g.append(svg("rect", { class: "cf-paper", x: -hw, y: -hl, width: 2 * hw, height: 2 * hl, rx: 3, fill, stroke, "stroke-width": 1.6, "stroke-dasharray": dash }));
  g.append(svg("path", { d: `M${-hw},${-hl + 14} V${-hl + 3} Q${-hw},${-hl} ${-hw + 3},${-hl} H${hw - 3} Q${hw},${-hl} ${hw},${-hl + 3} V${-hl + 14} Z`, fill: stroke }));
  g.append(svg("path", { d: `M-6,${-hl} L0,${-hl - 6} L6,${-hl} Z`, fill: stroke }));
  const words = (y, s, size, colour, weight = "normal") => {
    const extra = { "font-weight": weight };
    if (flip) extra.transform = `rotate(180 0 ${(y - size * 0.35).toFixed(1)})`;
    if (s.length * size * 0.6 > 2 * hw - 5) { extra.textLength = 2 * hw - 5; extra.lengthAdjust = "spacingAndGlyphs"; }
    return text(0, y, s, size, colour, extra);
  };
  g.append(words(-hl + 9.5, c.name || "", 8, "#10142a", "bold"));
  if (c.role === "ship" || c.role === "flagship") {
    const delayed = (c.delays || 0) > 0;
    g.append(svg("circle", { cx: 0, cy: -13, r: 10, fill: "#fff", stroke: delayed ? "#0277bd" : stroke, "stroke-width": delayed ? 2.5 : 1.5 }));
    g.append(words(-8.5, String(c.initiative), 13, "#111", "bold"));
    if (delayed) g.append(words(4, `delay +${2 * c.delays}`, 6.5, "#0277bd", "bold"));
    g.append(hull(c, 12, flip, newDamage));
    const vp = `${c.vp} VP${c.fired ? " · fired" : ""}`;
    g.append(words(hl - 6, c.role === "flagship" ? `flagship · ${vp}` : vp, 6, "#333"));
  } else {
    g.append(words(-8, c.role === "cargo" ? "cargo" : "meteor", 6.5, "#555"));
    if (c.vp) g.append(words(hl - 7, `${c.vp} VP`, 6, "#333"));
  }
  if (c.cubes) g.append(cubes(c.cubes, c.role === "ship" || c.role === "flagship" ? 22 : 4));
  return g;
}

/** Hull boxes, filled left to right by damage tokens in the dealer's colour; the tokens
 * the shown step placed are drawn over empty boxes and revealed with their shot. */
function hull(c, y, flip, newDamage) {
  const g = svg("g", { class: "cf-hull" });
  const n = Math.max(c.hull || 0, 1), size = 7, gap = 1.5;
  const x0 = -(n * size + (n - 1) * gap) / 2;
  const damage = c.damage || [];
  const firstNew = damage.length - newDamage.length;
  for (let i = 0; i < (c.hull || 0); i++) {
    const x = x0 + i * (size + gap);
    const old = i < damage.length && i < firstNew;
    g.append(svg("rect", { x, y: y - size / 2, width: size, height: size, rx: 1, fill: old ? seatColour(damage[i]) : "#fff", stroke: "#333", "stroke-width": 0.7, "data-hull": i, "data-dealt": old ? damage[i] : null }));
    if (i >= firstNew && i < damage.length) {
      g.append(svg("rect", { class: "cf-shot cf-new-damage", "data-i": newDamage[i - firstNew], x, y: y - size / 2, width: size, height: size, rx: 1, fill: seatColour(damage[i]), stroke: "#333", "stroke-width": 0.7, "data-dealt": damage[i] }));
    }
  }
  if (damage.length > (c.hull || 0)) {
    const ty = y + size + 3.5;
    g.append(text(0, ty, `+${damage.length - c.hull} over`, 5.5, "#b71c1c", flip ? { transform: `rotate(180 0 ${ty - 2})` } : {}));
  }
  return g;
}

function cubes(n, y) {
  const g = svg("g", { class: "cf-cubes", "data-cubes": n });
  const size = 5, gap = 1.6;
  for (let r = 0; r * 5 < Math.min(n, 15); r++) {
    const count = Math.min(5, n - r * 5);
    const x0 = -(count * size + (count - 1) * gap) / 2;
    for (let i = 0; i < count; i++) g.append(svg("rect", { x: x0 + i * (size + gap), y: y + r * (size + gap), width: size, height: size, fill: CUBE, stroke: "#7a5200", "stroke-width": 0.6 }));
  }
  if (n > 15) g.append(text(0, y + 3 * (size + gap) + 4, `${n} cubes`, 5.5, "#7a5200"));
  return g;
}

function burst(x, y) {
  const pts = [];
  for (let k = 0; k < 16; k++) {
    const r = k % 2 === 0 ? 9 : 4;
    const a = (Math.PI * k) / 8;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { points: pts.join(" "), fill: "#ffeb3b", stroke: "#e65100", "stroke-width": 1 });
}

function halo(x, y, s, fill) {
  return text(x, y, s, 11, fill, { "font-weight": "bold", stroke: "#000", "stroke-width": 2.2, "paint-order": "stroke", "stroke-linejoin": "round" });
}

const RESULT_WORDS = { shield: "shield", immune: "immune", ion_no_effect: "no effect", miss: "off the table" };

/** One shot (table mm, y up; H the table's height): its beam and the mark where it landed,
 * in a group revealed when its turn comes (``data-i``: the firing order). */
export function shotArt(s, i, H, names) {
  const colour = laserColour(s.strength, s.laser_kind);
  const [x0, y0] = s.from, [x1, y1] = s.to;
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  const g = svg("g", { class: "cf-shot", "data-i": i, "data-result": s.result || "", "data-from": s.from_card, style: `--len:${len.toFixed(0)}` });
  g.append(svg("title", {}, `${names(s.from_card)}: ${s.laser_kind || "normal"} laser (${s.strength}) — ${s.result === "damage" ? `${s.damage ?? s.strength} damage to ${names(s.target)}` : RESULT_WORDS[s.result] || s.result}`));
  // A beam grows from its ship to where it landed; a miss (dashed) fades in instead.
  const beam = s.result === "miss" ? "cf-beam-miss" : "cf-beam";
  g.append(svg("line", { class: `${beam} cf-glow`, x1: x0, y1: H - y0, x2: x1, y2: H - y1, stroke: colour, "stroke-width": (LASER_WIDTH[s.strength] || 1.6) * 3.5, opacity: 0.25, "stroke-linecap": "round" }));
  g.append(svg("line", { class: `${beam} laser`, "data-result": s.result || "", x1: x0, y1: H - y0, x2: x1, y2: H - y1, stroke: colour, "stroke-width": LASER_WIDTH[s.strength] || 1.6, "stroke-linecap": "round", "stroke-dasharray": s.result === "miss" ? "6 4" : null }));
  if (s.result === "miss") return g;
  const mx = x1, my = H - y1;
  const mark = svg("g", { class: "cf-mark" });
  let words, fill;
  if (s.result === "damage") {
    mark.append(burst(mx, my));
    words = `-${s.damage ?? s.strength}`; fill = "#ffeb3b";
  } else if (s.result === "shield") {
    mark.append(svg("circle", { cx: mx, cy: my, r: 6, fill: "none", stroke: SHIELD, "stroke-width": 2.5 }));
    words = "shield"; fill = SHIELD;
  } else if (s.result === "cargo") {
    mark.append(svg("rect", { x: mx - 4.5, y: my - 4.5, width: 9, height: 9, fill: CUBE, stroke: "#000", "stroke-width": 0.8 }));
    words = `+${s.cubes || 0} cube${s.cubes === 1 ? "" : "s"}`; fill = CUBE;
  } else if (s.result === "delay") {
    mark.append(svg("circle", { cx: mx, cy: my, r: 5, fill: KIND_COLOUR.ion, stroke: "#000", "stroke-width": 0.8 }));
    words = "delay +2"; fill = KIND_COLOUR.ion;
  } else {
    mark.append(svg("circle", { cx: mx, cy: my, r: 4.5, fill: "#9e9e9e", stroke: "#000", "stroke-width": 0.8 }));
    words = RESULT_WORDS[s.result] || s.result; fill = "#e0e0e0";
  }
  mark.append(halo(mx, my + (i % 2 === 0 ? -11 : 19), words, fill));
  g.append(mark);
  return g;
}

// --- the reveal: shots of one step one after another, kept across redraws ---------------

/** How long the last shot of a step stays in view before the next step may be drawn. */
export const HOLD_MS = 700;
let anim = { key: null, start: 0, end: 0 };

/** True while a step's shots are still being revealed (or its last shot is held). */
export function shotsPlaying() {
  return performance.now() < anim.end;
}

/** Reveals the step's shots (and what they placed) in firing order. A redraw of the same
 * step carries on where the reveal was; a new step (or ``again``) starts it over, and
 * ``onDone`` runs once when that reveal (and the hold after it) is over. */
export function playShots(table, key, count, again = false, onDone = null) {
  if (again || key !== anim.key) {
    const start = performance.now();
    anim = { key, start, end: start + LEAD_MS + Math.max(count - 1, 0) * STAGGER_MS + HOLD_MS };
    if (onDone) setTimeout(onDone, anim.end - start + 5);
  }
  table.dataset.shots = String(count);
  table.dataset.shown = "0";
  const elapsed = performance.now() - anim.start;
  const reveal = (i) => {
    for (const node of table.querySelectorAll(`.cf-shot[data-i="${i}"]`)) node.classList.add("on");
    table.dataset.shown = String(Math.max(Number(table.dataset.shown), i + 1));
    if (i + 1 === count) table.classList.add("cf-shots-done");
  };
  for (const node of table.querySelectorAll(".cf-shot.on")) node.classList.remove("on");
  table.classList.remove("cf-shots-done");
  for (let i = 0; i < count; i++) {
    const due = LEAD_MS + i * STAGGER_MS - elapsed;
    if (due <= 0) reveal(i);
    else setTimeout(() => reveal(i), due);
  }
  if (!count) table.classList.add("cf-shots-done");
}

/** For each card hit this step: the shot index of each damage token it received, in order. */
export function newDamageByCard(shots) {
  const out = new Map();
  shots.forEach((s, i) => {
    if (s.result !== "damage" || s.target === null || s.target === undefined) return;
    const list = out.get(s.target) || [];
    for (let k = 0; k < (s.damage ?? s.strength ?? 0); k++) list.push(i);
    out.set(s.target, list);
  });
  return out;
}
