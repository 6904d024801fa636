// "How to play" Stellar Conflict: the steps of its walk-through, each {title, text, tryIt,
// done, draw(pic, finish)}; ``draw`` draws the pieces in small with one pulsing target
// whose click does what the step says, then calls ``finish``. Our own words, from the
// rulebook. The page shows them (../../js/howto.js).
import { svg } from "/static/js/common.js";
import { label, target, card, SEAT } from "/static/js/howto_kit.js";

export const steps = [
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
];
