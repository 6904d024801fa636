// "How to play": a short interactive walk through each game, reachable from the match
// page (header button) and the lobby. Every step shows the game's pieces as the board
// draws them (same colours and shapes, in small) with one thing pulsing: clicking it
// does what the step describes (draw a body, launch a Voyage, fire a laser...), so the
// key actions are tried once before the first real move. Our own words, from the
// rulebooks; "Rules in short" keeps the reminders.
import { el, svg } from "./common.js";

const W = 420, H = 210;
const BODY = { planet: "#3fb4d8", comet: "#a08a6a", star: "#f5c542", supernova: "#e0465a" };
const GALAXY = { alpha: "#2a2d3a", beta: "#6b3fa0", gamma: "#2f6fd0", delta: "#e0892a" };
const SEAT = ["#6fb6ff", "#ff9f6b"];

export const TITLES = { stellium: "Stellium", stellarion: "Stellarion", expedition: "Stellar Expedition", conflict: "Stellar Conflict" };

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

const label = (x, y, text, size = 12, fill = "#e8ecff", anchor = "middle") => svg("text", { x, y, "font-size": size, fill, "text-anchor": anchor }, text);

/** A pulsing ring around what to click; the click runs ``onHit``. */
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

function card(x, y, w, h, fill, title, sub = "", attrs = {}) {
  const g = svg("g", attrs);
  g.append(svg("rect", { x, y, width: w, height: h, rx: 6, fill, stroke: "#0b1026", "stroke-width": 1.5 }));
  g.append(label(x + 6, y + 15, title, 11, "#fff", "start"));
  if (sub) g.append(label(x + w / 2, y + h - 8, sub, 9, "#fff"));
  return g;
}

// --- the steps of each game: {title, text, tryIt, done, draw(pic, finish)} ---------

const STEPS = {
  stellium: [
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
  ],
  stellarion: [
    {
      title: "The Observatory",
      text: "Eight decks: four Galaxy decks (Alpha, Beta, Gamma, Delta) and four Type decks (Ship, Nebula, Stars, Planet). Only the top card of each deck can be used. You know what a deck holds, not in which order.",
      tryIt: "Try it: click the face-down deck to turn its top card up.",
      done: "After each action you turn one face-down top card up.",
      draw(pic, finish) {
        const names = ["Alpha", "Beta", "Gamma", "Delta"];
        names.forEach((n, i) => pic.append(card(20 + i * 100, 20, 80, 80, GALAXY[n.toLowerCase()], n, "Galaxy deck")));
        ["Ship", "Nebula", "Stars", "Planet"].forEach((n, i) => {
          const down = i === 2;
          const c = card(20 + i * 100, 115, 80, 80, down ? "#3a4060" : "#4a5590", down ? "?" : n, "Type deck");
          pic.append(down ? target(c, () => {
            c.querySelector("rect").setAttribute("fill", GALAXY.gamma);
            c.querySelector("text").textContent = "Stars";
            finish();
          }, "turn the top card up") : c);
        });
      },
    },
    {
      title: "Launch a Voyage",
      text: "Use four cards of one Galaxy, one of each Type (Ship, Nebula, Stars, Planet), from the deck tops and the Outpost; a Shooting Star may stand in for one. You take that Galaxy's Voyage.",
      tryIt: "Try it: click the four Alpha cards, one of each Type.",
      done: "Launched: the Alpha Voyage is yours.",
      draw(pic, finish) {
        let left = 4;
        ["Ship", "Nebula", "Stars", "Planet"].forEach((n, i) => {
          const c = card(20 + i * 80, 50, 70, 95, GALAXY.alpha, n, "Alpha");
          pic.append(target(c, () => {
            c.querySelector("rect").setAttribute("stroke", "#ffd66b");
            c.querySelector("rect").setAttribute("stroke-width", "3");
            left -= 1;
            if (!left) {
              pic.append(card(345, 60, 65, 75, GALAXY.alpha, "Alpha", "Voyage"));
              finish();
            }
          }, `use the Alpha ${n}`));
        });
      },
    },
    {
      title: "Coordinate, and how the game ends",
      text: "Instead of launching, discard two cards of the same Type to use its power: Ship searches a deck, Nebula brings discards back, Stars looks at cards, Planet moves cards to the Outpost. Two identical cards give the major power. You win when every Voyage is taken; you lose when your turn starts and you can neither Launch nor Coordinate.",
      tryIt: "Try it: click the two Nebula cards to Coordinate.",
      done: "Nebula power: discarded cards come back into a deck.",
      draw(pic, finish) {
        let left = 2;
        [["Beta", 40], ["Delta", 140]].forEach(([g, x]) => {
          const c = card(x, 50, 80, 100, GALAXY[g.toLowerCase()], "Nebula", g);
          pic.append(target(c, () => {
            c.setAttribute("opacity", "0.4");
            left -= 1;
            if (!left) finish();
          }, `discard the ${g} Nebula`));
        });
        pic.append(card(270, 50, 80, 100, "#2f6fd0", "Stars", "Gamma"));
      },
    },
  ],
  expedition: [
    {
      title: "A round in four phases",
      text: "Production: your Embassies yield Raw Materials (RM), Crystals and Influence. Discovery: new Location tiles are laid next to your ship. Sensors: roll the Sensor dice for Encounters. Command: move, recruit crew, build Embassies, buy Upgrades, complete Expeditions.",
      tryIt: "Try it: click your ship and then a pulsing space to move it.",
      done: "Moving costs one movement per space entered; Asteroid belts block.",
      draw(pic, finish) {
        const hex = (cx, cy, r) => Array.from({ length: 6 }, (_, k) => { const a = (Math.PI / 3) * k + Math.PI / 6; return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`; }).join(" ");
        const cells = [[150, 105, "Space Gate", "#6b5a10"], [210, 70, "Terra Nova", "#2f6f4a"], [210, 140, "", "#161c40"], [270, 105, "", "#161c40"], [90, 70, "Cinder Reach", "#6f2f2f"]];
        for (const [x, y, n, f] of cells) {
          pic.append(svg("polygon", { points: hex(x, y, 38), fill: f, stroke: "#3a4a94", "stroke-width": 1.5 }));
          if (n) pic.append(label(x, y + 4, n, 9));
        }
        const ship = svg("path", { d: "M 150 90 L 160 118 L 150 112 L 140 118 Z", fill: SEAT[0], stroke: "#0b1026" });
        pic.append(ship);
        const dest = svg("polygon", { points: hex(270, 105, 34), fill: "rgba(255,214,107,0.12)", stroke: "#ffd66b", "stroke-width": 2, "stroke-dasharray": "6 4" });
        pic.append(target(dest, () => { ship.setAttribute("transform", "translate(120 0)"); finish(); }, "move the ship here"));
        pic.append(label(360, 40, "Production", 10, "#9aa6d8"), label(360, 60, "Discovery", 10, "#9aa6d8"), label(360, 80, "Sensors", 10, "#9aa6d8"), label(360, 100, "Command", 11, "#ffd66b"));
      },
    },
    {
      title: "Crew and Expeditions",
      text: "Crew cards have a level and skills (Pilot, Engineer, Scientist...). An Expedition card asks for certain skills and levels, sometimes at a kind of Location; complete it with your crew to score its points and its bonus.",
      tryIt: "Try it: click the Expedition: your Pilot and Engineer meet its needs.",
      done: "Expedition complete: 3 points, and its bonus.",
      draw(pic, finish) {
        pic.append(card(20, 40, 110, 130, "#2a3a6a", "Captain Vance", "level 2"), label(75, 90, "Pilot · Officer", 10));
        pic.append(card(140, 40, 110, 130, "#2a3a6a", "Ensign Okoro", "level 1"), label(195, 90, "Engineer", 10));
        const x = card(280, 40, 120, 130, "#4a2a4a", "City Lights", "Bronze · 3 points");
        x.append(label(340, 80, "Needs Pilot", 10), label(340, 96, "+ Engineer", 10), label(340, 118, "Bonus: 2 Influence", 9, "#ffd66b"));
        pic.append(target(x, () => { x.querySelector("rect").setAttribute("stroke", "#6ee7a8"); x.querySelector("rect").setAttribute("stroke-width", "3"); finish(); }, "complete the Expedition"));
      },
    },
    {
      title: "Embassies, and the end",
      text: "Build Embassies on Locations: they produce every round and score at the end. After the last round the captain with most points wins (ties: crew levels, then Location cards). Solo, you race the drone, whose next Action card you can see.",
      tryIt: "Try it: click the Location to build an Embassy.",
      done: "Embassy built: it produces from the next round.",
      draw(pic, finish) {
        const loc = card(140, 30, 140, 150, "#2f6f4a", "Terra Nova", "produces 3 RM + 2 Crystal");
        pic.append(target(loc, () => {
          pic.append(svg("rect", { x: 195, y: 95, width: 30, height: 30, rx: 4, fill: SEAT[0], stroke: "#0b1026", "stroke-width": 2 }));
          finish();
        }, "build an Embassy"));
      },
    },
  ],
  conflict: [
    {
      title: "Preparation: a secret fleet",
      text: "Spend the battle's credits (Dispute 10, Conflict 15, War 30) on ship cards, in secret. Your Cargo ship is dealt first, your Flagship last.",
      tryIt: "Try it: click a ship to add it to your fleet.",
      done: "Bought: 3 credits spent.",
      draw(pic, finish) {
        [["Glimmer", 1, 1, 1], ["Tempest", 3, 4, 3], ["Halo", 4, 7, 4]].forEach(([n, cr, ini, hull], i) => {
          const c = card(30 + i * 130, 30, 100, 140, "#dbeeff", n, `${cr} cr · hull ${hull}`);
          c.querySelector("text").setAttribute("fill", "#111");
          c.querySelectorAll("text")[1].setAttribute("fill", "#111");
          c.append(svg("circle", { cx: 80 + i * 130, cy: 90, r: 14, fill: "#fff", stroke: "#1565c0", "stroke-width": 2 }), label(80 + i * 130, 95, String(ini), 14, "#111"));
          pic.append(i === 1 ? target(c, () => { c.querySelector("rect").setAttribute("stroke", "#ffd66b"); c.querySelector("rect").setAttribute("stroke-width", "4"); finish(); }, `buy the ${n}`) : c);
        });
      },
    },
    {
      title: "Deployment against the clock",
      text: "Everyone at once drags the top card of their deck onto the table, at any angle, never touching another card, until the timer rings (or, with Light Speed, until someone deploys their last card). Wheel, Q/E or the round handle turn the card you hold.",
      tryIt: "Try it: click the table to put your card down.",
      done: "Deployed. A card you are still holding when the clock rings lands where it is.",
      draw(pic, finish) {
        const table = svg("rect", { x: 10, y: 10, width: 400, height: 190, rx: 6, fill: "#0d1a2c", stroke: "#3a4a94", "stroke-width": 2 });
        pic.append(table);
        pic.append(svg("rect", { x: 300, y: 40, width: 45, height: 62, rx: 3, fill: "#ffe1dc", stroke: SEAT[1], "stroke-width": 2, transform: "rotate(20 322 71)" }));
        const spot = svg("rect", { x: 100, y: 90, width: 45, height: 62, rx: 3, fill: "rgba(110,231,168,0.28)", stroke: "#6ee7a8", "stroke-width": 2, "stroke-dasharray": "6 4" });
        pic.append(target(spot, () => { spot.setAttribute("fill", "#dbeeff"); spot.setAttribute("stroke", SEAT[0]); spot.removeAttribute("stroke-dasharray"); finish(); }, "deploy the card here"));
      },
    },
    {
      title: "Battle: lasers in initiative order",
      text: "Ships fire in initiative order, lowest first; equal initiatives fire together. A laser runs straight until it meets a card: a shield stops it, otherwise it deals its strength in damage. A ship whose damage reaches its hull is destroyed. Shooting a Cargo ship steals cubes. Score: the VP of ships you destroyed plus the cargo you stole.",
      tryIt: "Try it: click Fire to resolve initiative 1.",
      done: "Hit: 2 damage. The hull boxes fill in the shooter's colour.",
      draw(pic, finish) {
        pic.append(svg("rect", { x: 10, y: 10, width: 400, height: 190, rx: 6, fill: "#0d1a2c" }));
        pic.append(svg("rect", { x: 60, y: 75, width: 45, height: 62, rx: 3, fill: "#dbeeff", stroke: SEAT[0], "stroke-width": 2 }), label(82, 110, "1", 14, "#111"));
        pic.append(svg("rect", { x: 300, y: 75, width: 45, height: 62, rx: 3, fill: "#ffe1dc", stroke: SEAT[1], "stroke-width": 2 }));
        const boxes = [0, 1, 2].map((k) => svg("rect", { x: 305 + k * 12, y: 120, width: 10, height: 10, fill: "#fff", stroke: "#333" }));
        pic.append(...boxes);
        const fire = svg("g", {});
        fire.append(svg("rect", { x: 150, y: 160, width: 120, height: 30, rx: 8, fill: "#c89b2c", stroke: "#ffd66b" }), label(210, 180, "Fire initiative 1", 12, "#1b1400"));
        pic.append(target(fire, () => {
          pic.append(svg("line", { class: "howto-beam", x1: 105, y1: 100, x2: 300, y2: 100, stroke: "#ff5252", "stroke-width": 3 }));
          boxes[0].setAttribute("fill", SEAT[0]);
          boxes[1].setAttribute("fill", SEAT[0]);
          finish();
        }, "fire"));
      },
    },
  ],
};

let open = null; // {gameId, step, box}

export function closeHowto() {
  if (!open) return;
  open.box.remove();
  open.opener?.focus?.();
  open = null;
}

function show(i) {
  const steps = STEPS[open.gameId];
  open.step = i;
  const step = steps[i];
  const status = el("p", { class: "howto-try", role: "status" }, step.tryIt);
  const pic = svg("svg", { class: "howto-pic", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": step.title });
  const next = el("button", { class: "primary", id: "howto-next", type: "button", onclick: () => (i + 1 < steps.length ? show(i + 1) : closeHowto()) }, i + 1 < steps.length ? "Next ›" : "Let's play");
  step.draw(pic, () => {
    status.textContent = `✓ ${step.done}`;
    status.classList.add("done");
    next.focus();
  });
  const card = open.box.querySelector(".howto-card");
  card.replaceChildren(
    el("div", { class: "howto-top" },
      el("h2", {}, `How to play ${TITLES[open.gameId] || open.gameId}`),
      el("button", { class: "secondary howto-close", type: "button", "aria-label": "close", onclick: closeHowto }, "✕")),
    el("h3", { class: "howto-step" }, `${i + 1} / ${steps.length} · ${step.title}`),
    pic,
    el("p", { class: "howto-text" }, step.text),
    status,
    el("div", { class: "howto-nav" },
      el("span", { class: "howto-dots" }, steps.map((_, k) => el("span", { class: k === i ? "dot on" : "dot" }))),
      el("button", { class: "secondary", id: "howto-back", type: "button", disabled: i === 0, onclick: () => show(i - 1) }, "‹ Back"),
      next));
}

/** Opens the walk-through of ``gameId`` (an overlay; Escape or ✕ closes it). */
export function openHowto(gameId) {
  if (!STEPS[gameId]) return false;
  closeHowto();
  const box = el("div", { class: "overlay howto", id: "howto", onclick: (ev) => { if (ev.target === box) closeHowto(); } },
    el("div", { class: "card howto-card", role: "dialog", "aria-modal": "true", "aria-label": `How to play ${TITLES[gameId] || gameId}` }));
  open = { gameId, step: 0, box, opener: document.activeElement };
  document.body.append(box);
  show(0);
  box.querySelector("#howto-next")?.focus();
  return true;
}

document.addEventListener("keydown", (ev) => {
  if (!open) return;
  if (ev.key === "Escape") closeHowto();
  else if (ev.key === "ArrowRight" && open.step + 1 < STEPS[open.gameId].length) show(open.step + 1);
  else if (ev.key === "ArrowLeft" && open.step > 0) show(open.step - 1);
});

/** The lobby's row of "How to play" buttons, one per game that has a walk-through. */
export function mountHowtoButtons(root, gameIds = Object.keys(STEPS)) {
  if (!root) return;
  root.replaceChildren(el("span", { class: "muted" }, "New here? "),
    ...gameIds.filter((g) => STEPS[g]).map((g) => el("button", { class: "secondary", type: "button", "data-howto": g, onclick: () => openHowto(g) }, `How to play ${TITLES[g]}`)));
}
