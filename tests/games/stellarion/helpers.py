"""Build exact Stellarion positions from a readable spec, for scenario tests.

Decks are written top card first; a leading ``*`` marks the top as face up (in the
Observatory). Unlisted decks are empty. Example::

    pos(decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*beta.ship"},
        voyages=[["alpha1"], [], [], []])
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from skydeck.games.stellarion.cards import (
    DECK_INDEX,
    FACE_INDEX,
    FACE_NAMES,
    TYPES,
    card,
    full_deck,
    parse_card,
)
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.state import StellarionState


def reveal_game(reveal: str = "all", **opts: Any) -> StellarionGame:
    """A game whose content pack uses the given end-of-turn reveal reading."""
    return StellarionGame(reveal=reveal, **opts)


def deck_cards(name: str, spec: str) -> tuple[list[int], bool]:
    """Cards of deck ``name`` (bottom first, as the state stores them) and face-up flag."""
    d = DECK_INDEX[name]
    tokens = spec.split()
    up = bool(tokens) and tokens[0].startswith("*")
    faces = [FACE_INDEX[t.lstrip("*")] for t in tokens]
    for f in faces:
        if f < 16 and d not in (f >> 2, 4 + (f & 3)):
            raise ValueError(f"{FACE_NAMES[f]} does not belong in the {name} deck")
    return [card(d, f) for f in reversed(faces)], up


def pos(
    *,
    players: int = 1,
    expansions: tuple[str, ...] | list[str] = (),
    stars: int | None = None,
    decks: dict[str, str] | None = None,
    known: dict[str, tuple[int, int]] | None = None,
    discards: dict[str, str] | None = None,
    outpost: tuple[str, ...] | list[str] = (),
    voyages: list[list[str]] | None = None,
    piles: list[list[str]] | None = None,
    theories: list[str] | None = None,
    breakthrough: str | None = None,
    sun: int | None = None,
    meteors: list[int] | None = None,
    held: int = 0,
    turn: int = 0,
    seed: int = 0,
    reveal: str = "all",
) -> StellarionState:
    opts: dict[str, Any] = {"players": players, "expansions": list(expansions)}
    if stars is not None:
        opts["shooting_stars"] = stars
    game = reveal_game(reveal, **opts)
    s = game.new(seed)
    assert isinstance(s, StellarionState)
    s.decks = [[] for _ in range(8)]
    s.up = [0] * 8
    s.ktop = [0] * 8
    s.kbot = [0] * 8
    for name, spec in (decks or {}).items():
        cards, up = deck_cards(name, spec)
        d = DECK_INDEX[name]
        s.decks[d] = cards
        s.up[d] = int(up)
        s.ktop[d] = int(up)
    for name, (kt, kb) in (known or {}).items():
        d = DECK_INDEX[name]
        s.ktop[d], s.kbot[d] = kt, kb
    s.discards = [[] for _ in range(8)]
    for name, spec in (discards or {}).items():
        d = DECK_INDEX[name]
        s.discards[d] = [card(d, FACE_INDEX[t]) for t in spec.split()]
    s.outpost = [parse_card(t) for t in outpost]
    idx = game.voyage_index  # type: ignore[attr-defined]
    if voyages is not None:
        s.columns = [[idx[v] for v in col] for col in voyages]
    s.piles = [[idx[v] for v in p] for p in (piles or [[] for _ in range(players)])]
    if theories is not None:
        tids = game.theory_ids  # type: ignore[attr-defined]
        s.theories = [tids.index(t) for t in reversed(theories)]  # listed top first
    if breakthrough is not None:
        s.breakthrough = game.breakthrough_ids.index(breakthrough)  # type: ignore[attr-defined]
    if sun is not None:
        s.sun = sun
    if meteors is not None:
        s.meteors = list(meteors)
    s.held = held
    s.turn = turn
    s.phase = 0
    s.outcome = 0
    s.reason = ""
    s._legal = None
    s.settle()
    return s


def act(s: StellarionState, text: str, seat: int | None = None) -> None:
    s.apply(s.game.parse_action(text), s.turn if seat is None else seat)


def legal(s: StellarionState) -> list[str]:
    return [str(a) for a in s.legal_actions(s.turn)] if not s.is_over else []


def has(s: StellarionState, text: str) -> bool:
    return s.game.parse_action(text) in s.legal_actions(s.turn)


def top(s: StellarionState, deck: str) -> str | None:
    d = DECK_INDEX[deck]
    return FACE_NAMES[s.decks[d][-1] & 31] if s.decks[d] else None


def faces(cards: list[int]) -> list[str]:
    return [FACE_NAMES[c & 31] for c in cards]


def pile(s: StellarionState, deck: str) -> list[str]:
    return faces(s.discards[DECK_INDEX[deck]])


def deck(s: StellarionState, name: str) -> list[str]:
    """Top first."""
    return faces(s.decks[DECK_INDEX[name]][::-1])


def every_card(s: StellarionState) -> Counter[int]:
    """All Celestial/Black Hole/Mirror cards wherever they are."""
    found: Counter[int] = Counter()
    for d in range(8):
        found.update(s.decks[d])
        found.update(s.discards[d])
    found.update(s.outpost)
    return found


def full_box(s: StellarionState) -> Counter[int]:
    g = s.game
    return Counter(c for d in range(8) for c in full_deck(d, g.black_holes, g.mirrors))


ALL = ["black_holes", "glaucous_sun", "mirrors", "theories"]
__all__ = ["ALL", "TYPES"]
