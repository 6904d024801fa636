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

/** One log line: who moved and what they did, then what followed. The move is told by
 * the first event that starts with the mover's name ("Ada draws a Planet from the bag")
 * or by the "action" event or the label, whichever says more, and only once. */
export function logLine(entry, header, game, viewer) {
  const mover = seatName(header, entry.seat);
  const events = (entry.events || []).map((e) => ({ e, text: eventText(e, header, game) }));
  // An "action" event names the move, also when the label is not ours to see yet (a
  // public move of another seat); a hidden one adds nothing to "made a move".
  const told = events.find(({ e }) => e.kind === "action" && e.action !== undefined && e.text);
  const named = told && told.text.startsWith(`${mover}: `) ? told.text.slice(mover.length + 2) : null;
  const deed = events.find(({ e, text }) => e.kind !== "action" && e.seat === entry.seat && text.startsWith(`${mover} `));
  const chosen = named ? capital(named) : entry.label ? capital(entry.label) : null;
  const deedText = deed ? deed.text.slice(mover.length + 1) : null;
  // both tell the deed: the one in more words does ("deploys Wiss Cargo Barge at ..."
  // over "Place at ..."; "Keep Expedition First Contact (Bronze)" over "kept an Expedition")
  const words = (t) => (t ? t.split(/\s+/).length : 0);
  const what = deedText && words(deedText) >= words(chosen) ? deedText : chosen || "made a move";
  const li = el("li", { "data-n": entry.n });
  li.append(el("span", { class: "who", style: `color: var(--seat${entry.seat % 4})` }, mover + (viewer?.has?.(entry.seat) ? " (you)" : "")), ": ", what);
  for (const { e, text } of events) if (e.kind !== "action" && e !== deed?.e) li.append(el("span", { class: "ev" }, text));
  return li;
}
