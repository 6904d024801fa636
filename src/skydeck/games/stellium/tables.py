"""Stellium's constants, read by every other module (the lowest one: it imports none
of the rules, the state or the game): the Universe and its shorthands, the Mission
cards, the notation, the set-up numbers and the phases of a turn."""

from __future__ import annotations

from skydeck.games.stellium.missions import Card, build_cards
from skydeck.games.stellium.notation import Notation
from skydeck.games.stellium.universe import played

UNIVERSE = played()
CARDS: tuple[Card, ...] = build_cards(UNIVERSE)
CARD_INDEX = {c.id: c.index for c in CARDS}
NOTATION = Notation(UNIVERSE)

TARGETS = {2: 20, 3: 25, 4: 30}
AVAILABLE = {2: 6, 3: 7, 4: 8}
HAND_LIMIT = 3
REFILL_DRAW = 5
ALL_TOKENS = 0b11110  # bit b set: the token of body b's colour is unused

DRAW_PHASE, PLACE, EFFECT, MISSIONS, KEEP, REFILL, NEW_MISSION, OVER = range(8)
PHASES = ("draw", "place", "effect", "missions", "keep", "refill", "new_mission", "over")

#: Each Mission card's colour, by card index (scores read it after every move).
CARD_COLOUR: tuple[int, ...] = tuple(c.colour for c in CARDS)
# The Universe's tables under short names (the rules read them in their inner loops).
NAMES = UNIVERSE.names
IDX = UNIVERSE.index_of
STEP = UNIVERSE.step
NEIGH = UNIVERSE.neighbours
HOLES = UNIVERSE.holes
GALAXY_SPACES = UNIVERSE.galaxy_spaces
SLOTS = UNIVERSE.slot_cells
GALAXY_OF = UNIVERSE.galaxy_of
IS_HOLE = UNIVERSE.is_hole
DIRS = UNIVERSE.dirs
DIR_INDEX = NOTATION.dir_index
PUSH = NOTATION.push
