// "How to play" Stellium: the steps of its walk-through, each {title, text, tryIt,
// done, draw(pic, finish)}; ``draw`` draws the pieces in small with one pulsing target
// whose click does what the step says, then calls ``finish``. Our own words, from the
// rulebook. The page shows them (../../js/howto.js).
import { svg } from "/static/js/common.js";
import { label, target, card } from "/static/js/howto_kit.js";

const BODY = { planet: "#3fb4d8", comet: "#a08a6a", star: "#f5c542", supernova: "#e0465a" };

/** A body of Stellium as the board draws it: a shaded disc (a Star with points). */
function body(kind, cx, cy, r = 16, attrs = {}) {
  const g = svg("g", attrs);
  if (kind === "star") {
    const pts = [];
    for (let k = 0; k < 16; k++) {
      const rr = k % 2 ? r * 0.72 : r;
      const a = (Math.PI * k) / 8;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svg("polygon", { points: pts.join(" "), fill: BODY.star, stroke: "#8a6a10", "stroke-width": 1 }));
  } else {
    g.append(svg("circle", { cx, cy, r, fill: BODY[kind] || "#888", stroke: "#0b1026", "stroke-width": 1.5 }));
    g.append(svg("circle", { cx: cx - r / 3, cy: cy - r / 3, r: r / 3, fill: "#fff", opacity: 0.35 }));
    if (kind === "supernova") g.append(svg("circle", { cx, cy, r: r + 3, fill: "none", stroke: BODY.supernova, "stroke-dasharray": "2 3" }));
  }
  return g;
}

export const steps = [
  {
    title: "Draw a body from the bag",
    text: "On your turn you choose a kind of celestial body from the bag: Planet, Comet, Star or Supernova. You have 5 seconds; after that one is drawn for you at random.",
    tryIt: "Try it: click the Star in the bag.",
    done: "You drew a Star. Next you place it.",
    draw(pic, finish) {
      pic.append(svg("ellipse", { cx: 210, cy: 120, rx: 170, ry: 70, fill: "#1b2350", stroke: "#3a4a94" }), label(210, 40, "the bag", 13, "#9aa6d8"));
      ["planet", "comet", "star", "supernova"].forEach((k, i) => {
        const g = body(k, 90 + i * 80, 120, 22);
        g.append(label(90 + i * 80, 165, k[0].toUpperCase() + k.slice(1), 11, "#9aa6d8"));
        pic.append(k === "star" ? target(g, () => { g.setAttribute("transform", "translate(0 -50)"); finish(); }, "draw the Star") : g);
      });
    },
  },
  {
    title: "Place it, then its effect happens",
    text: "Put the body on any empty space of the Universe. Then its effect: a Planet swaps places with a neighbouring Planet, a Comet pushes a line of bodies, a Star turns its Galaxy disc by one to five sixths of a turn, a Supernova's Black Hole pulls a neighbour in. An Influence token may swap the effect for its colour's.",
    tryIt: "Try it: click the empty space in the disc to place the Star there.",
    done: "The Star is placed and its Galaxy disc turns by a sixth.",
    draw(pic, finish) {
      const disc = svg("g", { class: "howto-disc" });
      disc.append(svg("circle", { cx: 210, cy: 105, r: 90, fill: "#262d78", stroke: "#6f7fd8", "stroke-width": 2 }));
      const spots = [[150, 65, "planet"], [210, 45, "comet"], [270, 65, null], [150, 145, "supernova"], [210, 165, "planet"], [270, 145, "comet"], [210, 105, "planet"]];
      let empty = null;
      for (const [x, y, k] of spots) {
        if (k) disc.append(body(k, x, y, 15));
        else {
          empty = svg("circle", { cx: x, cy: y, r: 16, fill: "#0b1026", stroke: "#f5c542", "stroke-width": 2, "stroke-dasharray": "5 3" });
          disc.append(empty);
        }
      }
      pic.append(disc);
      pic.append(target(empty, () => {
        disc.append(body("star", 270, 65, 15));
        disc.style.transformOrigin = "210px 105px";
        disc.classList.add("howto-turn");
        finish();
      }, "place the Star"));
    },
  },
  {
    title: "Fulfil Missions, score Stelliums",
    text: "A Mission card shows a pattern of bodies and colours. When the Universe shows it, claim the Mission: its bodies leave the board except one you keep, and you score its Stelliums. Keep up to three unfinished Missions in hand. The game ends after the round in which someone reaches the target score; most Stelliums wins.",
    tryIt: "Try it: click the Mission card whose pattern is on the board.",
    done: "Mission complete: 3 Stelliums.",
    draw(pic, finish) {
      pic.append(body("planet", 60, 90, 15), body("planet", 100, 90, 15), body("comet", 80, 125, 15), body("star", 150, 125, 15));
      const m = card(250, 40, 120, 130, "#1d2a55", "Blue Triangle", "3 ★");
      m.querySelector("rect").setAttribute("stroke", "#4a8cff");
      m.append(body("planet", 290, 90, 12), body("planet", 330, 90, 12), body("comet", 310, 120, 12));
      pic.append(target(m, () => {
        pic.append(svg("path", { d: "M 45 75 L 115 75 L 80 142 Z", fill: "none", stroke: "#6ee7a8", "stroke-width": 3 }));
        finish();
      }, "claim the Mission"));
    },
  },
];
