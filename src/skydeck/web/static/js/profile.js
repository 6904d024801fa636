// A player's page (/p/NAME): ratings per game with a graph over time, Stellarion's
// co-op results, current matches, the match list (paged, by game and result) with
// replays, and the results against each opponent. Everything from /api/players/NAME.
import { $, el, svg, api, words } from "./common.js";
import { loadMe, mountAccount } from "./account.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
let page = 1;
let titles = {};

/** A simple line of (time, rating) points, the axes labelled with the lowest and
 *  highest rating and the first and last date. Drawn at the width it is shown (at
 *  most 600 px), so its 12 px labels stay 12 px on a phone too. */
function graph(points) {
  const W = Math.floor(Math.max(260, Math.min(600, ($("#graphs").clientWidth || 602) - 2))), H = 160, P = 30;
  const ts = points.map((p) => p[0]), rs = points.map((p) => p[1]);
  const t0 = Math.min(...ts), t1 = Math.max(...ts), r0 = Math.min(...rs) - 10, r1 = Math.max(...rs) + 10;
  const x = (t) => P + (t1 === t0 ? (W - 2 * P) / 2 : ((t - t0) / (t1 - t0)) * (W - 2 * P));
  const y = (r) => H - P + -((r - r0) / (r1 - r0)) * (H - 2 * P);
  const day = (t) => new Date(t * 1000).toLocaleDateString();
  return svg("svg", { class: "rating-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "rating over time" },
    svg("polyline", { points: points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ") }),
    points.map((p) => svg("circle", { cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 2.5, fill: "#ffd66b" })),
    svg("text", { x: 2, y: y(r1 - 10) + 4 }, String(Math.round(r1 - 10))),
    svg("text", { x: 2, y: y(r0 + 10) + 4 }, String(Math.round(r0 + 10))),
    svg("text", { x: P, y: H - 6 }, day(t0)),
    svg("text", { x: W - P, y: H - 6, "text-anchor": "end" }, day(t1)));
}

async function loadMatches() {
  const q = new URLSearchParams({ page, per_page: 20 });
  if ($("#filter-game").value) q.set("game", $("#filter-game").value);
  if ($("#filter-result").value) q.set("result", $("#filter-result").value);
  const data = await api(`/api/players/${encodeURIComponent(name)}/matches?${q}`);
  const body = $("#matches tbody");
  body.replaceChildren();
  for (const m of data.matches) {
    const change = m.rating_after != null ? `${m.rating_before} → ${m.rating_after}` : (m.rated ? "" : "casual");
    body.append(el("tr", { "data-match": m.match },
      el("td", {}, titles[m.game] || m.game), el("td", {}, m.players.join(", ")),
      el("td", { class: "result" }, m.result || m.status), el("td", {}, change),
      el("td", {}, new Date(m.created * 1000).toLocaleString()),
      el("td", {}, el("a", { href: m.status === "live" ? m.link : m.replay, class: "replay" }, m.status === "live" ? "open" : "replay"))));
  }
  if (!data.matches.length) body.append(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No matches.")));
  $("#page").textContent = `page ${page}`;
  $("#prev").disabled = page === 1;
  $("#next").disabled = !data.more;
}

async function main() {
  await loadMe().catch(() => null);
  mountAccount($("#account"), () => {});
  const games = await api("/api/games").catch(() => []);
  titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  for (const g of games) $("#filter-game").append(el("option", { value: g.id }, g.title));
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    $("#name").textContent = e.message;
    return;
  }
  document.title = `Skydeck · ${p.name}`;
  $("#name").textContent = p.kind === "bot" ? `${p.name} (bot)` : p.name;
  $("#since").textContent = `on Skydeck since ${new Date(p.created * 1000).toLocaleDateString()}`;
  const cards = $("#ratings");
  for (const r of p.ratings) {
    cards.append(el("div", { class: "rating-card", "data-game": r.game },
      el("div", {}, titles[r.game] || r.game),
      el("div", { class: "num" }, String(r.rating)),
      el("div", { class: "muted" }, `${r.games} rated game${r.games === 1 ? "" : "s"}${r.provisional ? " · provisional" : ""}`)));
    const points = p.history[r.game] || [];
    if (points.length) $("#graphs").append(el("h3", {}, titles[r.game] || r.game), graph(points));
  }
  if (!p.ratings.length) cards.append(el("p", { class: "muted" }, "No rated games yet."));
  if (p.coop.length) {
    $("#coop-box").hidden = false;
    for (const s of p.coop) {
      const setup = Object.entries(s.setup).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length)).map(([k, v]) => `${words(k)}: ${Array.isArray(v) ? v.map(words).join(", ") : v}`).join("; ");
      $("#coop tbody").append(el("tr", {}, el("td", {}, setup || "standard"), el("td", {}, String(s.played)), el("td", {}, String(s.won)),
        el("td", {}, `${Math.round(s.win_rate * 100)}%`), el("td", {}, s.fewest_moves == null ? "—" : String(s.fewest_moves)),
        el("td", {}, String(s.streak)), el("td", {}, String(s.best_streak))));
    }
  }
  for (const m of p.current) {
    $("#current tbody").append(el("tr", {}, el("td", {}, titles[m.game] || m.game), el("td", {}, m.players.join(", ")),
      el("td", {}, m.rated ? "rated" : "casual"), el("td", {}, el("a", { href: m.link }, "open"))));
  }
  if (!p.current.length) $("#current tbody").append(el("tr", {}, el("td", { class: "muted" }, "None.")));
  for (const o of p.opponents) {
    $("#opponents tbody").append(el("tr", {}, el("td", {}, el("a", { href: `/p/${encodeURIComponent(o.name)}` }, o.name)),
      el("td", {}, String(o.won)), el("td", {}, String(o.lost)), el("td", {}, String(o.drawn))));
  }
  $("#filter-game").onchange = $("#filter-result").onchange = () => { page = 1; loadMatches(); };
  $("#prev").onclick = () => { page = Math.max(1, page - 1); loadMatches(); };
  $("#next").onclick = () => { page += 1; loadMatches(); };
  await loadMatches();
}

main().catch((e) => { $("#name").textContent = `Could not load this player: ${e.message}`; });
