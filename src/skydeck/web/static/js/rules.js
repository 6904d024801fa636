// The rules in short of a game: its own ``web/rules.js`` (``blurb``, ``html``), found
// through ``GET /api/games``; a game without one gets a plain line.
import { loadGameModule } from "./common.js";

const NONE = { blurb: "", html: "<p>No summary yet.</p>" };

/** ``{blurb, html}`` of ``gameId``. */
export async function rulesFor(gameId) {
  const mod = await loadGameModule(gameId, "rules");
  return { blurb: mod.blurb ?? NONE.blurb, html: mod.html ?? NONE.html };
}
