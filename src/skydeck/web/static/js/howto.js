// "How to play": a short interactive walk through a game, reachable from the match
// page (header button) and the lobby. Every step shows the game's pieces as the board
// draws them (same colours and shapes, in small) with one thing pulsing: clicking it
// does what the step describes (draw a body, launch a Voyage, fire a laser...), so the
// key actions are tried once before the first real move. The steps are the game's own
// (its ``web/howto.js``, as ``GET /api/games`` names it, drawn with ./howto_kit.js); a
// game without them offers no walk-through. "Rules in short" keeps the reminders.
import { el, svg, gameInfo, offeredGames, loadGameModule } from "./common.js";

const W = 420, H = 210;

let open = null; // {gameId, title, steps, step, box}

export function closeHowto() {
  if (!open) return;
  open.box.remove();
  open.opener?.focus?.();
  open = null;
}

function show(i) {
  const steps = open.steps;
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
      el("h2", {}, `How to play ${open.title}`),
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

/** Opens the walk-through of ``gameId`` (an overlay; Escape or ✕ closes it); false when
 *  the game has none. */
export async function openHowto(gameId) {
  const [info, mod] = await Promise.all([gameInfo(gameId), loadGameModule(gameId, "howto")]);
  const steps = mod.steps;
  if (!steps?.length) return false;
  closeHowto();
  const title = info?.title || gameId;
  const box = el("div", { class: "overlay howto", id: "howto", onclick: (ev) => { if (ev.target === box) closeHowto(); } },
    el("div", { class: "card howto-card", role: "dialog", "aria-modal": "true", "aria-label": `How to play ${title}` }));
  open = { gameId, title, steps, step: 0, box, opener: document.activeElement };
  document.body.append(box);
  show(0);
  box.querySelector("#howto-next")?.focus();
  return true;
}

document.addEventListener("keydown", (ev) => {
  if (!open) return;
  if (ev.key === "Escape") closeHowto();
  else if (ev.key === "ArrowRight" && open.step + 1 < open.steps.length) show(open.step + 1);
  else if (ev.key === "ArrowLeft" && open.step > 0) show(open.step - 1);
});

/** The lobby's row of "How to play" buttons, one per game that has a walk-through. */
export async function mountHowtoButtons(root) {
  if (!root) return;
  const games = (await offeredGames()).filter((g) => g.web?.howto);
  root.replaceChildren(el("span", { class: "muted" }, "New here? "),
    ...games.map((g) => el("button", { class: "secondary", type: "button", "data-howto": g.id, onclick: () => openHowto(g.id) }, `How to play ${g.title}`)));
}
