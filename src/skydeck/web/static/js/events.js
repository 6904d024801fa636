// The event log in plain words. The server tells each event's sentence (`text`, from the
// game's describe_event, the same words `skydeck replay` prints); a game module's
// eventText or a generic line only stand in for an event that came without one.
import { el, words, capital, seatName } from "./common.js";

function detail(e) {
  const parts = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === "kind" || k === "seat" || k === "text") continue;
    const shown = typeof v === "object" ? JSON.stringify(v) : String(v);
    parts.push(`${words(k)} ${shown.length > 60 ? shown.slice(0, 57) + "…" : shown}`);
  }
  return parts.join(", ");
}

export function eventText(e, header, game) {
  if (typeof e.text === "string" && e.text) return e.text;
  const name = (s) => seatName(header, s);
  if (game?.eventText) {
    const text = game.eventText(e, name);
    if (text) return text;
  }
  const who = typeof e.seat === "number" ? `${name(e.seat)}: ` : "";
  const d = detail(e);
  return `${who}${words(e.kind)}${d ? " — " + d : ""}`;
}

/** One log line: who moved and what they did, then what followed; each move told once,
 * as a sentence. The deed is the "action" event ("Ada plays Fia Rusk") or the first
 * event that starts with the mover's name ("Ada draws a Planet from the bag"),
 * whichever says more; the other is left out. The move's label (a command, "Crash the
 * Comet into g5, pushing east") stands in only where no event tells the move: it would
 * say again what the sentences after it say. Used by the match page and the replay. */
export function logDeed(entry, header, game) {
  const mover = seatName(header, entry.seat);
  const events = (entry.events || []).map((e) => ({ e, text: eventText(e, header, game) }));
  const bySeat = ({ text }) => text.startsWith(`${mover} `) || text.startsWith(`${mover}: `);
  const told = events.find((x) => x.e.kind === "action" && x.text && bySeat(x));
  const deed = events.find((x) => x.e.kind !== "action" && x.e.seat === entry.seat && bySeat(x));
  const rest = (x) => x.text.slice(mover.length).replace(/^:? /, "");
  const words = (t) => (t ? t.split(/\s+/).length : 0);
  // both tell the deed: the one in more words does ("keeps Expedition First Contact
  // (Bronze)" over "kept an Expedition"; "deploys Wiss Cargo Barge at ..." over a bare
  // command)
  let main = null;
  if (told && deed) main = words(rest(deed)) > words(rest(told)) ? deed : told;
  else main = told || deed || null;
  const what = main ? rest(main) : entry.label ? capital(entry.label) : "made a move";
  return { mover, what, after: events.filter((x) => x !== told && x !== deed).map((x) => x.text) };
}

export function logLine(entry, header, game, viewer) {
  const { mover, what, after } = logDeed(entry, header, game);
  const li = el("li", { "data-n": entry.n });
  li.append(el("span", { class: "who", style: `color: var(--seat${entry.seat % 4})` }, mover + (viewer?.has?.(entry.seat) ? " (you)" : "")), ": ", what);
  for (const text of after) li.append(el("span", { class: "ev" }, text));
  return li;
}
