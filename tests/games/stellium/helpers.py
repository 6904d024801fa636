"""Build exact Stellium positions for scenario tests."""

from __future__ import annotations

import json
from typing import Any

import skydeck
from skydeck.core import Action
from skydeck.games.stellium.content import BAG_TOTALS, BODY_CODE
from skydeck.games.stellium.rules.effects import recolour
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import CARD_INDEX, DRAW_PHASE, PHASES, UNIVERSE

U = UNIVERSE
BODY_LETTER = {"P": 1, "C": 2, "S": 3, "N": 4}
#: Where a Supernova is put in each Galaxy the test leaves empty (far from Black Holes).
FILLERS = ("b2", "j2", "q1", "f6", "m5", "u5")


def cell(name: str) -> int:
    return U.index_of[name]


def position(
    players: int = 2,
    board: dict[str, str] | None = None,
    *,
    phase: str = "draw",
    turn: int = 0,
    first: int = 0,
    drawn: str | None = None,
    placed: str | None = None,
    hands: list[list[str]] | None = None,
    available: list[str] | None = None,
    reserve: list[str] | None = None,
    tokens: list[int] | None = None,
    first_game: bool = False,
    seed: int = 0,
    fill: bool = True,
) -> StelliumState:
    """A state with exactly these bodies (``{"e2": "planet"}`` or letters P C S N),
    discs in printed orientation (disc g on slot g), and the given phase."""
    game = skydeck.load("stellium", players=players, first_game=first_game)
    s = game.new(seed)
    assert isinstance(s, StelliumState)
    s.board = [0] * U.size
    for name, body in (board or {}).items():
        if not U.is_space[cell(name)]:
            raise ValueError(f"{name} is not a space of the Universe")
        s.board[cell(name)] = BODY_LETTER.get(body) or BODY_CODE[body]
    s.fillers = []  # type: ignore[attr-defined]
    if fill:  # keep every Galaxy non-empty, so no refill starts by accident
        for g, cells in enumerate(U.slot_cells):
            if not any(s.board[c] for c in cells):
                s.board[cell(FILLERS[g])] = 4
                s.fillers.append(FILLERS[g])  # type: ignore[attr-defined]
    s.bag = [BAG_TOTALS[b] - s.board.count(b) for b in range(5)]
    s.bag[0] = 0
    s.discs = list(range(6))
    s.turns = [0] * 6  # printed orientation: disc g on slot g
    recolour(s)
    if drawn:
        b = BODY_LETTER.get(drawn) or BODY_CODE[drawn]
        s.drawn = b
        s.bag[b] -= 1
    s.placed = cell(placed) if placed else -1
    s.hands = [[CARD_INDEX[c] for c in h] for h in (hands or [[] for _ in range(players)])]
    if available is not None:
        s.available = [CARD_INDEX[c] for c in available]
    used = set(s.available) | {c for h in s.hands for c in h}
    if reserve is not None:
        s.reserve = [CARD_INDEX[c] for c in reserve]
    else:
        s.reserve = [c for c in range(40) if c not in used]
    if tokens is not None:
        s.tokens = list(tokens)
    s.turn, s.first = turn, first
    s.phase = PHASES.index(phase) if phase in PHASES else DRAW_PHASE
    s._legal = None
    s._legal_set = None
    return s


def act(s: StelliumState, text: str, seat: int | None = None) -> list[Any]:
    """Apply an action given in text notation, as the seat to move."""
    action = s.game.parse_action(text)
    return s.apply(action, s.to_move[0] if seat is None else seat)


def legal_texts(s: StelliumState) -> set[str]:
    return {str(a) for a in s.legal_actions(s.to_move[0])}


def bodies(s: StelliumState) -> dict[str, str]:
    from skydeck.games.stellium.content import BODIES

    fillers = getattr(s, "fillers", [])
    return {
        U.names[i]: BODIES[b]
        for i, b in enumerate(s.board)
        if b and not (U.names[i] in fillers and b == 4)
    }


def dump(s: StelliumState) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


def accounted(s: StelliumState) -> list[int]:
    """Bodies per type between board, bag, the drawn body and a refill pool."""
    out = []
    for b in (1, 2, 3, 4):
        n = s.board.count(b) + s.bag[b] + s.refill_pool[b] + (1 if s.drawn == b else 0)
        out.append(n)
    return out


def action(text: str) -> Action:
    return Action.parse(text)
