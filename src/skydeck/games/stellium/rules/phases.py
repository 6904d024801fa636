"""The steps of a turn: passing over those that hold no choice (``advance``), the end
of a turn, and the refill of an emptied Galaxy (queued, drawn, returned)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skydeck.core import Event
from skydeck.games.stellium.content import BODIES
from skydeck.games.stellium.notation import DONE, SKIP
from skydeck.games.stellium.rules.legal import completions, effect_options
from skydeck.games.stellium.tables import (
    DRAW_PHASE,
    EFFECT,
    MISSIONS,
    NEW_MISSION,
    OVER,
    REFILL,
    REFILL_DRAW,
    SLOTS,
    UNIVERSE,
)

if TYPE_CHECKING:
    from skydeck.games.stellium.state import StelliumState


def advance(s: StelliumState, ev: list[Event]) -> None:
    """Pass over steps that hold no choice, until someone must decide (or the end)."""
    while True:
        phase = s.phase
        if phase == REFILL:
            if s.refill_seats:
                break
            if not s.refill_queue:
                s.phase = MISSIONS
                continue
            if not start_refill(s, ev):
                ev.append(
                    Event("refill_impossible", {"galaxy": UNIVERSE.slot_names[s.refill_queue[0]]})
                )
                finish_refill(s, ev)
            continue
        if phase == DRAW_PHASE and not sum(s.bag):
            ev.append(Event("bag_empty", {"seat": s.turn}))
            s.phase = MISSIONS
            continue
        if phase == EFFECT:
            legal = effect_options(s)
            if legal == [SKIP]:
                ev.append(Event("effect", {"seat": s.turn, "effect": "none"}))
                s.token_mode = False
                s.phase = MISSIONS
                check_empty(s)
                continue
            s._legal = legal
            break
        if phase == MISSIONS:
            found = completions(s)
            if not found:
                s.phase = NEW_MISSION
                continue
            s._legal = [*found, DONE]
            break
        if phase == NEW_MISSION and not s.available:
            ev.append(Event("kept_hand", {"seat": s.turn}))
            end_turn(s, ev)
            continue
        break


def end_turn(s: StelliumState, ev: list[Event]) -> None:
    s.placed = -1
    s.turn_count += 1
    s.turn = (s.turn + 1) % s.game.players
    if s.final and s.turn == s.first:
        s.phase = OVER
        ev.append(Event("game_over", {"scores": s.scores, "winners": list(s.winners)}))
    else:
        s.phase = DRAW_PHASE
        ev.append(Event("turn", {"seat": s.turn}))


def check_empty(s: StelliumState) -> None:
    """Queue each Galaxy left without bodies for a refill (the phase is resumed
    afterwards: Missions, since only effects and discards empty Galaxies)."""
    board = s.board
    for g, cells in enumerate(SLOTS):
        if g not in s.refill_queue and not any(board[c] for c in cells):
            s.refill_queue.append(g)
    if s.refill_queue and s.phase != REFILL:
        s.phase = REFILL
        s.refill_seats = []


def start_refill(s: StelliumState, ev: list[Event]) -> bool:
    """Draw the 5 bodies for the first queued Galaxy; False if nothing can be drawn."""
    g = s.refill_queue[0]
    pool = [0] * 5
    bag = s.bag
    for _ in range(min(REFILL_DRAW, sum(bag))):
        b = random_body(s, bag)
        bag[b] -= 1
        pool[b] += 1
    s.refill_pool = pool
    n = s.game.players
    s.refill_seats = [(s.turn - k) % n for k in range(1, n + 1)]
    ev.append(
        Event(
            "refill_drawn",
            {
                "seat": s.turn,
                "galaxy": UNIVERSE.slot_names[g],
                "bodies": pool_json(pool),
                "order": list(s.refill_seats),
            },
        )
    )
    return sum(pool) > 0


def finish_refill(s: StelliumState, ev: list[Event]) -> None:
    for b in (1, 2, 3, 4):
        s.bag[b] += s.refill_pool[b]
    if sum(s.refill_pool):
        ev.append(Event("refill_returned", {"bodies": pool_json(s.refill_pool)}))
    s.refill_pool = [0] * 5
    s.refill_seats = []
    s.refill_queue.pop(0)


def random_body(s: StelliumState, bag: list[int]) -> int:
    k = s.rng.below(bag[1] + bag[2] + bag[3] + bag[4])
    for b in (1, 2, 3, 4):
        if k < bag[b]:
            return b
        k -= bag[b]
    raise AssertionError("empty bag")  # pragma: no cover


def pool_json(pool: list[int]) -> dict[str, int]:
    return {BODIES[b]: pool[b] for b in (1, 2, 3, 4) if pool[b]}
