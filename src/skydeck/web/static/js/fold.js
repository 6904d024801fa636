// On a phone the players' panels and the log fold away (issue 49), so the board and the
// moves need less scrolling. Each part gets a finger-sized toggle in a bar at the top
// of the side column; folding sets a class on <body> ("panels-folded"), which only the
// phone's style sheet acts on: a desktop keeps every column. The choice is kept for the
// tab's session (sessionStorage), so a move, a redraw or a reload keeps it.
import { el } from "./common.js";

const KEY = "skydeck.fold.";

function remembered(name) {
  try { return sessionStorage.getItem(KEY + name) === "1"; } catch { return false; }
}

function remember(name, folded) {
  try { sessionStorage.setItem(KEY + name, folded ? "1" : "0"); } catch { /* private mode: this page only */ }
}

/**
 * A toggle for each part, put into ``bar``.
 * @param {HTMLElement} bar
 * @param {{name: string, what: string, controls: string}[]} parts
 *   (``name``: the body class is `${name}-folded`; ``what``: "the players", read in
 *   "Hide the players"; ``controls``: the id of the element folded)
 * @param {() => void} [changed] called after a fold or unfold (the page redraws its clocks)
 */
export function mountFolds(bar, parts, changed = () => {}) {
  const buttons = parts.map((part) => {
    const button = el("button", { type: "button", class: "secondary fold-toggle", "aria-controls": part.controls });
    const show = (folded) => {
      document.body.classList.toggle(`${part.name}-folded`, folded);
      button.setAttribute("aria-expanded", String(!folded));
      button.textContent = `${folded ? "Show" : "Hide"} ${part.what}`;
    };
    show(remembered(part.name));
    button.addEventListener("click", () => {
      const folded = !document.body.classList.contains(`${part.name}-folded`);
      remember(part.name, folded);
      show(folded);
      changed();
    });
    return button;
  });
  bar.replaceChildren(...buttons);
}
