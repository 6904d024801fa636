// "How to play" Stellar Expedition: the steps of its walk-through, each {title, text, tryIt,
// done, draw(pic, finish)}; ``draw`` draws the pieces in small with one pulsing target
// whose click does what the step says, then calls ``finish``. Our own words, from the
// rulebook. The page shows them (../../js/howto.js).
import { svg } from "/static/js/common.js";
import { label, target, card, SEAT } from "/static/js/howto_kit.js";

export const steps = [
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
];
