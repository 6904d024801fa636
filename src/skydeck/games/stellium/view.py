"""What a seat may know (see VIEW.md for the dict, field by field).

Stellium hides very little: Missions taken are shown to everyone, the bag's contents
follow from the 38 bodies minus those on the board, and draws are made by choice. The
one secret is the order of the Mission Reserve, so every seat (and a spectator) gets
the same view, with the Reserve as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.games.stellium.content import BODIES, COLOURS

if TYPE_CHECKING:
    from skydeck.games.stellium.rules import StelliumState


def _universe_json() -> dict[str, Any]:
    from skydeck.games.stellium.rules import UNIVERSE as u

    return {
        "name": u.name,
        "width": u.width,
        "height": u.height,
        "columns": [chr(ord("a") + c) for c in range(u.width)],
        "spaces": [u.names[i] for i in u.spaces],
        "black_holes": [u.names[i] for i in u.holes],
        "galaxies": [
            {
                "slot": u.slot_names[g],
                "centre": u.names[cells[4]],
                "spaces": [u.names[c] for c in cells],
            }
            for g, cells in enumerate(u.slot_cells)
        ],
    }


_STATIC: dict[str, Any] = {}


def build_view(s: StelliumState, seat: int | None) -> dict[str, Any]:
    from skydeck.games.stellium.rules import CARDS, PHASES, UNIVERSE

    if not _STATIC:
        _STATIC["universe"] = _universe_json()
    names = UNIVERSE.names
    n = s.game.players
    visible = set(s.available) | set(s.boxed)
    for h in s.hands:
        visible.update(h)
    for h in s.completed:
        visible.update(h)
    refill = None
    if s.refill_seats:
        refill = {
            "galaxy": UNIVERSE.slot_names[s.refill_queue[0]],
            "bodies": {BODIES[b]: s.refill_pool[b] for b in (1, 2, 3, 4) if s.refill_pool[b]},
            "order": list(s.refill_seats),
        }
    return {
        "game": "stellium",
        "seat": seat,
        "players": n,
        "target": s.game.target,
        "first_game": s.game.options["first_game"],
        "universe": _STATIC["universe"],
        "phase": PHASES[s.phase],
        "to_move": list(s.to_move),
        "turn": s.turn,
        "turn_count": s.turn_count,
        "first_player": s.first,
        "board": {names[i]: BODIES[b] for i, b in enumerate(s.board) if b},
        "colours": {names[i]: COLOURS[c] for i, c in enumerate(s.colours) if c},
        "discs": [
            {
                "galaxy": UNIVERSE.slot_names[g],
                "disc": UNIVERSE.disc_names[d],
                "quarter_turns": s.turns[g],
            }
            for g, d in enumerate(s.discs)
        ],
        "bag": {BODIES[b]: s.bag[b] for b in (1, 2, 3, 4)},
        "drawn": BODIES[s.drawn] or None,
        "placed": names[s.placed] if s.placed >= 0 else None,
        "must_use_token": s.token_mode,
        "tokens": [[COLOURS[b] for b in (1, 2, 3, 4) if t & (1 << b)] for t in s.tokens],
        "hands": [[CARDS[c].id for c in h] for h in s.hands],
        "completed": [[CARDS[c].id for c in h] for h in s.completed],
        "mission_points": list(s.points),
        "available": [CARDS[c].id for c in s.available],
        "reserve": len(s.reserve),
        "boxed": [CARDS[c].id for c in s.boxed],
        "cards": {CARDS[c].id: _card(CARDS[c]) for c in sorted(visible)},
        "spent": [names[i] for i in s.spent],
        "keep": [names[i] for i in s.keep_cells],
        "refill": refill,
        "final_round": s.final,
        "reached_target": list(s.reached),
        "scores": [s.total(k) for k in range(n)],
        "is_over": s.phase == len(PHASES) - 1,
        "winners": list(s.winners),
    }


def _card(card: Any) -> dict[str, Any]:
    out = card.to_json()
    out["colour"] = COLOURS[card.colour]
    if "bodies" in out:
        out["bodies"] = [BODIES[b] for b in out["bodies"]]
    return out
