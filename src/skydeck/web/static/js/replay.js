// Replays: step through a match as one seat saw it (any seat once the match is over).
import { $, el, api, matchTokens, matchIdFromPath, seatName, loadGameModule } from "./common.js";
import { renderGeneric } from "./generic.js";
import { logDeed, logLine } from "./events.js";
import { rulesFor } from "./rules.js";
import { setupAnalysis, showStep as showAnalysis } from "./analysis.js";
import { mountZoom } from "./zoom.js";
import { mountFolds } from "./fold.js";

const matchId = matchIdFromPath();
const tokens = matchTokens(matchId);
let data = null;
let game = {};
let panel = {}; // the game's own panel module (web/panel.js), or none
let step = 0;
let timer = null;

async function fetchReplay(seat, status) {
  const base = `/api/matches/${encodeURIComponent(matchId)}/replay?seat=${encodeURIComponent(seat)}`;
  if (seat === "spectator" || seat === "everyone" || status !== "live") return api(base);
  let err = new Error("you hold no seat of this match in this browser");
  for (const t of tokens) {
    try { return await api(`${base}&token=${encodeURIComponent(t)}`); } catch (e) { err = e; }
  }
  throw err;
}

async function load(seat) {
  const info = await api(`/api/matches/${encodeURIComponent(matchId)}`);
  data = await fetchReplay(seat, info.status);
  [game, panel] = await Promise.all([loadGameModule(data.match.game), loadGameModule(data.match.game, "panel")]);
  const status = { live: "in progress", abandoned: "abandoned (nobody moved for too long)" }[data.match.status] ?? "finished";
  $("#title").textContent = `${data.match.title} · ${status}`;
  rulesFor(data.match.game).then((r) => { $("#rules").innerHTML = r.html; });
  const slider = $("#slider");
  slider.max = String(data.steps.length - 1);
  fillSeats(info);
  show(Math.min(step, data.steps.length - 1));
  setupAnalysis({
    matchId, header: data.match, steps: data.steps.length, finished: info.status === "over",
    step: () => step, goTo: (n) => show(n),
  }).catch((e) => showError(`Cannot read the analysis: ${e.message}`));
}

function fillSeats(info) {
  const sel = $("#seat");
  if (sel.options.length) return;
  sel.append(el("option", { value: "spectator" }, "a spectator"));
  info.seats.forEach((s, i) => sel.append(el("option", { value: String(i) }, s.name)));
  if (info.status !== "live") sel.append(el("option", { value: "everyone" }, "everyone (every seat)"));
  sel.value = data.seat === null ? "spectator" : String(data.seat);
}

function show(i) {
  step = Math.max(0, Math.min(i, data.steps.length - 1));
  const s = data.steps[step];
  $("#slider").value = String(step);
  $("#stepinfo").textContent = `step ${step} / ${data.steps.length - 1}`;
  const names = data.match.seats.map((x) => x.name);
  const board = $("#board");
  const draw = (target, view, seat) => {
    const ctx = { seat, held: seat === null ? [] : [seat], header: data.match, toMove: s.to_move || [], legal: [], act: () => {}, names, live: false, replay: true };
    let drawn = false;
    if (game.render) {
      try { drawn = game.render(target, view, ctx) !== false; } catch (err) { console.error(err); }
    }
    if (!drawn) renderGeneric(target, view, names);
  };
  if (s.views) {
    // Everyone: each seat's view, one after the other.
    board.replaceChildren();
    for (const [seat, view] of Object.entries(s.views)) {
      const part = el("div", { class: "seat-view" });
      board.append(el("h3", {}, `Seen by ${seatName(data.match, Number(seat))}`), part);
      draw(part, view, Number(seat));
    }
  } else {
    draw(board, s.view, data.seat);
  }
  mountZoom(board);
  const turn = $("#turn");
  // the step's move once, as the log tells it; below it what followed
  const told = step === 0 ? null : logDeed(s, data.match, game);
  turn.textContent = told ? `${told.mover}: ${told.what}` : "The start of the match.";
  const box = $("#step");
  const after = told ? told.after : [];
  box.replaceChildren(...(after.length ? after.map((t) => el("p", {}, t)) : [el("p", { class: "muted" }, step === 0 ? "Set-up." : "Nothing else visible happened.")]));
  const log = $("#log");
  log.replaceChildren();
  // the same lines as the match page's log: each move told once, as a sentence
  for (const x of data.steps.slice(1, step + 1)) log.append(logLine(x, data.match, game));
  log.scrollTop = log.scrollHeight;
  if (step === data.steps.length - 1 && data.scores) {
    box.append(el("p", {}, "Final scores: ", data.scores.map((sc, k) => `${seatName(data.match, k)} ${keptScore(s, k) ?? sc}`).join(", ")));
  }
  showAnalysis(step);
}

/** A game that keeps its own score (Stellarion's Voyages taken, also after a loss) says
 * it here as its panels and the end dialog do, not the engine's 1 or 0. */
function keptScore(s, seat) {
  const view = s.view ?? (s.views ? Object.values(s.views)[0] : null);
  if (!panel.keepsScore || !panel.seatPanel || !view) return null;
  try { return panel.seatPanel(view, seat)?.score ?? null; } catch (err) { console.error(err); return null; }
}

function play() {
  if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "▶"; return; }
  $("#play").textContent = "❚❚";
  timer = setInterval(() => {
    if (step >= data.steps.length - 1) return play();
    show(step + 1);
  }, 700);
}

window.addEventListener("resize", () => mountZoom($("#board")));
mountFolds($("#folds"), [{ name: "log", what: "the log", controls: "log-box" }]);
$("#first").onclick = () => show(0);
$("#prev").onclick = () => show(step - 1);
$("#next").onclick = () => show(step + 1);
$("#last").onclick = () => show(data.steps.length - 1);
$("#play").onclick = play;
$("#slider").oninput = (e) => show(Number(e.target.value));
$("#seat").onchange = (e) => load(e.target.value).catch((err) => showError(err.message));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(step + 1);
  if (e.key === "ArrowLeft") show(step - 1);
});

function showError(text) {
  const b = $("#error");
  b.textContent = text;
  b.hidden = !text;
}

const wanted = new URLSearchParams(location.search).get("seat") || "spectator";
load(wanted).catch((e) => showError(`Cannot replay: ${e.message}`));
