"""Readable sentences for Stellarion's actions (menus, ``Game.describe``) and events (the
log, ``Game.describe_event``): cards by their faces ("Alpha Ship"), decks and Voyages by
name, never the notation's ids ("alpha.ship", "out:beta.planet", "beta2").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skydeck.core import Action
from skydeck.core.game import generic_event_sentence, seat_name, third_person
from skydeck.core.sentences import listed

if TYPE_CHECKING:
    from skydeck.games.stellarion.game import StellarionGame


def face(name: Any) -> str:
    """'alpha.ship' -> 'Alpha Ship'; 'blackhole' -> 'Black Hole'."""
    text = str(name)
    if text == "blackhole":
        return "Black Hole"
    return " ".join(p.capitalize() for p in text.split("."))


def deck(name: Any) -> str:
    """'alpha' -> 'the Alpha deck'."""
    return f"the {str(name).capitalize()} deck"


def source(name: Any, cards: Mapping[str, Any] | None = None, where: bool = False) -> str:
    """Where a Launch or Coordinate takes a card: a deck's top (the card itself when
    ``cards``, the tops the log event recorded, names it), the Outpost, a token.
    ``where``: a menu's sentence also names the deck ('the Delta Planet (Planet top)'),
    since two decks may show the same card and the choice of deck matters."""
    text = str(name)
    if cards and text in cards:
        deck_named = f" ({text.capitalize()} top)" if where else ""
        return f"the {face(cards[text])}{deck_named}"
    if text == "star":
        return "a Shooting Star"
    if text.startswith("out:"):
        return f"the {face(text[4:])} from the Outpost"
    return f"the {text.capitalize()} top"


def tops_in_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """The face-up deck tops a seat sees (deck -> face): a menu names the cards a Launch
    or a Coordinate would use, as the log names those it used."""
    return {
        str(d["name"]): d["top"] for d in view.get("decks", ()) if d.get("face_up") and d.get("top")
    }


def plural(name: str) -> str:
    """'Delta Planet' -> 'Delta Planets'; 'Beta Stars' stays."""
    return name if name.endswith("s") else name + "s"


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (tuple, list)) else [value]


def describe(
    game: StellarionGame,
    action: Action,
    cards: Mapping[str, Any] | None = None,
    where: bool = False,
) -> str:
    """'Launch Beta Colony with a Shooting Star, the Nebula top, ...', 'search the Alpha
    deck for an Alpha Ship': what the action does, in the cards' names. ``cards`` (deck
    -> face, as the log's event holds them) names the deck tops used by their cards:
    'Coordinate with the Beta Nebula and the Delta Nebula'; ``where`` (a menu, from the
    seat's view) adds each card's deck: 'the Beta Nebula (Nebula top)'."""
    a, k = action.args, action.kind
    try:
        if k == "launch":
            used = listed([source(x, cards, where) for x in _items(a[1])])
            return f"Launch {voyage(game, a[0])} with {used}"
        if k == "coordinate":
            pair = [source(x, cards, where) for x in _items(a[0])]
            if len(pair) == 2 and pair[0] == pair[1] and pair[0].startswith("the "):
                return f"Coordinate with two {plural(pair[0][4:])}"  # two identical tops
            return f"Coordinate with {listed(pair)}"
        if k == "traverse":
            decks = listed([str(x).capitalize() for x in _items(a[0])])
            return f"Traverse with the Black Holes on the {decks} decks"
        if k == "take":
            who = f" for Player {int(a[1]) + 1}" if len(a) > 1 else ""  # type: ignore[arg-type]
            return f"take {voyage(game, a[0])}{who}"
        if k == "meteor":
            who = f" (Player {int(a[1]) + 1} spends them)" if len(a) > 1 else ""  # type: ignore[arg-type]
            return f"trade two Meteors for {voyage(game, a[0])}{who}"
        if k == "prove":
            return "prove the Theory"
        if k == "bottom":
            return f"put the used {face(a[1])} at the bottom of {deck(a[0])}"
        if k == "discard":
            return "discard the used Ships"
        if k == "search":
            return f"search {deck(a[0])} for {face(a[1])}"
        if k == "stars":
            return f"look at the top two cards of {deck(a[0])}"
        if k == "place":
            top, bottom = _items(a[0]), _items(a[1])
            parts = []
            if top:
                parts.append(f"{listed([face(x) for x in top])} face up on top")
            if bottom:
                parts.append(f"{listed([face(x) for x in bottom])} at the bottom")
            return "put " + " and ".join(parts)
        if k == "retrieve":
            onto = " onto the top of the deck" if len(a) > 2 else ""
            back = listed([face(x) for x in _items(a[1])])
            return f"take {back} back from the {str(a[0]).capitalize()} discard pile{onto}"
        if k == "outpost":
            tops = [source(x, cards, where) for x in _items(a[0])]
            return f"move {listed(tops)} to the Outpost"
        if k == "forfeit":
            if a and int(a[0]):  # type: ignore[arg-type]
                return f"forfeit the power: the Glaucous Sun goes back {a[0]} spaces"
            return "forfeit the power"
        if k == "stop":
            return "stop using the power"
        if k == "reveal":
            return f"turn up the top card of {deck(a[0])}"
        if k == "end":
            return "end the turn"
    except (IndexError, TypeError, ValueError):
        pass
    return str(action)


def voyage(game: StellarionGame, vid: Any) -> str:
    v = game.voyage_index.get(str(vid))
    return game.voyage_names[v] if v is not None else str(vid)


def describe_event(game: StellarionGame, e: Mapping[str, Any], names: Sequence[str]) -> str:
    """One log sentence per event; everything in Stellarion is public (co-op)."""
    k = e.get("kind")
    who = seat_name(names, e["seat"]) if e.get("seat") is not None else "The team"
    if k == "action":
        try:
            text = describe(game, game.parse_action(str(e["action"])), e.get("cards"))
        except ValueError:
            text = str(e["action"])
        return f"{who} {third_person(text)}"
    if k == "revealed":
        return f"The {str(e['deck']).capitalize()} deck turns up {face(e['card'])}"
    if k == "looked":
        cards = listed([face(c) for c in e.get("cards", [])])
        return f"The top cards of {deck(e['deck'])} are {cards} (top last)"
    if k == "sun":
        return f"The Glaucous Sun moves to space {e['position']}"
    if k == "meteor_taken":
        return f"A Meteor is picked up on space {e['space']}"
    if k == "won":
        return f"Victory: {e.get('reason') or 'every Voyage launched'}"
    if k == "lost":
        return f"Defeat: {e.get('reason') or 'the game is lost'}"
    return generic_event_sentence(e, names)
