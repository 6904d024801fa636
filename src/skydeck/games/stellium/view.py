"""What a seat may know (see VIEW.md for the dict, field by field).

Stellium hides very little: Missions taken are shown to everyone, the bag's contents
follow from the 38 bodies minus those on the board, and draws are made by choice. The
one secret is the order of the Mission Reserve, so every seat (and a spectator) gets
the same view, with the Reserve as a count.

Speed: the server builds a view per seat after every move, so everything fixed by the
content (the Universe, each Mission card's JSON, space and disc names) is computed
once per process and shared between views; views are read-only by contract.
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
        # the published board: a triangular lattice in doubled columns (a hole only where
        # row + column is even); discs turn by sixths
        "lattice": u.lattice,
        "directions": [d for d, _, _ in u.dirs],
        "turn_degrees": u.turn_degrees,
        "spaces": [u.names[i] for i in u.spaces],
        "black_holes": [u.names[i] for i in u.holes],
        "galaxies": [
            {
                "slot": u.slot_names[g],
                "centre": u.names[u.centres[g]],
                "spaces": [u.names[c] for c in cells],
            }
            for g, cells in enumerate(u.slot_cells)
        ],
    }


class _Static:
    """Content-fixed pieces of every view, built on first use (the rules module imports
    this one, so nothing of it can be read at import time)."""

    def __init__(self) -> None:
        from skydeck.games.stellium.rules import CARDS, PHASES, UNIVERSE

        self.universe = _universe_json()
        self.names: tuple[str, ...] = tuple(UNIVERSE.names)
        self.slot_names: tuple[str, ...] = tuple(UNIVERSE.slot_names)
        self.disc_names: tuple[str, ...] = tuple(UNIVERSE.disc_names)
        self.phases: tuple[str, ...] = tuple(PHASES)
        self.over = len(PHASES) - 1
        self.card_ids: tuple[str, ...] = tuple(c.id for c in CARDS)
        self.card_json: tuple[dict[str, Any], ...] = tuple(_card(c) for c in CARDS)
        #: Influence token bits -> colour names, for every possible set.
        self.tokens: tuple[tuple[str, ...], ...] = tuple(
            tuple(COLOURS[b] for b in (1, 2, 3, 4) if t & (1 << b)) for t in range(32)
        )


_S: _Static | None = None


def build_view(s: StelliumState, seat: int | None) -> dict[str, Any]:
    global _S
    st = _S
    if st is None:
        st = _S = _Static()
    names = st.names
    n = s.game.players
    card_ids = st.card_ids
    hands = s.hands
    completed = s.completed
    visible = set(s.available)
    visible.update(s.boxed)
    for h in hands:
        visible.update(h)
    for h in completed:
        visible.update(h)
    refill = None
    if s.refill_seats:
        pool = s.refill_pool
        refill = {
            "galaxy": st.slot_names[s.refill_queue[0]],
            "bodies": {BODIES[b]: pool[b] for b in (1, 2, 3, 4) if pool[b]},
            "order": list(s.refill_seats),
        }
    slot_names = st.slot_names
    disc_names = st.disc_names
    turns = s.turns
    step = st.universe["turn_degrees"]
    bag = s.bag
    card_json = st.card_json
    token_names = st.tokens
    return {
        "game": "stellium",
        "seat": seat,
        "players": n,
        "target": s.game.target,
        "first_game": s.game.options["first_game"],
        "universe": st.universe,
        "phase": st.phases[s.phase],
        "to_move": list(s.to_move),
        "turn": s.turn,
        "turn_count": s.turn_count,
        "first_player": s.first,
        "board": {k: BODIES[b] for k, b in zip(names, s.board) if b},
        "colours": {k: COLOURS[c] for k, c in zip(names, s.colours) if c},
        "discs": [
            {
                "galaxy": slot_names[g],
                "disc": disc_names[d],
                "turns": turns[g],
                "degrees": turns[g] * step,
            }
            for g, d in enumerate(s.discs)
        ],
        "bag": {"planet": bag[1], "comet": bag[2], "star": bag[3], "supernova": bag[4]},
        "drawn": BODIES[s.drawn] or None,
        "placed": names[s.placed] if s.placed >= 0 else None,
        "must_use_token": s.token_mode,
        "tokens": [list(token_names[t & 30]) for t in s.tokens],
        "hands": [[card_ids[c] for c in h] for h in hands],
        "completed": [[card_ids[c] for c in h] for h in completed],
        "mission_points": list(s.points),
        "available": [card_ids[c] for c in s.available],
        "reserve": len(s.reserve),
        "boxed": [card_ids[c] for c in s.boxed],
        "cards": {card_ids[c]: card_json[c] for c in sorted(visible)},
        "keep": [names[i] for i in s.keep_cells],
        "refill": refill,
        "final_round": s.final,
        "reached_target": list(s.reached),
        "scores": [s.total(k) for k in range(n)],
        "is_over": s.phase == st.over,
        "winners": list(s.winners),
    }


def _card(card: Any) -> dict[str, Any]:
    out = card.to_json()
    out["colour"] = COLOURS[card.colour]
    if "bodies" in out:
        out["bodies"] = [BODIES[b] for b in out["bodies"]]
    return out
