"""The legal moves of each step of a turn (``compute_legal``), and why a move is not
one (``why_illegal``). Legal lists hand out memoised actions (the notation's, and the
tables below), so a caller may look them up by identity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skydeck.core import Action
from skydeck.core.action import shared
from skydeck.games.stellium.missions import occupied_keys
from skydeck.games.stellium.notation import DONE, DRAW, PASS, SKIP
from skydeck.games.stellium.tables import (
    CARDS,
    DIRS,
    DRAW_PHASE,
    EFFECT,
    GALAXY_OF,
    GALAXY_SPACES,
    HAND_LIMIT,
    HOLES,
    IS_HOLE,
    KEEP,
    MISSIONS,
    NAMES,
    NEIGH,
    NEW_MISSION,
    NOTATION,
    PHASES,
    PLACE,
    PUSH,
    REFILL,
    SLOTS,
    STEP,
    UNIVERSE,
)

if TYPE_CHECKING:
    from skydeck.games.stellium.state import StelliumState

# Memoised actions: legal lists hand out the same objects every time, like the rest of
# NOTATION (callers that look actions up by identity, as skydeck.rl's catalogue does,
# skip the dataclass hash, and no list builds fresh Actions).
_TAKE = tuple(shared("take", (c.id,)) for c in CARDS)
#: [m][h]: take m in place of h (a card is never both, so the diagonal is never read)
_TAKE_REPLACE = tuple(
    tuple(shared("take", (m.id, h.id)) if m is not h else PASS for h in CARDS) for m in CARDS
)
#: (card, cells) -> its ``complete`` action, filled as completions are found (at most
#: one per way a card can ever be completed: bounded by the content)
_COMPLETE: dict[tuple[int, tuple[int, ...]], Action] = {}


def compute_legal(s: StelliumState) -> list[Action]:
    phase = s.phase
    if phase == DRAW_PHASE:
        return [DRAW[b] for b in (1, 2, 3, 4) if s.bag[b]]
    if phase == PLACE:
        return place_options(s)
    if phase == EFFECT:
        return effect_options(s)
    if phase == MISSIONS:
        return [*completions(s), DONE]
    if phase == KEEP:
        return [NOTATION.keep[c] for c in s.keep_cells]
    if phase == REFILL:
        cells = SLOTS[s.refill_queue[0]]
        board = s.board
        out: list[Action] = []
        for b in (1, 2, 3, 4):
            if s.refill_pool[b]:
                row = NOTATION.refill[b]
                out.extend(row[c] for c in cells if not board[c])
        return out
    if phase == NEW_MISSION:
        hand = s.hands[s.turn]
        if len(hand) < HAND_LIMIT:
            return [_TAKE[c] for c in s.available]
        out = [PASS]
        for c in s.available:
            row = _TAKE_REPLACE[c]
            out.extend(row[h] for h in hand)
        return out
    return []


def place_options(s: StelliumState) -> list[Action]:
    board = s.board
    empty = [NOTATION.place[c] for c in GALAXY_SPACES if not board[c]]
    if s.drawn != 2:
        return empty
    hits = [c for c in GALAXY_SPACES if board[c]]
    out = [a for c in hits for a in NOTATION.place_dir[c]]
    if not hits or comet_token_possible(s):
        out.extend(empty)
    return out


def comet_token_possible(s: StelliumState) -> bool:
    """Can a Comet skip its Collision for a token's effect? Rotation always works;
    Swap needs another Comet beside a body of another type, Attraction an empty
    Black Hole beside a body (neither can involve the Comet's empty landing space)."""
    tokens = s.tokens[s.turn]
    if tokens & (1 << 3):
        return True
    if tokens & (1 << 1) and any(
        s.board[a] == 2 and any(s.board[b] not in (0, 2) and not IS_HOLE[b] for b in NEIGH[a])
        for a in GALAXY_SPACES
    ):
        return True
    return bool(tokens & (1 << 4)) and any(
        not s.board[h] and any(s.board[b] for b in NEIGH[h]) for h in HOLES
    )


def effect_options(s: StelliumState) -> list[Action]:
    p = s.placed
    body = s.board[p]
    tokens = s.tokens[s.turn]
    out: list[Action] = []
    native_possible = False
    for eff in (1, 2, 3, 4):
        native = eff == body
        if native:
            if body == 2:  # a Comet's Collision happens as it is placed
                continue
        elif not tokens & (1 << eff):
            continue
        opts = options_of(s, eff, p, body)
        if native and opts:
            native_possible = True
        out.extend(opts)
    if not native_possible and not s.token_mode:
        out.append(SKIP)
    return out


def options_of(s: StelliumState, eff: int, p: int, body: int) -> list[Action]:
    board = s.board
    if eff == 1:  # Swap: another body of the placed type trades with a neighbour,
        # both in Galaxies (a body enters a Black Hole only when pushed or pulled)
        swap = NOTATION.swap
        return [
            swap[a, b]
            for a in GALAXY_SPACES
            if board[a] == body and a != p
            for b in NEIGH[a]
            if b != p and board[b] and board[b] != body and not IS_HOLE[b]
        ]
    if eff == 2:  # Collision: the placed body pushes a line and takes the first space,
        # never a Black Hole (bodies are only pushed or pulled there, not placed)
        step = STEP[p]
        return [
            PUSH[d]
            for d in range(len(DIRS))
            if step[d] >= 0 and board[step[d]] and not IS_HOLE[step[d]]
        ]
    if eff == 3:  # Rotation of the placed body's Galaxy
        return list(NOTATION.rotate[1:]) if GALAXY_OF[p] >= 0 else []
    pull = NOTATION.pull  # Attraction: an empty Black Hole pulls a neighbour in
    return [pull[h, b] for h in HOLES if not board[h] for b in NEIGH[h] if b != p and board[b]]


def completions(s: StelliumState) -> list[Action]:
    out = []
    board, colours = s.board, s.colours
    hand = s.hands[s.turn]
    occupied = occupied_keys(board) if hand else []
    memo = _COMPLETE
    for c in hand:
        card = CARDS[c]
        for cells in card.matches(board, colours, UNIVERSE.centres, occupied):
            action = memo.get((c, cells))
            if action is None:
                action = shared("complete", (card.id, tuple(NAMES[i] for i in cells)))
                memo[c, cells] = action
            out.append(action)
    return out


def why_illegal(s: StelliumState, action: Action) -> str:
    phase = PHASES[s.phase]
    kinds = sorted({a.kind for a in s._legal or ()})
    if action.kind not in kinds:
        return (
            f"'{action}' is not possible now: the {phase} step allows only "
            f"{', '.join(kinds) or 'nothing'}"
        )
    return f"'{action}' is not a legal {action.kind} now ({phase} step)"
