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
from skydeck.games.stellium.tables import CARDS, PHASES, UNIVERSE

if TYPE_CHECKING:
    from skydeck.games.stellium.state import StelliumState


def _universe_json() -> dict[str, Any]:
    u = UNIVERSE
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
    """Content-fixed pieces of every view, built on first use (a process that never
    builds a view never pays for them)."""

    def __init__(self) -> None:
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


class _Memo:
    """The parts of a state's last view that a move seldom changes (the board, the
    discs, the cards in sight, ...), each with a copy of what it was built from. A
    view hands an unchanged part out again as the same object: building it costs a
    comparison of lists (in C), and the server's diff of two views skips it by
    identity. Kept on the state (``clone`` leaves it behind, so a copy starts anew)."""

    __slots__ = ("board", "colours", "discs", "missions", "tokens")

    def __init__(self) -> None:
        # (source copy, part) per part; a source that can never be equal to start with
        self.board: tuple[Any, Any] = (None, None)
        self.colours: tuple[Any, Any] = (None, None)
        self.discs: tuple[Any, Any] = (None, None)
        self.tokens: tuple[Any, Any] = (None, None)
        #: hands, completed, available and boxed together, with the cards they show
        self.missions: tuple[Any, Any] = (None, None)


def _missions(s: StelliumState, st: _Static) -> dict[str, Any]:
    """hands, completed, available, boxed and the definitions of every card in them."""
    card_ids = st.card_ids
    card_json = st.card_json
    visible = set(s.available)
    visible.update(s.boxed)
    for h in s.hands:
        visible.update(h)
    for h in s.completed:
        visible.update(h)
    return {
        "hands": [[card_ids[c] for c in h] for h in s.hands],
        "completed": [[card_ids[c] for c in h] for h in s.completed],
        "available": [card_ids[c] for c in s.available],
        "boxed": [card_ids[c] for c in s.boxed],
        "cards": {card_ids[c]: card_json[c] for c in sorted(visible)},
    }


def build_view(s: StelliumState, seat: int | None) -> dict[str, Any]:
    global _S
    st = _S
    if st is None:
        st = _S = _Static()
    memo: _Memo | None = s._view_memo
    if memo is None:
        memo = s._view_memo = _Memo()
    names = st.names
    n = s.game.players
    if memo.board[0] != s.board:
        memo.board = (s.board[:], {k: BODIES[b] for k, b in zip(names, s.board) if b})
    if memo.colours[0] != s.colours:
        memo.colours = (s.colours[:], {k: COLOURS[c] for k, c in zip(names, s.colours) if c})
    discs_src = (s.discs, s.turns)
    if memo.discs[0] != discs_src:
        slot_names = st.slot_names
        disc_names = st.disc_names
        turns = s.turns
        step = st.universe["turn_degrees"]
        memo.discs = (
            (s.discs[:], turns[:]),
            [
                {
                    "galaxy": slot_names[g],
                    "disc": disc_names[d],
                    "turns": turns[g],
                    "degrees": turns[g] * step,
                }
                for g, d in enumerate(s.discs)
            ],
        )
    if memo.tokens[0] != s.tokens:
        token_names = st.tokens
        memo.tokens = (s.tokens[:], [list(token_names[t & 30]) for t in s.tokens])
    missions_src = (s.hands, s.completed, s.available, s.boxed)
    if memo.missions[0] != missions_src:
        parts = _missions(s, st)
        last = memo.missions[1]
        if last is not None:  # a Mission taken changes hands and available, not cards
            for k, v in last.items():
                if parts[k] == v:
                    parts[k] = v
        memo.missions = (
            ([h[:] for h in s.hands], [h[:] for h in s.completed], s.available[:], s.boxed[:]),
            parts,
        )
    missions = memo.missions[1]
    refill = None
    if s.refill_seats:
        pool = s.refill_pool
        refill = {
            "galaxy": st.slot_names[s.refill_queue[0]],
            "bodies": {BODIES[b]: pool[b] for b in (1, 2, 3, 4) if pool[b]},
            "order": list(s.refill_seats),
        }
    bag = s.bag
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
        "board": memo.board[1],
        "colours": memo.colours[1],
        "discs": memo.discs[1],
        "bag": {"planet": bag[1], "comet": bag[2], "star": bag[3], "supernova": bag[4]},
        "drawn": BODIES[s.drawn] or None,
        "placed": names[s.placed] if s.placed >= 0 else None,
        "must_use_token": s.token_mode,
        "tokens": memo.tokens[1],
        "hands": missions["hands"],
        "completed": missions["completed"],
        "mission_points": list(s.points),
        "available": missions["available"],
        "reserve": len(s.reserve),
        "boxed": missions["boxed"],
        "cards": missions["cards"],
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
