"""Readable sentences for Stellar Conflict's events (the log, ``Game.describe_event``).

A card on the table is named by its ship and owner ("Raider II of Player 2"): events
carry the table index, and the cards on the table are public, so the state after the
move may be read for them. Hidden events (another seat's purchases and draws) reach
here already filtered: their public form names no ship.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skydeck.core import Action
from skydeck.core.game import generic_event_sentence, seat_name
from skydeck.core.sentences import capitalised, counted

if TYPE_CHECKING:
    from skydeck.games.conflict.game import ConflictGame
    from skydeck.games.conflict.state import ConflictState

# indexes into a table card (battle.py: C_SHIP, C_OWNER)
_SHIP, _OWNER = 0, 1

_RESULT = {
    "damage": "it hits {t}",
    "delay": "it delays {t}",
    "ion_no_effect": "it hits {t}, to no effect",
    "immune": "it hits {t}, whose hull is immune to it",
}


def ship_name(game: ConflictGame, ship_id: Any) -> str:
    idx = game.content.by_id.get(str(ship_id))
    return game.content.ships[idx].name if idx is not None else "a ship"


def card_name(
    game: ConflictGame, names: Sequence[str], state: ConflictState | None, uid: Any
) -> str:
    """'Raider II of Player 2', 'the Glass Meteor'; 'a ship' without the table."""
    if uid is None:
        return "nothing"
    cards = getattr(state, "cards", None)
    if cards is None or not isinstance(uid, int) or not 0 <= uid < len(cards):
        return "a ship"
    c = cards[uid]
    ship = game.content.ships[c[_SHIP]]
    if c[_OWNER] < 0:
        return f"the {ship.name}"
    return f"{ship.name} of {seat_name(names, c[_OWNER])}"


_LASER_MARK = {"ion": "i", "piercing": "p", "normal": ""}


def ship_line(
    name: str,
    cost: int,
    initiative: int,
    hull: int,
    vp: int,
    lasers: Sequence[tuple[int, str]] | None,
) -> str:
    """'Tempest I (3 cr, init 4, hull 3)', with ', 1 VP, lasers 3+1i' when the lasers are
    given (a menu or the card in hand, where the seat weighs them)."""
    more = ""
    if lasers is not None:
        marks = "+".join(f"{s}{_LASER_MARK.get(k, '')}" for s, k in lasers)
        more = f", {vp} VP, lasers {marks or '-'}"
    return f"{name} ({cost} cr, init {initiative}, hull {hull}{more})"


def describe(game: ConflictGame, action: Action, view: Mapping[str, Any] | None = None) -> str:
    """A move as menus and logs name it: 'buy Tempest I (3 cr, init 4, hull 3)'. Given
    the seat's view (a menu), a purchase also gives the card's VP and lasers and a
    placement names the card in hand: what the seat weighs before choosing."""
    k, args = action.kind, action.args
    if k == "buy" and args:
        idx = game.content.by_id.get(str(args[0]))
        if idx is not None:
            s = game.content.ships[idx]
            lasers = [(lz.strength, lz.kind) for lz in s.lasers] if view is not None else None
            return f"{k} {ship_line(s.name, s.cost, s.initiative, s.hull, s.vp, lasers)}"
    if k == "timeout" and all(type(v) is int for v in args):
        n = [int(v) for v in args]  # type: ignore[arg-type]
        moving = [  # the server's clock, with the cards being moved
            f"Player {n[i] + 1}'s at ({n[i + 1]}, {n[i + 2]}) mm facing {n[i + 3]} degrees"
            for i in range(0, len(n) - 3, 4)
        ]
        return "the clock: " + (
            "cards being moved: " + "; ".join(moving) if moving else "no card being moved"
        )
    if k == "deploy" and not args:
        return "deploy here (the frozen card lands where it is)"
    if k == "remove" and not args:
        return "remove (the frozen card leaves the game)"
    if k == "close" and not args:
        return "the clock: the grace period after the alarm is over"
    if k == "place" and len(args) == 3:
        x, y, a = args
        card = _card_in_hand(game, view)
        return f"place {card + ' ' if card else ''}at ({x}, {y}) mm facing {a} degrees"
    if view is not None and k == "done":
        return "deploy no more cards"
    if view is not None and k == "fire" and view.get("battle", {}).get("next") is not None:
        return f"fire: resolve initiative {view['battle']['next']}"
    return str(action)


def _card_in_hand(game: ConflictGame, view: Mapping[str, Any] | None) -> str:
    """The ship the seat is deploying, from its own view ('' without one)."""
    if view is None or view.get("seat") is None:
        return ""
    hand = view["seats"][view["seat"]].get("hand")
    return ship_name(game, hand) if hand else ""


def describe_event(
    game: ConflictGame,
    e: Mapping[str, Any],
    names: Sequence[str],
    state: ConflictState | None = None,
) -> str:
    k = e.get("kind")
    who = seat_name(names, e["seat"]) if e.get("seat") is not None else "Someone"

    def card(uid: Any) -> str:
        return card_name(game, names, state, uid)

    if k == "buy":
        return (
            f"{who} adds {ship_name(game, e['ship'])} to the fleet"
            if "ship" in e
            else (f"{who} adds a ship to the fleet")
        )
    if k == "sell":
        return (
            f"{who} takes {ship_name(game, e['ship'])} out of the fleet"
            if "ship" in e
            else (f"{who} takes a ship out of the fleet")
        )
    if k == "ready":
        return f"{who} is ready"
    if k == "deployment":
        decks = e.get("decks") or []
        cards = ", ".join(
            f"{seat_name(names, s)} {counted(int(n), 'card')}" for s, n in enumerate(decks)
        )
        clock = "; the clock is running" if e.get("timed") else ""
        return f"Deployment begins ({cards}){clock}"
    if k == "meteor":
        return (
            f"The {ship_name(game, e['ship'])} lands at ({e['x']}, {e['y']}) mm with "
            f"{counted(int(e['cubes']), 'cargo cube')}"
        )
    if k == "drew":
        left = f" ({counted(int(e['deck']), 'card')} left in the deck)" if "deck" in e else ""
        if "ship" in e:
            return f"{who} draws {ship_name(game, e['ship'])}{left}"
        return f"{who} draws a card{left}"
    if k == "deck_empty":
        return f"{who}'s deck is empty"
    if k in ("placed", "deployed"):
        what = ship_name(game, e["ship"]) if "ship" in e else "a ship"
        where = f" at ({e['x']}, {e['y']}) mm facing {e['angle']} degrees" if "x" in e else ""
        return f"{who} deploys {what}{where}"
    if k == "done":
        return f"{who} stops deploying"
    if k == "time_up":
        return f"Time is up for {who} after {counted(int(e['cards']), 'card')} on the table"
    if k == "frozen":
        return (
            f"{who}'s card stops at ({e['x']}, {e['y']}) mm facing {e['angle']} degrees: "
            "deploy it there or remove it"
        )
    if k == "removed":
        why = f": {e['why']}" if e.get("why") else ""
        return f"{who}'s card in hand leaves the game{why}"
    if k == "stop":
        if e.get("why") == "timeout":
            return "Time is up: deployment stops"
        return f"{who} calls stop: deployment ends"
    if k == "cargo":
        cubes = counted(int(e["cubes"]), "cargo cube")
        return f"{capitalised(card(e['card']))} is loaded with {cubes}"
    if k == "battle":
        first = f": initiative {e['next']} fires first" if e.get("next") is not None else ""
        return f"The battle begins{first}"
    if k == "initiative":
        firing = [card(u) for u in e.get("firing", [])]
        listed = ", ".join(firing) if firing else "nobody"
        return f"Initiative {e['initiative']} fires: {listed}"
    if k == "laser":
        return _laser(e, card)
    if k == "delay":
        delays = counted(int(e["delays"]), "Delay token")
        return f"{capitalised(card(e['card']))} is delayed ({delays})"
    if k == "cubes":
        return _cubes(e, card)
    if k == "destroyed":
        return f"{capitalised(card(e['card']))} is destroyed"
    if k == "depleted":
        return f"{capitalised(card(e['card']))} has no cargo left and leaves the table"
    if k == "regenerated":
        removed = counted(int(e["removed"]), "damage", "damage")
        return f"{capitalised(card(e['card']))} repairs {removed}"
    if k == "over":
        return _over(e, names)
    return generic_event_sentence(e, names)


def _laser(e: Mapping[str, Any], card: Any) -> str:
    kind = str(e.get("laser_kind", "normal"))
    laser = "a laser" if kind == "normal" else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} laser"
    target = e.get("target")
    result = str(e.get("result", ""))
    head = f"{capitalised(card(e.get('from_card')))} fires {laser} of strength {e.get('strength')}"
    if target is None:
        return f"{head}: it misses"
    t = card(target)
    if result == "shield":
        return f"{head} at {t}: a shield stops it"
    if result == "cargo":
        return f"{head}: it hits the cargo of {t}"
    dealt = f" for {counted(int(e['damage']), 'damage', 'damage')}" if e.get("damage") else ""
    return f"{head}: {_RESULT.get(result, 'it hits {t}').format(t=t)}{dealt}"


def _cubes(e: Mapping[str, Any], card: Any) -> str:
    n = counted(int(e["cubes"]), "cargo cube")
    src = card(e.get("from_card"))
    why = e.get("why")
    if why == "stolen":
        return f"{capitalised(card(e.get('to_card')))} steals {n} from {src}"
    if why == "final_blow":
        return (
            f"{capitalised(card(e.get('to_card')))} struck the final blow and takes {n} from {src}"
        )
    are = "is" if int(e["cubes"]) == 1 else "are"
    if why == "own":
        return f"{n} from {src} {are} lost: its own side fired on it"
    return f"{n} aboard {src} {are} lost with it"


def _over(e: Mapping[str, Any], names: Sequence[str]) -> str:
    scores = ", ".join(f"{seat_name(names, s)} {int(v)}" for s, v in enumerate(e.get("scores", [])))
    winners = [seat_name(names, s) for s in e.get("winners", [])]
    if not winners:
        return f"The battle is over ({scores})"
    if len(winners) == 1:
        return f"The battle is over: {winners[0]} wins ({scores})"
    return f"The battle is over: {' and '.join(winners)} share the win ({scores})"
