// The match page: one WebSocket to the server, which is authoritative. We draw what
// we are sent (our seats' views, or the public view) and send the moves clicked.
import { $, el, matchTokens, matchIdFromPath, seatName, seatColour, gameInfo, loadGameModule, capital, countdown } from "./common.js";
import { renderGeneric, renderActions } from "./generic.js";
import { logLine } from "./events.js";
import { rulesFor } from "./rules.js";
import { Selection } from "./select.js";
import { drawPanels, clockFor, clockLabel } from "./panels.js";
import { openHowto } from "./howto.js";
import { asMe, current, loadMe, mountAccount } from "./account.js";
import { mountZoom } from "./zoom.js";
import { mountFolds } from "./fold.js";

const matchId = matchIdFromPath();
// ?watch=1: a spectator, even in a browser that holds seats of this match.
const tokens = new URLSearchParams(location.search).has("watch") ? [] : matchTokens(matchId);
let ws = null;
let header = null;
let held = [];
let game = {};
let panel = {}; // the game's own panel module (web/panel.js), or none
let last = null; // the last state message
let activeSeat = null;
let pending = false;
let clockOffset = 0;
let clockTotals = new Map();
let retry = 500;
let fatal = false;
let endShown = false;
let queue = Promise.resolve();
const selection = new Selection();

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/matches/${encodeURIComponent(matchId)}`);
  ws.onopen = () => {
    retry = 500;
    ws.send(JSON.stringify({ type: "hello", tokens, patches: 2 }));
  };
  // Messages are handled strictly in order, even though loading a game module waits.
  ws.onmessage = (ev) => { queue = queue.then(() => handle(JSON.parse(ev.data))).catch(console.error); };
  ws.onclose = (ev) => {
    $("#conn").classList.remove("on");
    pending = false;
    if (fatal || ev.code === 4403 || ev.code === 4404) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// A refusal stays on screen until our own next move goes through (or a click on it):
// another player's update arriving right after it must not wipe it before it is read.
function showError(text) {
  const box = $("#error");
  box.textContent = text;
  box.hidden = !text;
}
$("#error").addEventListener("click", () => { if (!fatal) showError(""); });

async function handle(msg) {
  if (msg.type === "welcome") {
    header = msg.match;
    held = msg.seats;
    known = { views: {}, public: null }; // a new connection starts from full views
    if (activeSeat === null || !held.includes(activeSeat)) activeSeat = held.length ? held[0] : null;
    [game, panel] = await Promise.all([loadGameModule(header.game), loadGameModule(header.game, "panel")]);
    $("#howto-open").hidden = !(await gameInfo(header.game))?.web?.howto; // a game without a walk-through
    $("#conn").classList.add("on");
    $("#title").textContent = `${header.title} · ${held.length ? "playing " + held.map((s) => seatName(header, s)).join(" + ") : "watching"}`;
    document.title = `Skydeck · ${header.title}`;
    rulesFor(header.game).then((r) => { $("#rules").innerHTML = r.html; });
    $("#log").replaceChildren();
    return;
  }
  if (msg.type === "error") {
    if (["bad_token", "no_match", "sign_in"].includes(msg.code)) fatal = true;
    pending = false;
    showError(`${msg.message}`);
    if (last) draw();
    else $("#board").textContent = msg.message;
    return;
  }
  if (msg.type === "state") {
    if (!header) return;
    if (pending) showError("");
    pending = false;
    clockOffset = msg.now - Date.now() / 1000;
    absorbViews(msg);
    if (!last || last.n !== msg.n) selection.clear();
    last = msg;
    if (held.length > 1) {
      const toMove = held.filter((s) => msg.to_move.includes(s));
      if (toMove.length && !toMove.includes(activeSeat)) activeSeat = toMove[0];
    }
    appendLog(msg);
    draw();
  }
}

// Views come whole on (re)connection, then as changes: of their keys (set, del), and
// inside an object that changed (sub: the same shape again, one level down).
let known = { views: {}, public: null };

function patched(base, patch) {
  const out = { ...base, ...patch.set };
  for (const k of patch.del) delete out[k];
  for (const [k, inner] of Object.entries(patch.sub || {})) out[k] = patched(out[k] || {}, inner);
  return out;
}

function absorbViews(msg) {
  for (const [seat, view] of Object.entries(msg.views || {})) known.views[seat] = view;
  for (const [seat, patch] of Object.entries(msg.view_patches || {})) known.views[seat] = patched(known.views[seat] || {}, patch);
  if (msg.public) known.public = msg.public;
  if (msg.public_patch) known.public = patched(known.public || {}, msg.public_patch);
  msg.views = { ...known.views };
  msg.public = known.public;
}

function appendLog(msg) {
  const list = $("#log");
  if (msg.log_reset) list.replaceChildren();
  const viewer = new Set(held);
  for (const entry of msg.log) list.append(logLine(entry, header, game, viewer));
  list.scrollTop = list.scrollHeight;
}

function send(entry, seat = activeSeat) {
  if (pending || !last || seat === null) return;
  pending = true;
  ws.send(JSON.stringify({ type: "act", seat, action: entry.action, n: last.n }));
  draw();
}

/** A note to the server that is not a move (Stellar Conflict: where the card being
 * played is held); never waits for an answer. */
function report(type, body, seat = activeSeat) {
  if (!last || seat === null || !ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify({ type, seat, n: last.n, ...body }));
}

function drawTurn() {
  const box = $("#turn");
  box.replaceChildren();
  if (last.status === "abandoned") {
    box.append("The match was abandoned: nobody moved for too long.");
    return;
  }
  if (last.status !== "live") {
    box.append("The match is over.");
    return;
  }
  const names = last.to_move.map((s) => {
    const mine = held.includes(s);
    return el("span", { class: mine ? "you" : "", style: `color:${seatColour(s)}` }, mine ? `${seatName(header, s)} (you)` : seatName(header, s));
  });
  const mineToMove = last.to_move.some((s) => held.includes(s));
  box.append(mineToMove ? "Your move — " : "Waiting for ", ...names.flatMap((n, i) => (i ? [", ", n] : [n])));
}

function drawTabs() {
  const tabs = $("#seat-tabs");
  tabs.replaceChildren();
  if (held.length < 2) return;
  for (const s of held) {
    const toMove = last.to_move.includes(s);
    tabs.append(el("button", { class: s === activeSeat ? "active" : "", onclick: () => { activeSeat = s; selection.clear(); draw(); } },
      el("span", { class: "seat-dot", style: `background:${seatColour(s)}` }), ` ${seatName(header, s)}${toMove ? " ●" : ""}`));
  }
}

/** Whether a clock is drawn elsewhere: on the board (the game's boardClocks) or in its
 * seat's panel while the panels are open. Each clock is drawn once (issue 49). */
function drawnElsewhere(d) {
  if ((game.boardClocks || []).includes(d.kind)) return true;
  return !document.body.classList.contains("panels-folded") && clockFor(last.deadlines, d.seat, game) === d;
}

/** The clocks drawn nowhere else, each as a bar. */
function drawClocks() {
  const box = $("#clocks");
  box.replaceChildren();
  const now = Date.now() / 1000 + clockOffset;
  for (const d of last.deadlines || []) {
    if (drawnElsewhere(d)) continue;
    const key = `${d.seat}:${d.kind}:${d.due}`;
    const label = clockLabel(d.kind);
    const who = d.kind === "deployment" ? "Everyone" : seatName(header, d.seat);
    if (d.start && d.start > now) {
      // The server waits for that player to open the match before the clock runs.
      box.append(el("div", { class: "clock waiting", "data-seat": d.seat },
        el("span", { class: "seat-dot", style: `background:${seatColour(d.seat)}` }),
        el("span", {}, `${who} · ${label} · starts when they connect`),
        el("span", { class: "secs" }, `≤ ${Math.ceil(d.start - now)} s`)));
      continue;
    }
    const left = Math.max(0, d.due - now);
    if (!clockTotals.has(key)) clockTotals.set(key, Math.max(left, 1));
    const pct = (100 * left) / clockTotals.get(key);
    box.append(el("div", { class: left < 5 ? "clock low" : "clock", "data-seat": d.seat },
      el("span", { class: "seat-dot", style: `background:${seatColour(d.seat)}` }),
      el("span", {}, `${who} · ${label}`),
      el("span", { class: "bar" }, el("span", { style: `width:${pct.toFixed(1)}%` })),
      el("span", { class: "secs" }, countdown(left))));
  }
}

/** A table the player works on (Stellar Conflict's, or any drawing marked fit-window)
 * is never taller than what the window shows below its top: at 1400x900 the whole table
 * is in sight while deploying, without scrolling. */
function fitWindow(board) {
  for (const table of board.querySelectorAll("svg.fit-window, svg.cf-table")) {
    if (table.classList.contains("zoomable")) continue; // a phone's window (zoom.js) sizes it
    const top = table.getBoundingClientRect().top + window.scrollY;
    table.style.maxHeight = `${Math.max(320, window.innerHeight - top - 12)}px`;
  }
}
window.addEventListener("resize", () => { fitWindow($("#board")); mountZoom($("#board")); });

function currentView() {
  if (!held.length) return last.public;
  return last.views[String(activeSeat)];
}

function draw() {
  if (!last) return;
  const ended = { live: "", abandoned: " · abandoned" }[last.status] ?? " · over";
  $("#status").textContent = `move ${last.n}${ended}`;
  drawTurn();
  drawTabs();
  drawClocks();
  drawPanels($("#panels"), { header, view: currentView(), msg: last, held, activeSeat, clockOffset, game, panel });
  const legalInfo = held.length ? last.legal[String(activeSeat)] : { actions: [], truncated: false };
  const legal = legalInfo.actions;
  const shown = selection.filter(legal);
  const hot = pending ? new Set() : selection.hot(legal);
  const ctx = {
    seat: activeSeat, held, header, toMove: last.to_move, legal, pending,
    act: (entry) => send(entry), report: (type, body) => report(type, body),
    names: header.seats.map((s) => s.name), live: last.status === "live",
    deadlines: last.deadlines, clockOffset,
    selected: new Set(selection.tokens),
    hot: (token) => hot.has(String(token)),
    toggle: (token) => { if (selection.toggle(String(token), legal)) draw(); },
    redraw: () => draw(),
  };
  const board = $("#board");
  let drawn = false;
  if (game.render) {
    try { drawn = game.render(board, currentView(), ctx) !== false; } catch (err) { console.error(err); drawn = false; }
  }
  fitWindow(board);
  if (!drawn) renderGeneric(board, currentView(), ctx.names);
  mountZoom(board);
  // Moves on the board come first; the list below repeats them for keyboards and screen readers.
  const onBoard = drawn && legal.length > 0 && board.querySelector(".hot, .cf-can-drag, [data-board-move]") !== null;
  $("#board-first").hidden = !onBoard;
  $(".actions-panel").classList.toggle("secondary-list", onBoard);
  $("#actions-title").textContent = held.length ? (held.length > 1 ? `Moves of ${seatName(header, activeSeat)}` : "Your moves") : "Moves";
  const actions = $("#actions");
  if (!held.length) actions.replaceChildren(el("p", { class: "waiting" }, "You are watching this match."));
  else if (!legal.length) actions.replaceChildren(el("p", { class: "waiting" }, last.status === "live" ? "Nothing to do until the others have moved." : "No more moves."));
  else {
    const hidden = new Set(game.hiddenKinds || []);
    const listed = shown.filter((a) => !hidden.has(a.action.kind));
    renderActions(actions, listed, (a) => send(a), { disabled: pending, truncated: legalInfo.truncated });
    if (listed.length < shown.length && game.hiddenNote) actions.prepend(el("p", { class: "muted", id: "board-hint" }, game.hiddenNote));
    if (selection.tokens.length) {
      const bar = el("div", { class: "selection" }, el("span", {}, `Chosen: ${selection.tokens.join(" + ")}`),
        el("button", { class: "secondary", onclick: () => { selection.clear(); draw(); } }, "clear"));
      if (shown.length === 1) bar.append(el("button", { class: "primary", id: "confirm", onclick: () => send(shown[0]) }, `Confirm: ${shown[0].label}`));
      actions.prepend(bar);
    }
  }
  const undo = $("#undo");
  undo.hidden = !last.can_undo;
  undo.disabled = pending;
  // A game still playing out what happened (Stellar Conflict's battle steps) ends first.
  if (last.status !== "live" && !endShown && !game.busy?.()) showEnd();
}

/** "You won!", "Player 2 won"; with no winner, a solo or cooperative game is lost by its
 * players (nobody else could have won it), a competitive one won by nobody. */
function endHeadline(winners) {
  if (winners.size) {
    return held.length && held.every((s) => winners.has(s)) ? "You won!" : `${[...winners].map((s) => seatName(header, s)).join(" & ")} won`;
  }
  if (header.seats.length === 1 || game.cooperative) {
    if (held.length) return "You lost";
    return header.seats.length === 1 ? `${seatName(header, 0)} lost` : "The players lost";
  }
  return "Nobody won";
}

/** An abandoned match ends with nobody winning: no move came for the server's idle
 * time. Its record and replay stay. */
function showAbandoned(box) {
  const onTime = Boolean(header.settings?.move_seconds);
  box.replaceChildren(el("div", { class: "card", role: "dialog", "aria-label": onTime ? "the match ended on time" : "the match was abandoned" },
    el("h2", {}, onTime ? "Time ran out" : "Match abandoned"),
    el("p", { class: "end-why" }, onTime ? lostOnTime() : "Nobody moved for too long, so the server ended the match. Nobody won; its replay stays."),
    el("div", { class: "buttons" },
      el("button", { class: "secondary", onclick: () => { box.hidden = true; } }, "Look at the board"),
      el("a", { href: `/r/${matchId}` }, el("button", {}, "Replay")),
      el("a", { href: "/" }, el("button", { class: "primary" }, "New match")))));
  box.hidden = false;
}

/** A correspondence match whose move clock ran out: the seats that owed the move lose
 * on time (a co-operative table loses together), as PROTOCOL.md's rules of rated play say. */
function lostOnTime() {
  const owed = last.owed || [];
  const names = owed.map((s) => seatName(header, s)).join(" and ");
  const clock = describeSeconds(header.settings.move_seconds);
  if (!owed.length) return `The move clock (${clock} a move) ran out. Its replay stays.`;
  if (game.cooperative || header.seats.length === 1) return `${names} did not move within the move clock (${clock} a move): the table lost on time. Its replay stays.`;
  return `${names} did not move within the move clock (${clock} a move) and ${owed.length > 1 ? "lose" : "loses"} on time. Its replay stays.`;
}

function describeSeconds(s) {
  if (s % 86400 === 0) return s === 86400 ? "1 day" : `${s / 86400} days`;
  if (s % 3600 === 0) return s === 3600 ? "1 hour" : `${s / 3600} hours`;
  return `${s} s`;
}

function showEnd() {
  endShown = true;
  const box = $("#end");
  if (last.status === "abandoned") return showAbandoned(box);
  // A game that keeps its own score (Stellarion's Voyages taken, also after a loss)
  // shows it here as in its panels, not the engine's 1 or 0.
  const kept = (s) => {
    if (!panel.keepsScore || !panel.seatPanel || !currentView()) return null;
    try { return panel.seatPanel(currentView(), s)?.score ?? null; } catch (err) { console.error(err); return null; }
  };
  const scores = last.scores || [];
  const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a]);
  const winners = new Set(last.winners || []);
  // Why it ended: the last sentence of the log ("Player 1 can neither Launch nor ...").
  const why = [...document.querySelectorAll("#log li .ev")].at(-1)?.textContent || "";
  box.replaceChildren(el("div", { class: "card", role: "dialog", "aria-label": "end of the match" },
    el("h2", {}, endHeadline(winners)),
    why ? el("p", { class: "end-why" }, why) : null,
    el("table", {}, order.map((s) => el("tr", { class: winners.has(s) ? "win" : "" },
      el("td", {}, winners.has(s) ? "★" : ""), el("td", {}, seatName(header, s)), el("td", {}, String(kept(s) ?? scores[s]))))),
    el("div", { class: "buttons" },
      el("button", { class: "secondary", onclick: () => { box.hidden = true; } }, "Look at the board"),
      el("a", { href: `/r/${matchId}` }, el("button", {}, "Replay")),
      current() && held.length ? el("button", { id: "rematch", onclick: () => rematch(box) }, "Rematch") : null,
      el("a", { href: "/" }, el("button", { class: "primary" }, "New match"))),
    el("p", { class: "error", id: "rematch-error", hidden: true })));
  box.hidden = false;
}

/** The same people again, seats moved on by one (whoever asks first makes it; the
 *  others asking are sent to it). */
async function rematch(box) {
  const err = box.querySelector("#rematch-error");
  try {
    location.assign((await asMe(`/api/matches/${matchId}/rematch`, { method: "POST" })).link);
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

$("#undo").addEventListener("click", () => {
  if (pending || !last) return;
  pending = true;
  ws.send(JSON.stringify({ type: "undo", n: last.n }));
});

$("#howto-open").addEventListener("click", () => { if (header) openHowto(header.game); });

mountFolds($("#folds"), [
  { name: "panels", what: "the players", controls: "panels" },
  { name: "log", what: "the log", controls: "log-box" },
], () => { if (last) drawClocks(); });
setInterval(() => { if (last && (last.deadlines || []).length) drawClocks(); }, 250);
connect();
// Signing in here claims this browser's seats (this match's too) and reopens the page.
loadMe().then(() => mountAccount($("#account"), () => location.reload())).catch(console.error);
