// The generic board panel: any game's view shown as readable boxes, and its legal
// actions as buttons grouped by kind. Every game is playable through it from day one.
import { el, words, capital } from "./common.js";

const HIDDEN_WORDS = /^(hidden|face_?down|unknown|\?)$/i;

function chip(v) {
  const hidden = v === null || (typeof v === "string" && HIDDEN_WORDS.test(v));
  return el("span", { class: hidden ? "chip hidden" : "chip" }, hidden ? "?" : String(v));
}

function value(v, depth) {
  if (v === null || v === undefined) return el("span", { class: "muted" }, "—");
  if (typeof v === "boolean") return el("span", {}, v ? "yes" : "no");
  if (typeof v !== "object") return chip(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", { class: "muted" }, "none");
    if (v.every((x) => x === null || typeof x !== "object")) return el("span", {}, v.map(chip));
    if (depth > 3) return el("span", { class: "muted" }, `${v.length} items`);
    return el("ol", { class: "gv", start: 0 }, v.map((x) => el("li", {}, value(x, depth + 1))));
  }
  if (depth > 3) return el("span", { class: "muted" }, "…");
  return el(
    "dl",
    { class: "gv" },
    Object.entries(v).map(([k, x]) => [el("dt", {}, words(k)), el("dd", {}, value(x, depth + 1))]),
  );
}

/** Draws ``view`` as a grid of labelled boxes. */
export function renderGeneric(root, view, names = []) {
  root.replaceChildren();
  const grid = el("div", { class: "gview" });
  for (const [k, v] of Object.entries(view || {})) {
    const big = v && typeof v === "object" && JSON.stringify(v).length > 300;
    grid.append(el("div", { class: big ? "gbox wide gv" : "gbox gv" }, el("div", { class: "k" }, words(k)), value(v, 0)));
  }
  if (names.length) grid.prepend(el("div", { class: "gbox wide gv" }, el("div", { class: "k" }, "players"), el("span", {}, names.map((n, i) => chip(`${i + 1}. ${n}`)))));
  root.append(grid);
}

/** An action's short notation, as the engine writes it (``kind arg (a,b)``). */
export function actionText(action) {
  const arg = (a) => (Array.isArray(a) ? `(${a.map(arg).join(",")})` : String(a));
  return [action.kind, ...action.args.map(arg)].join(" ");
}

/** Legal actions as buttons grouped by kind; ``onPick(entry)`` sends one. */
export function renderActions(root, legal, onPick, { disabled = false, truncated = false } = {}) {
  root.replaceChildren();
  const groups = new Map();
  for (const a of legal) {
    const kind = a.action.kind;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  for (const [kind, acts] of groups) {
    const box = el("div", { class: acts.length > 24 ? "action-group many" : "action-group" });
    box.append(el("h4", {}, capital(words(kind)) + (acts.length > 1 ? ` (${acts.length})` : "")));
    const buttons = el("div", { class: "buttons" });
    for (const a of acts) {
      buttons.append(
        el("button", { title: actionText(a.action), "data-action": actionText(a.action), disabled, onclick: () => onPick(a) }, a.label),
      );
    }
    box.append(buttons);
    root.append(box);
  }
  if (truncated) root.append(el("p", { class: "muted" }, "More placements exist than are listed: use the board."));
}
