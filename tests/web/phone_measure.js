// Measured in the page by tests/web/phone.py: the page's width, its smallest enabled
// control and its smallest board and card text, and those that are too small.
// Called with [target, text]: the smallest control (CSS px square) and text (CSS px).
([target, text]) => {
  const controls = "button, a[href], input, select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1']), .hot";
  const shown = (node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    if (node.closest("[hidden], details:not([open]) > :not(summary)")) return null;
    const cs = getComputedStyle(node);
    if (cs.visibility === "hidden" || cs.display === "none") return null;
    return r;
  };
  const name = (node) => {
    const id = node.id ? "#" + node.id : "";
    const cls = typeof node.className === "string" && node.className ? "." + node.className.trim().split(/\s+/).join(".") : "";
    const label = (node.getAttribute("aria-label") || node.getAttribute("data-token") || node.textContent || "").trim().slice(0, 40);
    return `${node.tagName.toLowerCase()}${id}${cls} "${label}"`;
  };
  const small = [];
  let minW = Infinity, minH = Infinity;
  const seen = new Set();
  for (let node of document.querySelectorAll(controls)) {
    if (node.disabled || node.getAttribute("aria-disabled") === "true") continue;
    if (node.matches(".hot *")) continue; // a piece inside a pulsing piece: the outer one counts
    if (node.matches("input[type=checkbox], input[type=radio]") && node.closest("label")) node = node.closest("label");
    if (node.matches("a[href] *") || seen.has(node)) continue; // a button inside a link: one target
    seen.add(node);
    const r = shown(node);
    if (!r) continue;
    minW = Math.min(minW, r.width);
    minH = Math.min(minH, r.height);
    if (r.width < target - 0.5 || r.height < target - 0.5) small.push(`${name(node)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
  }
  // Text: an SVG text's size is its font size times the drawing's scale on screen.
  let minText = Infinity, minTextAt = "";
  const tiny = [];
  const texts = document.querySelectorAll("#board text, #board .xcard, #board .chip, #board .cf-legend, #end .card, .pp, main.profile *");
  const ownText = (node) => [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  let profileTexts = 0;
  for (const node of texts) {
    if (!node.textContent.trim() || !shown(node)) continue;
    if (node.matches("main.profile *")) {
      if (!ownText(node)) continue; // a box: the text in it is measured where it is
      profileTexts++;
    }
    let px = parseFloat(getComputedStyle(node).fontSize);
    if (node instanceof SVGElement && node.ownerSVGElement) px *= node.ownerSVGElement.getScreenCTM().a;
    if (px < minText) { minText = px; minTextAt = name(node); }
    if (px < text - 0.05) tiny.push(`${name(node)} ${px.toFixed(1)}px`);
  }
  const doc = document.scrollingElement || document.documentElement;
  return {
    scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
    innerWidth: window.innerWidth,
    minTarget: [minW, minH], small,
    minText, minTextAt, tiny, profileTexts,
  };
}
