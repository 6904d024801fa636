// The pieces a game's "How to play" steps draw with (its own ``web/howto.js``): labels,
// cards, the seats' colours, and the pulsing target whose click does what the step says.
import { svg } from "./common.js";

export const SEAT = ["#6fb6ff", "#ff9f6b"];

export const label = (x, y, text, size = 12, fill = "#e8ecff", anchor = "middle") => svg("text", { x, y, "font-size": size, fill, "text-anchor": anchor }, text);

export /** A pulsing ring around what to click; the click runs ``onHit``. */
function target(node, onHit, hint) {
  node.setAttribute("class", `${node.getAttribute("class") || ""} howto-target hot`.trim());
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", hint);
  const fire = () => {
    node.classList.remove("howto-target");
    onHit();
  };
  node.addEventListener("click", fire, { once: true });
  node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fire(); } });
  return node;
}

export function card(x, y, w, h, fill, title, sub = "", attrs = {}) {
  const g = svg("g", attrs);
  g.append(svg("rect", { x, y, width: w, height: h, rx: 6, fill, stroke: "#0b1026", "stroke-width": 1.5 }));
  g.append(label(x + 6, y + 15, title, 11, "#fff", "start"));
  if (sub) g.append(label(x + w / 2, y + h - 8, sub, 9, "#fff"));
  return g;
}
