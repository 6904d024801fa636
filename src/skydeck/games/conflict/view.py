"""What each seat may know (``view``) and hidden parts re-drawn (``resample``).

Hidden: other seats' fleet choices (until a ship is deployed), the card another seat
holds, and the order of every deck (even one's own: decks are shuffled face down).
Public: who is ready, deck sizes once Deployment starts, everything on the table.
The layout is documented in VIEW.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Rng
from skydeck.games.conflict import battle as b
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.battle import (
    C_ALIVE,
    C_ANGLE,
    C_CUBES,
    C_DAMAGE,
    C_DELAYS,
    C_FIRED,
    C_OWNER,
    C_SHIP,
    C_X,
    C_Y,
)

if TYPE_CHECKING:
    from skydeck.games.conflict.state import ConflictState

_CATALOGUES: dict[tuple[str, ...], dict[str, Any]] = {}


def catalogue(st: ConflictState) -> dict[str, Any]:
    """Card designs of the races in play and the Meteors (public, shared: do not mutate)."""
    key = tuple(st.game.races)
    cat = _CATALOGUES.get(key)
    if cat is None:
        content = st.game.content
        ids = [i for r in key for i in content.fleets[r]] + list(content.meteors)
        cat = _CATALOGUES[key] = {content.ships[i].id: content.ships[i].to_json() for i in ids}
    return cat


def _pt(p: g.Point) -> list[float]:
    return [g.to_mm(p[0]), g.to_mm(p[1])]


def card_view(st: ConflictState, uid: int) -> dict[str, Any]:
    c = st.cards[uid]
    ship = st.game.content.ships[c[C_SHIP]]
    shape = st.game.shapes.shape(c[C_SHIP], c[C_X], c[C_Y], c[C_ANGLE])
    return {
        "card": uid,
        "ship": ship.id,
        "name": ship.name,
        "role": ship.role,
        "owner": c[C_OWNER] if c[C_OWNER] >= 0 else None,
        "x": c[C_X],
        "y": c[C_Y],
        "angle": c[C_ANGLE],
        "on_table": bool(c[C_ALIVE]),
        "initiative": b.effective_initiative(st, c),
        "hull": ship.hull,
        "vp": ship.vp,
        "damage": list(c[C_DAMAGE]),
        "cubes": c[C_CUBES],
        "delays": c[C_DELAYS],
        "fired": bool(c[C_FIRED]),
        "corners": [_pt(p) for p in shape.rect],
        "lasers": [
            {
                "from": _pt(p),
                "direction": (c[C_ANGLE] + lz.direction) % 360,
                "strength": s,
                "kind": k,
            }
            for (p, _d, s, k), lz in zip(shape.lasers, ship.lasers)
        ],
        "shields": [_pt(a) + _pt(q) for a, q in shape.shields],
    }


def _frozen(spot: tuple[int, int, int] | None) -> list[int] | None:
    return None if spot is None else list(spot)


def build_view(st: ConflictState, seat: int | None) -> dict[str, Any]:
    game = st.game
    content = game.content
    ships = content.ships
    scores = st.scores
    seats = []
    for s in range(game.players):
        own = seat == s
        seats.append(
            {
                "race": game.races[s],
                "ready": st.ready[s],
                "done": st.done[s],
                "deck": len(st.decks[s]),
                "holding": st.hands[s] >= 0,
                # after the alarm: where the card being played lies frozen (public: it
                # is on the table; its face shows when it is deployed)
                "frozen": _frozen(st.frozen[s]),
                "hand": ships[st.hands[s]].id if own and st.hands[s] >= 0 else None,
                "fleet": sorted(ships[i].id for i in st.fleets[s]) if own else None,
                "credits_left": st.credits_left(s) if own else None,
                "kill_pile": list(st.kills[s]),
                "score": scores[s],
            }
        )
    nxt = b.next_initiative(st) if st.phase == "battle" else None
    t = content.table
    return {
        "game": "conflict",
        "seat": seat,
        "phase": st.phase,
        "players": game.players,
        "scale": game.options["scale"],
        "credits": game.credits,
        "seconds": game.seconds,
        "deployment": game.options["deployment"],
        "clock": game.options["clock"],
        "cards_in_time": game.cards_in_time,
        "variants": list(game.options["variants"]),
        "table": {"width": t.table.width_mm, "height": t.table.height_mm},
        "card_size": {"width": t.card.width_mm, "length": t.card.length_mm},
        "seats": seats,
        "to_move": list(st.to_move),
        "cards": [card_view(st, u) for u in range(len(st.cards))],
        "battle": {
            "step": st.step,
            "initiative": st.initiative if st.initiative >= 0 else None,
            "next": nxt,
            "shots": st.last_shots,
        },
        "stopped_by": st.stopped_by if st.stopped_by >= 0 else None,
        "cubes": {"box": st.supply, "vaporised": st.vaporised},
        "scores": scores,
        "winners": list(st.winners),
        "ships": catalogue(st),
    }


def _redraw(
    st: ConflictState, seat: int, rng: Rng, placed: list[int], count: int
) -> list[int] | None:
    """``count`` regular ships of ``seat``'s race, none of them already ``placed``, that
    fit the credit limit together with the placed ones; None if a few tries fail."""
    content = st.game.content
    ships = content.ships
    pool = [i for i in content.regulars_of(st.game.races[seat]) if i not in placed]
    budget = st.game.credits - sum(ships[i].cost for i in placed)
    if count > len(pool):
        return None
    for _ in range(8):
        pick = rng.sample(pool, count)
        if sum(ships[i].cost for i in pick) <= budget:
            return pick
    return None


def resample(st: ConflictState, seat: int | None, rng: Rng) -> ConflictState:
    s = st.clone()
    ships = st.game.content.ships
    for o in range(st.game.players):
        if st.phase == "preparation":
            if o == seat:
                continue
            pool = list(st.game.content.regulars_of(st.game.races[o]))
            rng.shuffle(pool)
            fleet: list[int] = []
            budget = st.game.credits
            for i in pool:
                if ships[i].cost <= budget:
                    fleet.append(i)
                    budget -= ships[i].cost
            s.fleets[o] = fleet[: rng.below(len(fleet) + 1)]
            continue
        placed = [
            c[C_SHIP] for c in st.cards if c[C_OWNER] == o and ships[c[C_SHIP]].role == "ship"
        ]
        hidden = st.decks[o] + ([st.hands[o]] if st.hands[o] >= 0 else [])
        regular = [i for i in hidden if ships[i].role == "ship"]
        if o == seat:
            # one's own fleet is known; only the deck order below the hand is not
            deck = s.decks[o]
            slots = [k for k, i in enumerate(deck) if ships[i].role == "ship"]
            mine = [deck[k] for k in slots]
            rng.shuffle(mine)
            for k, i in zip(slots, mine):
                deck[k] = i
            continue
        fresh = _redraw(st, o, rng, placed, len(regular)) if regular else []
        if fresh is None:
            fresh = list(regular)
            rng.shuffle(fresh)
        it = iter(fresh)
        s.decks[o] = [next(it) if ships[i].role == "ship" else i for i in st.decks[o]]
        if st.hands[o] >= 0 and ships[st.hands[o]].role == "ship":
            s.hands[o] = next(it)
        # cards returned to the box are never seen again: any choice is consistent
        s.fleets[o] = placed + [i for i in s.decks[o] if ships[i].role == "ship"]
        if s.hands[o] >= 0 and ships[s.hands[o]].role == "ship":
            s.fleets[o].append(s.hands[o])
    s._free = st._free
    return s
