"""What each action does: a body drawn and placed, its effect (Swap, Collision,
Rotation, Attraction, or a token's instead), a Mission completed and the body kept,
a refill, a Mission taken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event
from skydeck.games.stellium.content import BODIES, BODY_CODE, COLOURS
from skydeck.games.stellium.notation import EFFECT_BODY
from skydeck.games.stellium.rules.phases import (
    check_empty,
    end_turn,
    finish_refill,
    random_body,
)
from skydeck.games.stellium.tables import (
    CARD_INDEX,
    CARDS,
    DIR_INDEX,
    DIRS,
    EFFECT,
    GALAXY_OF,
    GALAXY_SPACES,
    IDX,
    KEEP,
    MISSIONS,
    NAMES,
    PLACE,
    SLOTS,
    STEP,
    UNIVERSE,
)

if TYPE_CHECKING:
    from skydeck.games.stellium.state import StelliumState


def draw(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    if action.kind == "timeout":
        body = random_body(s, s.bag)
        ev.append(Event("timeout", {"seat": seat}))
    else:
        body = BODY_CODE[str(action.args[0])]
    s.bag[body] -= 1
    s.drawn = body
    s.phase = PLACE
    ev.append(Event("drew", {"seat": seat, "body": BODIES[body]}))


def place(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    cell = IDX[str(action.args[0])]
    body, s.drawn = s.drawn, 0
    s.placed = cell
    if len(action.args) == 2:  # a Comet's Collision
        d = DIR_INDEX[str(action.args[1])]
        off = push(s, cell, d)
        s.board[cell] = body
        ev.append(Event("placed", {"seat": seat, "body": BODIES[body], "space": NAMES[cell]}))
        ev.append(push_event(s, seat, "collision", cell, d, off))
        s.phase = MISSIONS
        check_empty(s)
        return
    s.board[cell] = body
    ev.append(Event("placed", {"seat": seat, "body": BODIES[body], "space": NAMES[cell]}))
    s.token_mode = body == 2 and comet_could_collide_before(s, cell)
    s.phase = EFFECT


def comet_could_collide_before(s: StelliumState, cell: int) -> bool:
    """Whether a Comet just put on an empty space had somewhere to collide (then a
    token must replace its effect; otherwise its effect simply had no target)."""
    board = s.board
    return any(board[c] for c in GALAXY_SPACES if c != cell)


def push(s: StelliumState, start: int, d: int) -> int:
    """Push the contiguous line of bodies from ``start`` one step towards ``d``.
    Leaves ``start`` empty; returns the body pushed off the Universe (0: none)."""
    board = s.board
    chain = [start]
    nxt = STEP[start][d]
    while nxt >= 0 and board[nxt]:
        chain.append(nxt)
        nxt = STEP[nxt][d]
    off = 0
    if nxt < 0:
        off = board[chain[-1]]
        s.bag[off] += 1
    else:
        board[nxt] = board[chain[-1]]
    for k in range(len(chain) - 1, 0, -1):
        board[chain[k]] = board[chain[k - 1]]
    board[start] = 0
    return off


def push_event(s: StelliumState, seat: int, how: str, start: int, d: int, off: int) -> Event:
    data: dict[str, Any] = {
        "seat": seat,
        "effect": how,
        "from": NAMES[start],
        "direction": DIRS[d][0],
    }
    if off:
        data["off_edge"] = BODIES[off]
    return Event("effect", data)


def effect(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    p = s.placed
    body = s.board[p]
    kind = action.kind
    board = s.board
    if kind == "skip":
        ev.append(Event("effect", {"seat": seat, "effect": "none"}))
    else:
        eff = EFFECT_BODY[kind]
        if eff != body:
            s.tokens[seat] &= ~(1 << eff)
            ev.append(Event("token", {"seat": seat, "colour": COLOURS[eff]}))
        if kind == "swap":
            a, b = IDX[str(action.args[0])], IDX[str(action.args[1])]
            board[a], board[b] = board[b], board[a]
            ev.append(
                Event("effect", {"seat": seat, "effect": "swap", "spaces": [NAMES[a], NAMES[b]]})
            )
        elif kind == "push":
            d = DIR_INDEX[str(action.args[0])]
            q = STEP[p][d]
            off = push(s, q, d)
            board[q], board[p] = board[p], 0
            s.placed = q
            ev.append(push_event(s, seat, "collision", q, d, off))
        elif kind == "rotate":
            turns = int(str(action.args[0])) // UNIVERSE.turn_degrees
            rotate(s, GALAXY_OF[p], turns)
            ev.append(
                Event(
                    "effect",
                    {
                        "seat": seat,
                        "effect": "rotation",
                        "galaxy": UNIVERSE.slot_names[GALAXY_OF[p]],
                        "degrees": turns * UNIVERSE.turn_degrees,
                    },
                )
            )
        else:
            h, b = IDX[str(action.args[0])], IDX[str(action.args[1])]
            board[h], board[b] = board[b], 0
            ev.append(
                Event(
                    "effect",
                    {
                        "seat": seat,
                        "effect": "attraction",
                        "hole": NAMES[h],
                        "from": NAMES[b],
                    },
                )
            )
    s.token_mode = False
    s.phase = MISSIONS
    check_empty(s)


def rotate(s: StelliumState, g: int, turns: int) -> None:
    """Turn Galaxy ``g`` clockwise: its bodies and its coloured holes move with it."""
    cells = SLOTS[g]
    perm = UNIVERSE.turn_perm[turns]
    old = [s.board[c] for c in cells]
    for local in range(len(cells)):
        s.board[cells[perm[local]]] = old[local]
    s.turns[g] = (s.turns[g] + turns) % UNIVERSE.full_turn
    if s.placed >= 0 and GALAXY_OF[s.placed] == g:
        s.placed = cells[perm[cells.index(s.placed)]]
    recolour_slot(s, g)


def recolour(s: StelliumState) -> None:
    for g in range(len(s.discs)):
        recolour_slot(s, g)


def recolour_slot(s: StelliumState, g: int) -> None:
    table = UNIVERSE.disc_colour[s.discs[g]][s.turns[g]]
    for local, c in enumerate(SLOTS[g]):
        s.colours[c] = table[local]


def complete(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    c = CARD_INDEX[str(action.args[0])]
    cells = [IDX[str(n)] for n in action.args[1]]  # type: ignore[union-attr]
    card = CARDS[c]
    s.hands[seat].remove(c)
    s.completed[seat].append(c)
    s.points[seat] += card.points
    ev.append(
        Event(
            "completed",
            {
                "seat": seat,
                "mission": card.id,
                "points": card.points,
                "spaces": [NAMES[i] for i in cells],
            },
        )
    )
    if s.points[seat] >= s.game.target and seat not in s.reached:
        s.reached.append(seat)
        if not s.final:
            s.final = True
            ev.append(Event("final_round", {"seat": seat, "reason": "target"}))
    s.keep_cells = cells
    s.phase = KEEP


def keep(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    kept = IDX[str(action.args[0])]
    back = []
    for c in s.keep_cells:
        if c != kept:
            body = s.board[c]
            s.bag[body] += 1
            s.board[c] = 0
            back.append(BODIES[body])
    s.keep_cells = []
    ev.append(Event("discarded", {"seat": seat, "kept": NAMES[kept], "to_bag": back}))
    s.phase = MISSIONS
    check_empty(s)


def refill(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    body = BODY_CODE[str(action.args[0])]
    cell = IDX[str(action.args[1])]
    s.refill_pool[body] -= 1
    s.board[cell] = body
    s.refill_seats.pop(0)
    ev.append(Event("refilled", {"seat": seat, "body": BODIES[body], "space": NAMES[cell]}))
    if not s.refill_seats or not sum(s.refill_pool):
        finish_refill(s, ev)


def take(s: StelliumState, action: Action, seat: int, ev: list[Event]) -> None:
    hand = s.hands[seat]
    if action.kind == "take":
        c = CARD_INDEX[str(action.args[0])]
        if len(action.args) == 2:
            drop = CARD_INDEX[str(action.args[1])]
            hand.remove(drop)
            s.boxed.append(drop)
            ev.append(Event("mission_discarded", {"seat": seat, "mission": CARDS[drop].id}))
        s.available.remove(c)
        hand.append(c)
        ev.append(Event("took", {"seat": seat, "mission": CARDS[c].id}))
        refresh(s, ev)
    else:
        ev.append(Event("kept_hand", {"seat": seat}))
    end_turn(s, ev)


def refresh(s: StelliumState, ev: list[Event]) -> None:
    if not s.reserve:
        return
    c = s.reserve.pop()
    s.reveals += 1
    s.available.append(c)
    ev.append(Event("revealed", {"mission": CARDS[c].id, "reserve": len(s.reserve)}))
    if not s.reserve and not s.final:
        s.final = True
        ev.append(Event("final_round", {"seat": s.turn, "reason": "reserve"}))
