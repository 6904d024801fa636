// The board on a phone: drawn at a scale where its smallest text reads at 12 CSS px,
// inside a window the width of the screen (the page never scrolls sideways), moved by
// dragging one finger and zoomed by pinching two (pointer events), back to that scale by
// a double tap or the Reset button. The drawing's own taps still work: a press that
// moves less than a few pixels is a tap, not a drag. A desktop browser (a wide window)
// and a tablet get the drawings exactly as before.
//
// The zoom is the drawing's viewBox: the SVG keeps its place in the page, so a game that
// maps a pointer to table coordinates (getScreenCTM) keeps working, and every redraw
// (a new SVG each state) gets the same window back.
import { el } from "./common.js";

// A phone: a narrow window, or a touch screen on its side (844x390). A large touch
// screen (a tablet, a touch laptop) keeps the desktop drawing.
export const PHONE = "(max-width: 700px), (pointer: coarse) and (max-height: 500px)";
const READABLE = 12; // CSS px: the smallest text at the starting scale
const TAP_SLOP = 8; // CSS px a finger may move and still tap
const DOUBLE_TAP_MS = 350;
const MAX_ZOOM = 4; // times the readable scale
// drawing name -> { k, x, y, width, z }: the window a redraw keeps. The zoom is kept as
// z, times the readable scale, so text that a redraw brings in smaller still reads.
const views = new Map();

export const phoneMode = () => window.matchMedia(PHONE).matches;

/** The drawings in ``board`` that zoom: the game's pictures (role img), not a card in
 * hand; on a desktop only a drawing that asks (data-zoom-desktop: Expedition's map, whose
 * labels would read at 6-7 px drawn whole in its column). */
function drawings(board) {
  const phone = phoneMode();
  return [...board.querySelectorAll("svg[role=img][aria-label]")]
    .filter((s) => !s.parentElement?.closest("svg") && (phone || s.dataset.zoomDesktop !== undefined));
}

function baseBox(s) {
  if (!s.dataset.base) s.dataset.base = s.getAttribute("viewBox") || "";
  const [x, y, w, h] = s.dataset.base.split(/[\s,]+/).map(Number);
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

/** The smallest font size of the drawing's text, in its own units. */
function smallestFont(s) {
  let least = Infinity;
  for (const t of s.querySelectorAll("text")) {
    if (!t.textContent.trim()) continue;
    const size = parseFloat(window.getComputedStyle(t).fontSize);
    if (size > 0) least = Math.min(least, size);
  }
  return least;
}

/** Makes every drawing of ``board`` zoomable when the page is on a phone; a no-op on a
 *  desktop or a tablet. Call after each redraw (the drawings are new then) and on resize. */
export function mountZoom(board) {
  if (!board || (!phoneMode() && !board.querySelector("svg[data-zoom-desktop]"))) return;
  mountAll(board, true);
  // A game may redraw by itself (Stellar Expedition, once its card texts have loaded):
  // a drawing that appears without the page asking gets its window too.
  if (!watched.has(board)) {
    watched.add(board);
    new MutationObserver(() => mountAll(board, false)).observe(board, { childList: true, subtree: true });
  }
}

const watched = new WeakSet();

function mountAll(board, again) {
  drawings(board).forEach((s, i) => { if (again || !s.classList.contains("zoomable")) mountOne(s, `${s.getAttribute("aria-label")}#${i}`); });
  for (const card of board.querySelectorAll("svg.cf-hand-card")) readableCard(card);
}

/** A card drawn on its own (Stellar Conflict's card in hand): as wide as its smallest
 *  text needs to read, up to the width it has. */
function readableCard(s) {
  const base = baseBox(s);
  const least = smallestFont(s);
  if (!base || !Number.isFinite(least)) return;
  s.style.width = `${Math.ceil(base.w * READABLE / least)}px`;
  s.style.maxWidth = "100%";
}

function mountOne(s, key) {
  const base = baseBox(s);
  if (!base) return;
  s.classList.add("zoomable");
  s.style.width = "100%";
  s.style.maxHeight = "none";
  s.setAttribute("preserveAspectRatio", "xMinYMin meet");
  const width = s.getBoundingClientRect().width;
  if (!width) return;
  const fit = width / base.w;
  const readable = Math.max(fit, READABLE / smallestFont(s)) || fit;
  const tall = window.innerHeight > window.innerWidth;
  // A drawing may ask for less of the screen (data-room-tall / data-room-wide: a share
  // of its height), so what it is shown beside fits too (Expedition's Encounter).
  const share = Number(s.dataset[tall ? "roomTall" : "roomWide"]) || (tall ? 0.68 : 0.82);
  const room = Math.max(200, window.innerHeight * share);
  const height = Math.min(base.h * readable, room);
  s.style.height = `${height}px`;
  // The window opens on the drawing's top left corner, or on its middle where the
  // drawing asks (data-zoom-start="center": Expedition's map grows from its centre;
  // data-zoom-center="x y" names the point, in the drawing's units, to open on).
  const centred = s.dataset.zoomStart === "center";
  const [cx, cy] = (s.dataset.zoomCenter || "").split(/\s+/).map(Number);
  const mid = Number.isFinite(cx) && Number.isFinite(cy) ? [cx, cy] : [base.x + base.w / 2, base.y + base.h / 2];
  const start = () => (centred
    ? { x: mid[0] - width / readable / 2, y: mid[1] - height / readable / 2 }
    : { x: base.x, y: base.y });
  let view = views.get(key);
  if (!view || view.width !== width) view = { z: 1, ...start(), width };
  view.k = view.z * readable;
  views.set(key, view);

  const limit = (k) => Math.min(Math.max(k, fit), readable * MAX_ZOOM);
  const apply = () => {
    view.k = limit(view.k);
    const vw = width / view.k, vh = height / view.k;
    const clamp = (v, lo, span, size) => (size >= span ? lo + (span - size) / 2 : Math.min(Math.max(v, lo), lo + span - size));
    view.x = clamp(view.x, base.x, base.w, vw);
    view.y = clamp(view.y, base.y, base.h, vh);
    view.z = view.k / readable;
    s.setAttribute("viewBox", `${view.x.toFixed(2)} ${view.y.toFixed(2)} ${vw.toFixed(2)} ${vh.toFixed(2)}`);
    s.dataset.zoom = view.z.toFixed(3);
  };
  /** Zooms to scale ``k`` keeping the drawing's point under (px, py) (CSS px from its
   *  top left corner) where it was, from the window ``from``. */
  const zoomTo = (k, px, py, from = view) => {
    const ux = from.x + px / from.k, uy = from.y + py / from.k;
    view.k = limit(k);
    view.x = ux - px / view.k;
    view.y = uy - py / view.k;
    apply();
  };
  const reset = () => { Object.assign(view, { k: readable, ...start() }); apply(); };
  apply();
  // The gestures below read the current window from here (one set of listeners per
  // drawing, however often the page mounts it again).
  s._zoom = { view, apply, zoomTo, reset };

  const label = s.getAttribute("aria-label");
  const bar = el("div", { class: "zoom-bar", role: "group", "aria-label": `zoom the ${label}` },
    el("button", { type: "button", class: "secondary", "aria-label": "zoom out", onclick: () => zoomTo(view.k / 1.4, width / 2, height / 2) }, "−"),
    el("button", { type: "button", class: "secondary", "aria-label": "zoom in", onclick: () => zoomTo(view.k * 1.4, width / 2, height / 2) }, "+"),
    el("button", { type: "button", class: "secondary zoom-reset", onclick: reset }, "Reset"),
    el("span", { class: "muted zoom-tip" }, "Drag to look around, pinch to zoom, double-tap to reset."));
  if (s.previousElementSibling?.classList.contains("zoom-bar")) s.previousElementSibling.remove();
  s.before(bar);
  if (!s._zoomGestures) listen(s);
  s._zoomGestures = true;
  // The window is sized for the drawing's width: a layout that changes it later (a
  // game's style sheet arriving after the first drawing) sizes it again.
  if (!s._zoomResize && window.ResizeObserver) {
    s._zoomResize = new ResizeObserver(() => {
      const now = s.getBoundingClientRect().width;
      if (s.isConnected && now && s._zoom && Math.abs(now - s._zoom.view.width) > 0.5) mountOne(s, key);
    });
    s._zoomResize.observe(s);
  }
}

/** One finger drags the window, two pinch it; a still press is a tap (the drawing's
 *  own click), two still taps off the pieces reset. A game that drags its own pieces on
 *  the drawing (Stellar Conflict's deployment) keeps the fingers: the buttons still work. */
function listen(s) {
  const fingers = new Map();
  let start = null, moved = false, swallow = false, lastTap = null;
  const local = (e) => { const r = s.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  const owned = () => s.classList.contains("cf-placing");
  s.addEventListener("pointerdown", (e) => {
    if (owned() || !s._zoom) return;
    const { view } = s._zoom;
    swallow = false;
    fingers.set(e.pointerId, local(e));
    const pts = [...fingers.values()];
    if (pts.length === 1) { start = { p: pts[0], x: view.x, y: view.y }; moved = false; }
    else if (pts.length === 2) {
      const [a, b] = pts;
      start = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, m: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], from: { k: view.k, x: view.x, y: view.y } };
      moved = true;
      for (const id of fingers.keys()) if (!s.hasPointerCapture(id)) s.setPointerCapture(id);
    }
  });
  s.addEventListener("pointermove", (e) => {
    if (!fingers.has(e.pointerId) || !start) return;
    const { view, apply, zoomTo } = s._zoom;
    fingers.set(e.pointerId, local(e));
    const pts = [...fingers.values()];
    if (pts.length === 1 && start.p) {
      const dx = pts[0][0] - start.p[0], dy = pts[0][1] - start.p[1];
      if (!moved && Math.hypot(dx, dy) < TAP_SLOP) return;
      if (!moved) { moved = true; s.setPointerCapture(e.pointerId); }
      view.x = start.x - dx / view.k;
      view.y = start.y - dy / view.k;
      apply();
    } else if (pts.length === 2 && start.d) {
      const [a, b] = pts;
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      // the point under the fingers' first midpoint follows their midpoint
      const m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      zoomTo(start.from.k * (d / start.d), start.m[0], start.m[1], start.from);
      view.x -= (m[0] - start.m[0]) / view.k;
      view.y -= (m[1] - start.m[1]) / view.k;
      apply();
    }
  });
  const lift = (e) => {
    if (!fingers.has(e.pointerId)) return;
    fingers.delete(e.pointerId);
    if (moved) swallow = true; // the click that may end a drag is no tap
    if (fingers.size === 1) { // one finger left after a pinch drags on from where it is
      start = { p: [...fingers.values()][0], x: s._zoom.view.x, y: s._zoom.view.y };
      return;
    }
    if (fingers.size) return;
    if (!moved && e.type === "pointerup") {
      const now = Date.now(), p = local(e);
      const onPiece = e.target instanceof Element && e.target.closest(".hot");
      if (!onPiece && lastTap && now - lastTap.t < DOUBLE_TAP_MS && Math.hypot(p[0] - lastTap.p[0], p[1] - lastTap.p[1]) < 30) { s._zoom.reset(); lastTap = null; }
      else lastTap = onPiece ? null : { t: now, p };
    }
    start = null;
  };
  s.addEventListener("pointerup", lift);
  s.addEventListener("pointercancel", lift);
  s.addEventListener("click", (e) => { if (swallow) { swallow = false; e.stopPropagation(); e.preventDefault(); } }, true);
}
