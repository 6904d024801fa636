"""Cards, decks and source tokens as small ints, with their readable names.

A *face* says what a card is: a Celestial face is ``galaxy * 4 + type`` (0-15), then
the Black Hole (16) and the Mirror (17). A *card* also remembers its deck (the discard
pile it returns to): ``deck << 5 | face``. Decks 0-3 are the Galaxy decks, 4-7 the
Type decks. A *source* is where a Launch or Coordinate takes a card from: 0-7 is the
Observatory (the face-up top of that deck), 8 + face is that card in the Outpost (the
Outpost never holds two identical cards, so the face names it).
"""

from __future__ import annotations

GALAXIES = ("alpha", "beta", "gamma", "delta")
TYPES = ("ship", "nebula", "stars", "planet")
DECKS = GALAXIES + TYPES
N_DECKS = 8

BLACK_HOLE = 16
MIRROR = 17
N_FACES = 18

SHIP, NEBULA, STARS, PLANET = 0, 1, 2, 3

FACE_NAMES: tuple[str, ...] = (
    *(f"{g}.{t}" for g in GALAXIES for t in TYPES),
    "blackhole",
    "mirror",
)
FACE_INDEX = {name: i for i, name in enumerate(FACE_NAMES)}
DECK_INDEX = {name: i for i, name in enumerate(DECKS)}

OUTPOST_SOURCE = 8  # source = 8 + face for an Outpost card
STAR_SOURCE = 99  # the Shooting Star in a Launch slot
SOURCE_NAMES: dict[int, str] = {d: DECKS[d] for d in range(N_DECKS)}
SOURCE_NAMES.update({OUTPOST_SOURCE + f: "out:" + FACE_NAMES[f] for f in range(16)})
SOURCE_NAMES[STAR_SOURCE] = "star"
SOURCE_INDEX = {name: i for i, name in SOURCE_NAMES.items()}


def card(deck: int, face: int) -> int:
    return deck << 5 | face


def deck_of(c: int) -> int:
    return c >> 5


def face_of(c: int) -> int:
    return c & 31


def galaxy_of(face: int) -> int:
    return face >> 2


def type_of(face: int) -> int:
    return face & 3


def is_celestial(face: int) -> bool:
    return face < 16


def full_deck(deck: int, black_holes: bool, mirrors: bool) -> list[int]:
    """The cards a deck starts with: two copies of each of its four Celestial cards,
    plus its Black Hole and Mirror when those expansions are in play."""
    if deck < 4:
        faces = [deck * 4 + t for t in range(4)]
    else:
        faces = [g * 4 + (deck - 4) for g in range(4)]
    cards = [card(deck, f) for f in faces for _ in range(2)]
    if black_holes:
        cards.append(card(deck, BLACK_HOLE))
    if mirrors:
        cards.append(card(deck, MIRROR))
    return cards


def card_name(c: int) -> str:
    """``alpha.ship/ship``: the face and, after the slash, its deck."""
    return f"{FACE_NAMES[face_of(c)]}/{DECKS[deck_of(c)]}"


def parse_card(text: str) -> int:
    """Inverse of card_name (used by tests and position builders)."""
    face, _, deck = text.partition("/")
    if face not in FACE_INDEX or deck not in DECK_INDEX:
        raise ValueError(f"unknown card {text!r}; write it as face/deck, e.g. alpha.ship/ship")
    f, d = FACE_INDEX[face], DECK_INDEX[deck]
    if f < 16 and d not in (galaxy_of(f), 4 + type_of(f)):
        raise ValueError(f"card {text!r}: {FACE_NAMES[f]} is not in the {deck} deck")
    return card(d, f)
