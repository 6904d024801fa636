// The replay's analysis panel: the Analyse button, the progress while the server works,
// then each seat's summary, the graph of chances, the graded moves and the luck of the
// step shown (PROTOCOL.md, "Analysis"). The server stores the analysis with the match:
// a second visit shows it at once.
import { $, el, svg, api, seatColour, seatName } from "./common.js";

const GRADE_WORDS = { good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
const POLL_MS = 500;

let ctx = null; // { matchId, header, steps, goTo(step) }
let result = null;
let polling = null;

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
const signed = (x) => (x === null || x === undefined ? "–" : `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x * 100))}`);

/** Set the panel up for a match (called once its replay is loaded). */
export async function setupAnalysis(options) {
  const first = ctx === null;
  ctx = options;
  if (!first) return showStep(ctx.step());
  const button = $("#analyse");
  if (!ctx.finished) {
    button.disabled = true;
    say("A match is analysed once it is played to its end.");
    return;
  }
  button.onclick = () => start().catch((e) => say(`Cannot analyse: ${e.message}`));
  const got = await api(`/api/matches/${encodeURIComponent(ctx.matchId)}/analysis`);
  follow(got);
}

async function start() {
  $("#analyse").disabled = true;
  const got = await api(`/api/matches/${encodeURIComponent(ctx.matchId)}/analysis`, { method: "POST", body: {} });
  follow(got);
}

function follow(got) {
  const button = $("#analyse");
  const bar = $("#analysis-progress");
  if (got.status === "running") {
    button.disabled = true;
    bar.hidden = false;
    $("#analysis-bar").max = String(Math.max(got.total, 1));
    $("#analysis-bar").value = String(got.done);
    $("#analysis-count").textContent = got.total ? `${got.done} / ${got.total} positions weighed` : "reading the match…";
    say("Analysing: each seat's chances, from what it could see, move by move.");
    clearTimeout(polling);
    polling = setTimeout(() => {
      api(`/api/matches/${encodeURIComponent(ctx.matchId)}/analysis`).then(follow).catch((e) => say(e.message));
    }, POLL_MS);
    return;
  }
  bar.hidden = true;
  if (got.status === "done") {
    button.hidden = true;
    result = got.result;
    say("");
    drawSummary();
    drawGraph();
    drawMoves();
    showStep(ctx.step());
    return;
  }
  button.disabled = false;
  say(got.error ? `The last analysis did not finish (${got.error}).` : "");
}

function say(text) {
  const note = $("#analysis-note");
  note.textContent = text;
  note.hidden = !text;
}

function name(seat) {
  return seatName(ctx.header, seat);
}

function drawSummary() {
  const rows = result.seats.map((s) =>
    el("tr", { "data-seat": s.seat },
      el("th", { style: `color:${seatColour(s.seat)}` }, s.name || name(s.seat)),
      el("td", {}, s.accuracy === null ? "–" : String(s.accuracy)),
      el("td", {}, String(s.inaccuracies)),
      el("td", {}, String(s.mistakes)),
      el("td", {}, String(s.blunders)),
      el("td", {}, signed(s.luck))));
  $("#analysis-summary").replaceChildren(
    el("table", { class: "analysis-table" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { title: "0-100, from the drop of each move" }, "accuracy"),
        el("th", {}, "inacc."), el("th", {}, "mistakes"), el("th", {}, "blunders"), el("th", { title: "points of win chance the chance events gave" }, "luck"))),
      el("tbody", {}, rows)),
    el("p", { class: "muted" }, `${result.measure}. Budget: ${result.settings.playouts} playouts a decision.`));
}

function drawGraph() {
  const W = 300, H = 120, last = Math.max(ctx.steps - 1, 1);
  const x = (n) => (n / last) * W;
  const y = (p) => H - p * H;
  const parts = [
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "analysis-bg" }),
    svg("line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "analysis-mid" }),
  ];
  for (const s of result.seats) {
    // chances[i] = [step, chance]: the chance before the step's action, so at replay step `step`.
    const pts = s.chances.map(([n, p]) => `${x(n).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points: pts, fill: "none", stroke: seatColour(s.seat), "stroke-width": 2, "data-seat": s.seat }));
  }
  parts.push(svg("line", { id: "analysis-now", x1: 0, x2: 0, y1: 0, y2: H, class: "analysis-now" }));
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Win chances over the match", class: "analysis-graph" }, parts);
  graph.addEventListener("click", (e) => {
    const box = graph.getBoundingClientRect();
    ctx.goTo(Math.round(((e.clientX - box.left) / box.width) * last));
  });
  $("#analysis-graph").replaceChildren(graph);
}

function drawMoves() {
  const marked = result.decisions.filter((d) => d.grade && d.grade !== "good");
  const list = $("#analysis-moves");
  list.replaceChildren(...marked.map((d) =>
    el("li", { class: `graded grade-${d.grade}`, "data-step": d.step + 1, onclick: () => ctx.goTo(d.step + 1) },
      el("span", { class: "who" }, name(d.seat)), `: ${d.move} — `,
      el("b", {}, GRADE_WORDS[d.grade]), ` (${signed(-d.drop)})`,
      d.better ? el("span", { class: "ev" }, `better: ${d.better}`) : null)));
  if (!marked.length) list.replaceChildren(el("li", { class: "muted" }, "No move lost enough to be marked."));
}

/** What the analysis says of replay step `n` (the action that led to it). */
export function showStep(n) {
  if (!result) return;
  const W = 300, last = Math.max(ctx.steps - 1, 1);
  const now = $("#analysis-now");
  if (now) { now.setAttribute("x1", String((n / last) * W)); now.setAttribute("x2", String((n / last) * W)); }
  const box = $("#analysis-step");
  const out = [];
  const d = result.decisions.find((x) => x.step === n - 1);
  if (d && d.forced) out.push(el("p", { class: "muted" }, `${name(d.seat)} had one move only.`));
  else if (d) {
    out.push(el("p", { class: `graded grade-${d.grade}` },
      `${name(d.seat)}: `, el("b", {}, GRADE_WORDS[d.grade]),
      ` — chance ${pct(d.before)} before, ${pct(d.after)} after this move, ${pct(d.best)} after the best found.`));
    if (d.better) out.push(el("p", {}, `Better: ${d.better}`));
  }
  for (const e of result.chance_events.filter((x) => x.step === n - 1)) {
    const luck = Object.entries(e.luck).filter(([, v]) => v !== null).map(([k, v]) => `${name(Number(k))} ${signed(v)}`);
    if (luck.length) out.push(el("p", { class: "luck" }, `Luck: ${luck.join(", ")}`));
  }
  if (result.deal && (n === ctx.steps - 1 || (result.deal.lost_after && result.deal.lost_after.step === n - 1))) {
    const deal = result.deal;
    const words = { won: "The deal was winnable.", unwinnable: "No line wins this deal.", unknown: "The solver could not tell whether the deal was winnable." };
    out.push(el("p", { class: "deal" }, words[deal.winnable] || `Deal: ${deal.winnable}`));
    if (deal.lost_after) out.push(el("p", { class: "deal" }, `It could no longer be won after step ${deal.lost_after.step + 1}: ${name(deal.lost_after.seat)}, ${deal.lost_after.move}.`));
  }
  box.replaceChildren(...out);
}
