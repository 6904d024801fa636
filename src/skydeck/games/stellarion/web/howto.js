// "How to play" Stellarion: the steps of its walk-through, each {title, text, tryIt,
// done, draw(pic, finish)}; ``draw`` draws the pieces in small with one pulsing target
// whose click does what the step says, then calls ``finish``. Our own words, from the
// rulebook. The page shows them (../../js/howto.js).
import { svg } from "/static/js/common.js";
import { target, card } from "/static/js/howto_kit.js";

const GALAXY = { alpha: "#2a2d3a", beta: "#6b3fa0", gamma: "#2f6fd0", delta: "#e0892a" };

export const steps = [
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
];
