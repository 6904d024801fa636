// The lobby: choose a game, its options and seats (human or AI), create the match,
// hand out invite links; lists recent matches.
import { $, el, api, words, capital, seatColour } from "./common.js";
import { rulesFor } from "./rules.js";
import { asMe, current, loadMe, mountAccount } from "./account.js";

let games = [];
let chosen = null;

const perSeat = (spec) => String(spec.kind) === "list" && spec.default === null && /(per|each) seat/.test(spec.help || "") && Array.isArray(spec.choices);

function perSeatSelects(spec, players) {
  const box = document.getElementById(`opt-${spec.name}`);
  if (!box) return;
  const old = [...box.querySelectorAll("select")].map((x) => x.value);
  box.replaceChildren();
  for (let i = 0; i < players; i++) {
    const sel = el("select", { "aria-label": `${spec.name} of Player ${i + 1}` }, el("option", { value: "" }, `Player ${i + 1}: default`),
      spec.choices.map((c) => el("option", { value: c }, `Player ${i + 1}: ${words(c)}`)));
    sel.value = old[i] || "";
    box.append(sel, " ");
  }
}

function optionInput(spec) {
  const id = `opt-${spec.name}`;
  const kind = String(spec.kind || "").toLowerCase();
  if (perSeat(spec)) return el("div", { id, "data-kind": "perseat" });
  if (kind === "int" && Array.isArray(spec.choices) && spec.choices.length === 2 && spec.choices.every(Number.isInteger)) {
    return el("input", { id, type: "number", "data-kind": "number", value: spec.default ?? "", min: spec.choices[0], max: spec.choices[1], step: 1 });
  }
  const multi = Array.isArray(spec.choices) && (Array.isArray(spec.default) || /list|set|subset|multi/.test(kind));
  if (multi) {
    const box = el("div", { class: "checks", id, "data-kind": "multi" });
    for (const c of spec.choices) {
      const on = (spec.default || []).includes(c);
      box.append(el("label", {}, el("input", { type: "checkbox", value: c, checked: on }), " ", words(c)));
    }
    return box;
  }
  if (Array.isArray(spec.choices)) {
    // No default among the choices: an empty first choice leaves the option unsent, so
    // the game picks its own default.
    const none = spec.default === null || spec.default === undefined;
    return el("select", { id, "data-kind": "choice" },
      none ? el("option", { value: "", selected: true }, "default") : null,
      spec.choices.map((c) =>
        el("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(spec.default) }, words(c))));
  }
  if (kind === "bool" || typeof spec.default === "boolean") {
    // The box and its explanation side by side, at the start of the cell.
    return el("label", { class: "check" }, el("input", { id, type: "checkbox", "data-kind": "bool", checked: !!spec.default }), " ", spec.help || "");
  }
  if (kind === "int" || kind === "float" || typeof spec.default === "number") {
    return el("input", { id, type: "number", "data-kind": "number", value: spec.default ?? "", step: kind === "float" ? "any" : "1", placeholder: spec.default === null ? "default" : "" });
  }
  return el("input", { id, type: "text", "data-kind": "json", value: spec.default === null || spec.default === undefined ? "" : (typeof spec.default === "string" ? spec.default : JSON.stringify(spec.default)) });
}

function readOption(spec) {
  const node = $(`#opt-${spec.name}`);
  switch (node.dataset.kind) {
    case "perseat": {
      const picked = [...node.querySelectorAll("select")].map((x) => x.value);
      if (picked.every((x) => x === "")) return undefined;
      // Seats left on "default" get the first choices nobody picked, in box order.
      const spare = spec.choices.filter((c) => !picked.includes(c));
      return picked.map((x) => x || spare.shift());
    }
    case "multi": return [...node.querySelectorAll("input:checked")].map((i) => i.value);
    case "choice": return node.value === "" ? undefined : JSON.parse(node.value);
    case "bool": return node.checked;
    case "number": return node.value === "" ? undefined : Number(node.value);
    default: {
      if (node.value === "") return undefined;
      try { return JSON.parse(node.value); } catch { return node.value; }
    }
  }
}

function seatRows(n) {
  const box = $("#seats");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({ kind: r.querySelector("select").value, name: r.querySelector("input").value }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const agents = chosen.agents || ["random"];
    const bestAI = `ai:${["heuristic", "mcts:easy", "random"].find((a) => agents.includes(a)) || agents[0]}`;
    const prev = old[i] || { kind: i === 0 ? (current() ? "me" : "human") : bestAI, name: "" };
    const sel = el("select", { "aria-label": `Player ${i + 1} is played by`, class: "seat-kind" },
      current() ? el("option", { value: "me" }, `You (${current().name})`) : null,
      el("option", { value: "human" }, "Human"),
      (chosen.agents || ["random"]).map((a) => el("option", { value: `ai:${a}`, title: levelOf(a)?.summary || "" }, levelLabel(a))));
    sel.value = [...sel.options].some((o) => o.value === prev.kind) ? prev.kind : "human";
    const note = el("span", { class: "seat-level", id: `seat-level-${i}` });
    const describe = () => { note.textContent = levelNote(sel.value); };
    sel.addEventListener("change", describe);
    describe();
    box.append(el("div", { class: "seat-row" },
      el("span", { class: "seat-dot", style: `background:${seatColour(i)}` }), `Player ${i + 1}`, sel,
      el("input", { type: "text", placeholder: "name (optional)", value: prev.name, maxlength: 40, "aria-label": `Player ${i + 1} name` }),
      note));
  }
}

// What an AI level is (issue 51): the server's `levels` give each offered agent its bot
// account's name, how it plays, and its rating in this game once it has played rated.
function levelOf(spec) {
  return (chosen.levels || []).find((l) => l.spec === spec);
}

function ratingText(rating) {
  if (!rating) return "";
  return rating.provisional ? `rated ${rating.rating}, provisional (${rating.games} games)` : `rated ${rating.rating}`;
}

function levelLabel(spec) {
  const level = levelOf(spec);
  if (!level) return `AI: ${spec}`;
  return level.rating ? `${level.name} (${level.rating.rating}${level.rating.provisional ? "?" : ""})` : level.name;
}

function levelNote(kind) {
  if (!kind.startsWith("ai:")) return "";
  const level = levelOf(kind.slice(3));
  if (!level) return "";
  const rated = ratingText(level.rating);
  return rated ? `${level.summary}; ${rated}` : `${level.summary}; not rated yet`;
}

function showSetup(game) {
  chosen = game;
  document.querySelectorAll(".game-card").forEach((c) => c.classList.toggle("chosen", c.dataset.game === game.id));
  const setup = $("#setup");
  setup.hidden = false;
  $("#created").hidden = true;
  const grid = el("div", { class: "form-grid" });
  const changed = () => {
    const n = Number(players.value);
    seatRows(n);
    game.options.filter(perSeat).forEach((o) => perSeatSelects(o, n));
    // Options for other player counts (the solo game's) are hidden and not sent.
    grid.querySelectorAll("[data-players]").forEach((node) => { node.hidden = !node.dataset.players.split(",").map(Number).includes(n); });
  };
  const players = el("select", { id: "players", onchange: changed },
    sortedCounts(game).map((p) => el("option", { value: p, selected: p === game.players[0] }, String(p))));
  grid.append(el("label", { for: "players" }, "Players"), players);
  for (const spec of game.options) {
    const only = applies(spec) ? spec.players.join(",") : undefined;
    grid.append(el("label", { for: `opt-${spec.name}`, "data-players": only }, capital(words(spec.name))),
      el("div", { class: "opt", "data-players": only }, optionInput(spec)));
    if (spec.help && !isBool(spec)) grid.append(el("div", { class: "help", "data-players": only }, spec.help));
  }
  grid.append(el("label", { for: "clock" }, "Move clock"),
    el("select", { id: "clock" }, [["", "none"], ["30", "30 s"], ["60", "1 min"], ["120", "2 min"], ["300", "5 min"],
      ["3600", "1 hour (correspondence)"], ["28800", "8 hours (correspondence)"], ["86400", "1 day (correspondence)"], ["259200", "3 days (correspondence)"]].map(([v, t]) => el("option", { value: v }, t))));
  grid.append(el("label", { for: "seed" }, "Seed"), el("input", { id: "seed", type: "number", min: 0, placeholder: "random" }));
  if (current() && game.ratable) { // co-operative games are never rated (GET /api/games says which)
    grid.append(el("label", { for: "rated" }, "Rated"), el("label", { class: "check" }, el("input", { id: "rated", type: "checkbox" }),
      " ratings change at the end (every seat signed in or an AI level)"));
  }
  grid.append(el("label", { for: "private" }, "Private"), el("label", { class: "check" }, el("input", { id: "private", type: "checkbox" }),
    " not listed in the lobby: only its invite links let people in"));
  grid.append(el("label", { for: "hotseat" }, "Hotseat"), el("label", {}, el("input", { id: "hotseat", type: "checkbox" }), " all human seats play in this browser"));
  setup.replaceChildren(
    el("h2", {}, `New ${game.title} match`),
    el("details", {}, el("summary", {}, "Rules in short"), el("div", { html: "" })),
    grid, el("h3", {}, "Seats"), el("div", { id: "seats" }),
    el("p", {}, el("button", { class: "primary", id: "create", onclick: create }, "Create match"), " ",
      el("button", { class: "primary", id: "play-now", onclick: playNow,
        title: "meet someone near your rating (signed in; the players and options above)" }, "Play now"), " ",
      el("button", { class: "secondary", id: "open-table", onclick: openTable,
        title: "a table in the lobby's list (or private: its link) whose match starts when its seats are taken" }, "Open a table")),
    el("div", { id: "setup-error", class: "error", hidden: true }),
  );
  const rulesBox = setup.querySelector("details div");
  rulesFor(game.id).then((r) => { rulesBox.innerHTML = r.html; });
  changed();
}

const applies = (spec) => Array.isArray(spec.players);
const isBool = (spec) => String(spec.kind || "").toLowerCase() === "bool" || typeof spec.default === "boolean";
const sortedCounts = (game) => [...game.players].sort((a, b) => a - b);

/** "1-4 players", "2 players", "1 / 3 players". */
function playersText(game) {
  const n = sortedCounts(game);
  const run = n.every((x, i) => i === 0 || x === n[i - 1] + 1);
  const text = n.length > 1 && run ? `${n[0]}–${n[n.length - 1]}` : n.join(" / ");
  return `${text} player${n.length > 1 || n[0] > 1 ? "s" : ""}`;
}

/** The chosen player count and options, as the form says. */
function readOptions() {
  const options = { players: Number($("#players").value) };
  for (const spec of chosen.options) {
    if (applies(spec) && !spec.players.includes(options.players)) continue;
    const v = readOption(spec);
    if (v !== undefined) options[spec.name] = v;
  }
  return options;
}

async function create() {
  const err = $("#setup-error");
  err.hidden = true;
  const options = readOptions();
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((r) => {
    const kind = r.querySelector("select").value;
    const name = r.querySelector("input").value.trim() || undefined;
    if (kind === "me") return { kind: "human", me: true };
    return kind === "human" ? { kind, name } : { kind: "ai", agent: kind.slice(3), name };
  });
  const body = { game: chosen.id, options, seats, hotseat: $("#hotseat").checked };
  if ($("#rated")?.checked) body.rated = true;
  if ($("#private").checked) body.private = true;
  if ($("#clock").value) body.move_seconds = Number($("#clock").value);
  if ($("#seed").value !== "") body.seed = Number($("#seed").value);
  try {
    const m = current() ? await asMe("/api/matches", { method: "POST", body }) : await api("/api/matches", { method: "POST", body });
    const humans = Object.keys(m.links);
    if (humans.length === 0) return location.assign(m.watch_link);
    if (humans.length === 1) return location.assign(m.links[humans[0]]);
    if (body.hotseat) return location.assign(m.hotseat_link);
    showCreated(m);
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

function showCreated(m) {
  const box = $("#created");
  box.hidden = false;
  const abs = (p) => new URL(p, location.href).href;
  box.replaceChildren(
    el("h2", {}, "Match created"),
    el("p", {}, "Each link opens one seat. Keep yours, send the others to the other players (the links are secret)."),
    el("ul", { class: "links" }, Object.entries(m.links).map(([seat, link]) =>
      el("li", {}, el("span", { class: "seat-dot", style: `background:${seatColour(Number(seat))}` }), ` ${m.seats[seat].name}: `,
        el("a", { href: link, "data-seat": seat }, "play this seat"), " ",
        el("button", { class: "secondary", onclick: () => navigator.clipboard?.writeText(abs(link)) }, "copy link"), " ",
        el("code", {}, abs(link))))),
    el("p", {}, el("a", { href: m.hotseat_link }, "Play all human seats here (hotseat)"), " · ", el("a", { href: m.watch_link }, "Watch as a spectator")),
  );
  box.scrollIntoView({ behavior: "smooth" });
}

// --- Play now: a place in the queue, polled until a match is made -------------------
let polling = null;

async function playNow() {
  const err = $("#setup-error");
  err.hidden = true;
  const options = readOptions();
  const { players } = options;
  delete options.players;
  try {
    showQueue(await asMe("/api/queue", { method: "POST", body: { game: chosen.id, players, options } }));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

/** The waiting state (or the match made: go to it). */
function showQueue(st) {
  const box = $("#queue");
  clearTimeout(polling);
  if (st.status === "matched") return location.assign(st.link);
  if (st.status !== "waiting") { box.hidden = true; return; }
  box.hidden = false;
  const title = games.find((g) => g.id === st.game)?.title || st.game;
  const bot = st.bot ? el("button", { class: "secondary", id: "queue-bot", onclick: takeBot },
    `Play ${st.bot.name} (${st.bot.rating}) instead`) : null;
  box.replaceChildren(
    el("h2", {}, "Play now"),
    el("p", { id: "queue-state", role: "status" }, `Looking for ${st.players - 1 > 1 ? `${st.players - 1} opponents` : "an opponent"} for ${title}`,
      st.rated ? ` within ${Math.round(st.window)} of your rating ${st.rating}` : "", ` · waited ${Math.round(st.waited)} s`),
    el("p", {}, el("button", { class: "secondary", id: "queue-leave", onclick: leaveQueue }, "Cancel"), " ", bot,
      st.bot ? null : el("span", { class: "muted" }, ` · an AI is offered after ${Math.round(st.bot_after)} s`)),
    el("div", { id: "queue-error", class: "error", hidden: true }),
  );
  polling = setTimeout(() => asMe("/api/queue").then(showQueue).catch(queueError), 2000);
}

function queueError(e) {
  const err = $("#queue-error");
  if (err) { err.textContent = e.message; err.hidden = false; }
}

async function takeBot() {
  try { showQueue(await asMe("/api/queue/bot", { method: "POST" })); } catch (e) { queueError(e); }
}

async function leaveQueue() {
  clearTimeout(polling);
  try { await asMe("/api/queue", { method: "DELETE" }); } catch (e) { queueError(e); return; }
  $("#queue").hidden = true;
}

// --- Open tables: open one, list the lobby's, take a seat; the match starts when full --
let tablePoll = null;

function tableSpec() {
  const options = readOptions();
  const { players } = options;
  delete options.players;
  const body = { game: chosen.id, players, options, rated: !!$("#rated")?.checked, private: $("#private").checked };
  if ($("#clock").value) body.move_seconds = Number($("#clock").value);
  return body;
}

async function openTable() {
  const err = $("#setup-error");
  err.hidden = true;
  try { showTable(await asMe("/api/tables", { method: "POST", body: tableSpec() })); } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

/** A table I sit at (or was invited to): who sits where, its invite link; polled
 *  until its match starts (then go there). */
function showTable(t) {
  clearTimeout(tablePoll);
  const box = $("#table");
  if (t.status === "started") {
    if (current() && t.seats.some((s) => s.name === current().name)) return location.assign(t.link);
  }
  box.hidden = false;
  const title = games.find((g) => g.id === t.game)?.title || t.game;
  const seated = current() && t.seats.some((s) => s.name === current().name);
  const free = t.seats.filter((s) => s.name === null).length;
  const abs = new URL(t.invite, location.href).href;
  box.replaceChildren(
    el("h2", {}, `${title} table of ${t.host}`),
    el("p", { id: "table-state", role: "status" }, t.status === "closed" ? "The host closed this table." :
      t.status === "started" ? "Its match has started." : `${free} seat${free === 1 ? "" : "s"} free · ${t.rated ? "rated" : "casual"}${t.private ? " · private" : ""}`),
    el("ul", { class: "links" }, t.seats.map((s) => el("li", {}, el("span", { class: "seat-dot", style: `background:${seatColour(s.seat)}` }), ` Player ${s.seat + 1}: ${s.name || "free"}`))),
    el("p", {}, "Invite link: ", el("code", { id: "table-invite" }, abs), " ",
      el("button", { class: "secondary", onclick: () => navigator.clipboard?.writeText(abs) }, "copy link")),
    el("p", {},
      t.status === "open" && !seated ? el("button", { class: "primary", id: "take-seat", onclick: () => takeSeat(t.id) }, "Take a seat") : null,
      t.status === "open" && seated ? el("button", { class: "secondary", id: "leave-table", onclick: () => leaveTable(t.id) }, "Leave the table") : null),
    el("div", { id: "table-error", class: "error", hidden: true }),
  );
  if (t.status === "open") tablePoll = setTimeout(() => api(`/api/tables/${t.id}`).then(showTable).catch(tableError), 2000);
}

function tableError(e) {
  const err = $("#table-error");
  if (err) { err.textContent = e.message; err.hidden = false; }
}

async function takeSeat(id) {
  try { showTable(await asMe(`/api/tables/${id}/seats`, { method: "POST", body: {} })); } catch (e) {
    if ($("#table").hidden) alert(e.message); else tableError(e);
  }
}

async function leaveTable(id) {
  clearTimeout(tablePoll);
  try { await asMe(`/api/tables/${id}/seats`, { method: "DELETE" }); } catch (e) { tableError(e); return; }
  $("#table").hidden = true;
  loadTables().catch(console.error);
}

async function loadTables() {
  const rows = await api("/api/tables");
  const body = $("#open-tables tbody");
  body.replaceChildren();
  const titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  for (const t of rows) {
    const taken = t.seats.filter((s) => s.name !== null).length;
    body.append(el("tr", { "data-table": t.id },
      el("td", {}, titles[t.game] || t.game), el("td", {}, t.host),
      el("td", {}, `${taken}/${t.players}`), el("td", {}, t.rated ? "rated" : "casual"),
      el("td", {}, el("button", { class: "secondary", onclick: () => api(`/api/tables/${t.id}`).then(showTable) }, "look"), " ",
        current() ? el("button", { class: "take", onclick: () => takeSeat(t.id) }, "Take a seat") : el("span", { class: "muted" }, "sign in to sit"))));
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No open tables: open one from a game's set-up.")));
}

async function loadRecent() {
  const rows = await api("/api/matches");
  const body = $("#recent tbody");
  body.replaceChildren();
  const titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  for (const m of rows) {
    body.append(el("tr", {},
      el("td", {}, titles[m.game] || m.game),
      el("td", {}, m.seats.map((s) => s.name).join(", ")),
      el("td", {}, m.status),
      el("td", {}, new Date(m.created * 1000).toLocaleString()),
      el("td", {}, el("a", { href: `/m/${m.id}` }, m.status === "live" ? "open" : "result"), " · ", el("a", { href: `/r/${m.id}` }, "replay"))));
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No matches yet.")));
}

/** My matches: live ones first (mine to move marked, their count in the title),
 *  then the finished ones with their result and rating change. */
async function loadMine() {
  const box = $("#mine");
  if (!current()) { box.hidden = true; document.title = "Skydeck · lobby"; return; }
  box.hidden = false;
  const [live, done] = await Promise.all([
    asMe("/api/me/matches?status=live&per_page=50"), asMe("/api/me/matches?status=finished&per_page=20")]);
  const titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  const body = $("#my-matches tbody");
  body.replaceChildren();
  let myTurn = 0;
  for (const m of live.matches) {
    const info = await api(`/api/matches/${m.match}`).catch(() => null);
    const mine = info && (info.to_move || []).includes(m.seat);
    if (mine) myTurn++;
    body.append(el("tr", { class: mine ? "my-turn" : "" },
      el("td", {}, titles[m.game] || m.game), el("td", {}, m.players.join(", ")),
      el("td", {}, mine ? "your turn" : "live"), el("td", {}, m.rated ? "rated" : "casual"),
      el("td", {}, el("a", { href: m.link }, "open"))));
  }
  for (const m of done.matches) {
    const change = m.rating_after != null ? ` (${m.rating_before} → ${m.rating_after})` : "";
    body.append(el("tr", {},
      el("td", {}, titles[m.game] || m.game), el("td", {}, m.players.join(", ")),
      el("td", {}, m.status), el("td", {}, `${m.result || "—"}${change}`),
      el("td", {}, el("a", { href: m.replay }, "replay"))));
  }
  if (!live.matches.length && !done.matches.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No matches yet.")));
  document.title = myTurn ? `(${myTurn}) Skydeck · lobby` : "Skydeck · lobby";
  tellTurns(myTurn);
}

// --- "your turn" notifications: the Notification API, asked for by a click only ------
const NOTIFY_KEY = "skydeck:notify";
let turnsSeen = null; // the count at the last look (none told at the first)

function notifyButton() {
  const button = $("#notify");
  if (!("Notification" in window)) { button.hidden = true; return; }
  const on = Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
  button.textContent = on ? "Notifications on (turn off)" : "Tell me when it is my turn";
  button.onclick = async () => {
    if (on) localStorage.removeItem(NOTIFY_KEY);
    else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY_KEY, "1");
    notifyButton();
  };
}

function tellTurns(count) {
  const before = turnsSeen;
  turnsSeen = count;
  if (before === null || count <= before || !("Notification" in window)) return;
  if (Notification.permission !== "granted" || localStorage.getItem(NOTIFY_KEY) !== "1") return;
  new Notification("Skydeck: your turn", { body: `${count} match${count > 1 ? "es wait" : " waits"} for your move`, tag: "skydeck-turn" });
}

async function main() {
  await loadMe().catch(() => null);
  mountAccount($("#account"), () => { if (chosen) showSetup(chosen); loadMine().catch(console.error); loadTables().catch(console.error); });
  games = await api("/api/games");
  const cards = $("#games");
  cards.replaceChildren();
  for (const g of games) {
    const blurb = el("p", {});
    rulesFor(g.id).then((r) => { blurb.textContent = r.blurb; });
    cards.append(el("button", { class: "game-card", "data-game": g.id, onclick: () => showSetup(g) },
      el("h2", {}, g.title), blurb,
      el("p", {}, playersText(g))));
  }
  if (!games.length) cards.textContent = "No games are installed.";
  const want = new URLSearchParams(location.search).get("game");
  if (want && games.find((g) => g.id === want)) showSetup(games.find((g) => g.id === want));
  // Still waiting from before (a reload)? A match made earlier is in "My matches".
  if (current()) asMe("/api/queue").then((st) => { if (st.status === "waiting") showQueue(st); }).catch(console.error);
  notifyButton();
  // My matches (the title's count, the notifications) are looked at again every 30 s
  // and whenever the page comes back to the front.
  setInterval(() => { loadMine().catch(console.error); loadTables().catch(console.error); }, 30_000);
  window.addEventListener("focus", () => loadMine().catch(console.error));
  const invited = new URLSearchParams(location.search).get("table");
  if (invited) api(`/api/tables/${encodeURIComponent(invited)}`).then(showTable).catch((e) => { $("#table").hidden = false; $("#table").textContent = e.message; });
  await Promise.all([loadRecent(), loadTables().catch(console.error), loadMine().catch(console.error)]);
}

main().catch((e) => { $("#games").textContent = `Could not load the games: ${e.message}`; });
