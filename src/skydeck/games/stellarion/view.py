"""What a seat may know, and re-drawing what it may not (for determinization).

Stellarion is co-operative and all information is shared at the table, so every seat
and the spectator get the same view. The only hidden thing is order: the order of the
unknown middle of each deck and of the Theory stack below its top token.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from skydeck.core import Rng
from skydeck.games.stellarion.cards import (
    DECKS,
    FACE_NAMES,
    GALAXIES,
    TYPES,
)
from skydeck.games.stellarion.legal import (
    LOOK,
    PHASE_NAMES,
    POWER,
    THRUST,
    TRAVERSE,
    accessible,
)

if TYPE_CHECKING:
    from skydeck.games.stellarion.state import StellarionState

POWER_NAMES = ("ship", "nebula", "stars", "planet")


def _count(cards: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in sorted(c & 31 for c in cards):
        name = FACE_NAMES[c]
        counts[name] = counts.get(name, 0) + 1
    return counts




def _deck(s: StellarionState, d: int) -> dict[str, Any]:
    """One deck as a seat sees it. Most actions leave most decks alone while a view is
    made after each, so the deck's part is remembered by what it shows (its cards in
    order, how many are known at each end, face up, its discards) and handed out as a
    copy, lists too: a view is the caller's to change."""
    cards, discards = s.decks[d], s.discards[d]
    key = (d, tuple(cards), s.ktop[d], s.kbot[d], s.up[d], tuple(discards))
    deck = _DECKS.get(key)
    if deck is None:
        if len(_DECKS) >= _DECKS_MAX:
            _DECKS.popitem(last=False)  # the oldest: recent decks are the ones asked for
        deck = _DECKS[key] = _make_deck(d, cards, key[2], key[3], key[4], discards)
    return {
        **deck,
        "known_top": deck["known_top"].copy(),
        "known_bottom": deck["known_bottom"].copy(),
        "contents": deck["contents"].copy(),
        "discards": deck["discards"].copy(),
    }


def _make_deck(
    d: int, cards: list[int], kt: int, kb: int, up: Any, discards: list[int]
) -> dict[str, Any]:
    names = FACE_NAMES
    return {
        "name": DECKS[d],
        "count": len(cards),
        "face_up": bool(up),
        "top": names[cards[-1] & 31] if up else None,
        # the known cards from the top down, without reversing the whole deck
        "known_top": [names[c & 31] for c in cards[: -kt - 1 : -1]] if kt else [],
        "known_bottom": [names[c & 31] for c in cards[:kb]],
        "contents": _count(cards),
        "discards": [names[c & 31] for c in discards],
    }


#: (deck, its cards, known at top and bottom, face up, discards) -> its part of a view,
#: the oldest let go when full: a server keeps this for its whole life, so it is kept
#: small (about 1 KB an entry: 2 MB at most; the soak test checks memory stays flat)
_DECKS: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_DECKS_MAX = 2048


def make_view(s: StellarionState, seat: int | None) -> dict[str, Any]:
    game = s.game
    decks = [_deck(s, d) for d in range(8)]
    ids = game.voyage_ids
    view: dict[str, Any] = {
        "game": "stellarion",
        "seat": seat,
        "players": game.players,
        "expansions": list(game.options["expansions"]),
        "turn": s.turn,
        "turns": s.turns,
        "to_move": list(s.to_move),
        "phase": PHASE_NAMES[s.phase],
        "decks": decks,
        "outpost": [{"card": FACE_NAMES[c & 31], "deck": DECKS[c >> 5]} for c in s.outpost],
        "shooting_stars": s.stars,
        "voyages": {
            "columns": [[ids[v] for v in col] for col in s.columns],
            "accessible": [ids[v] for v in accessible(s)],
            "galaxy": {ids[v]: GALAXIES[game.voyage_galaxy[v]] for c in s.columns for v in c},
            "names": {ids[v]: game.voyage_names[v] for p in (s.columns + s.piles) for v in p},
            "mode": "columns" if game.mirrors else "stacks",
        },
        "victory": [[ids[v] for v in pile] for pile in s.piles],
        "outcome": "won" if s.outcome > 0 else "lost" if s.outcome < 0 else "playing",
        "reason": s.reason,
        "pending": _pending(s),
    }
    if game.theories:
        view["theories"] = {
            "top": game.theory_ids[s.theories[-1]] if s.theories else None,
            "top_type": TYPES[game.theory_type[s.theories[-1]]] if s.theories else None,
            "top_name": game.theory_names[s.theories[-1]] if s.theories else None,
            "left": len(s.theories),
            "remaining": sorted(game.theory_ids[t] for t in s.theories),
            "proven": [game.theory_ids[t] for t in s.proven],
        }
        view["breakthrough"] = {
            "id": game.breakthrough_ids[s.breakthrough],
            "name": game.breakthrough_names[s.breakthrough],
            "type": TYPES[s.breakthrough],
        }
    if game.glaucous_sun:
        view["sun"] = {
            "position": s.sun,
            "start": game.sun_start,
            "final": game.sun_final,
            "meteors_on_board": list(s.meteors),
            "meteors_held": s.held,
        }
    return view


def _pending(s: StellarionState) -> dict[str, Any] | None:
    """The Coordinate or Traverse being resolved, for the UIs."""
    if s.phase in (POWER, LOOK, THRUST):
        return {
            "kind": "coordinate",
            "power": POWER_NAMES[s.p_type],
            "major": bool(s.p_major),
            "uses_left": s.p_left,
            "started": bool(s.p_started),
            "deck": DECKS[s.p_deck] if s.p_deck >= 0 else None,
            "cards": [f"{FACE_NAMES[c & 31]}/{DECKS[c >> 5]}" for c in s.p_cards],
        }
    if s.phase == TRAVERSE:
        return {"kind": "traverse", "takes_left": s.p_take}
    return None


def resample(s: StellarionState, seat: int | None, rng: Rng) -> StellarionState:
    """Shuffle each deck's unknown middle and the Theory stack under its top token;
    the copy gets a fresh generator so it cannot replay the real future shuffles."""
    out = s.clone()
    for d in range(8):
        deck = out.decks[d]
        lo, hi = out.kbot[d], len(deck) - out.ktop[d]
        if hi - lo > 1:
            middle = deck[lo:hi]
            rng.shuffle(middle)
            deck[lo:hi] = middle
    if len(out.theories) > 2:
        below = out.theories[:-1]
        rng.shuffle(below)
        out.theories[:-1] = below
    out.rng = rng.spawn()
    out._legal = None
    out._list = None
    out.settle()
    return out
