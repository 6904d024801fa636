// Small helpers shared by every page: DOM building, SVG, seat colours, API calls, tokens.

export const $ = (sel, root = document) => root.querySelector(sel);

/** el("div", {class: "x", onclick: f}, child, "text", [more]) builds an element. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";

/** svg("rect", {x: 1}) builds an SVG element the same way. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export const SEAT_COLOURS = ["#6fb6ff", "#ff9f6b", "#9be77a", "#e07bff", "#ffd66b", "#7bf0e0"];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

/** "black_holes" -> "black holes"; "deckSize" -> "deck size". */
export function words(key) {
  return String(key).replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Time left on a clock as a player reads it: "4.2 s" in the last ten seconds, "42 s",
 * then "12:05", "5:12:03", and "2 d 4 h" for a correspondence clock of days (a move clock
 * of an hour had read "3600 s"). */
export function countdown(left) {
  const s = Math.max(0, left);
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const whole = Math.floor(s);
  const two = (n) => String(n).padStart(2, "0");
  const [d, h, m, sec] = [Math.floor(whole / 86400), Math.floor(whole / 3600) % 24, Math.floor(whole / 60) % 60, whole % 60];
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h}:${two(m)}:${two(sec)}`;
  return `${m}:${two(sec)}`;
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export async function api(path, options = {}) {
  const res = await fetch(path, {
    headers: { "content-type": "application/json" },
    ...options,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `${res.status} ${res.statusText}`);
  return data;
}

/** Seat tokens: from the link's fragment (#t=a,b), remembered per match in this browser. */
export function matchTokens(matchId) {
  const key = `skydeck:tokens:${matchId}`;
  const m = /(?:^#|&)t=([^&]*)/.exec(location.hash);
  if (m) {
    const tokens = decodeURIComponent(m[1]).split(",").filter(Boolean);
    localStorage.setItem(key, JSON.stringify(tokens));
    return tokens;
  }
  try {
    return JSON.parse(localStorage.getItem(key) || "[]");
  } catch {
    return [];
  }
}

export function matchIdFromPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
}

export function seatName(header, seat) {
  const s = header?.seats?.[seat];
  return s ? s.name : `Player ${seat + 1}`;
}

let gamesOnOffer = null;

/** What ``GET /api/games`` says of every game on offer (fetched once per page). */
export async function offeredGames() {
  gamesOnOffer = gamesOnOffer || fetch("/api/games").then((r) => (r.ok ? r.json() : []));
  try {
    return await gamesOnOffer;
  } catch (err) {
    gamesOnOffer = null;
    return [];
  }
}

/** What ``GET /api/games`` says of one game, or null. */
export async function gameInfo(gameId) {
  return (await offeredGames()).find((g) => g.id === gameId) || null;
}

/** Loads one of the game's own page modules, by role (``drawing``, ``rules``, ``howto``,
 *  ``panel``: files of its ``web`` folder, as ``GET /api/games`` names them under
 *  ``web``); an empty module when it has none, so the page falls back to its generic
 *  part (the generic drawing, no summary, no walk-through, name-score-clock panels). */
export async function loadGameModule(gameId, role = "drawing") {
  const info = await gameInfo(gameId);
  const url = info?.web?.[role];
  if (!url) return {};
  try {
    return await import(url);
  } catch (err) {
    if (!String(err).includes("Failed to fetch")) console.warn(err);
    return {};
  }
}
