"""Stellarion for RL: the action catalogue and the observer.

Actions (blocks, in index order): ``launch`` (per Voyage card, the four Type slots,
each from the Galaxy deck, the Type deck, the Outpost or a Shooting Star, at most one
Star), ``coordinate`` (every pair of the 24 sources: 8 Observatory decks, 16 Outpost
faces), ``traverse`` (4 of the 8 decks; Black Holes only), ``take`` (a Voyage, and in
co-op the seat that gets it), ``prove``/``meteor`` (Theories, Glaucous Sun), the
power steps (``forfeit``, ``stop``, ``search``, ``retrieve``, ``stars``, ``outpost``,
``place``, Reversible thrusters' ``bottom``/``discard``) and the end of turn
(``reveal``, ``end``), then in co-op with the Glaucous Sun the partner's Meteor trade
(``meteor <voyage> <seat>``, added last so that no earlier index moved). The observation
is the shared table: Stellarion hides only the order of unknown cards, which the view
never shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, product
from typing import Any

from skydeck.core.action import Action
from skydeck.core.observer import SparseObserver, Vec, counts, mark, one_hot
from skydeck.games.stellarion.cards import (
    BLACK_HOLE,
    DECKS,
    FACE_INDEX,
    FACE_NAMES,
    MIRROR,
    SOURCE_NAMES,
    STAR_SOURCE,
    full_deck,
)
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.legal import action

COOPERATIVE = True
SIMULTANEOUS = False
PHASES = ("main", "thrusters", "power", "stars_look", "traverse", "end", "over")
TYPES = ("ship", "nebula", "stars", "planet")
DECK_INDEX = {d: i for i, d in enumerate(DECKS)}
KNOWN_TOP = 3  # known cards from the top of a deck, encoded one-hot
KNOWN_BOTTOM = 2


def _faces(game: StellarionGame) -> list[int]:
    faces = list(range(16))
    if game.black_holes:
        faces.append(BLACK_HOLE)
    if game.mirrors:
        faces.append(MIRROR)
    return faces


def catalogue(game: Any) -> list[tuple[str, Iterable[Action]]]:
    g: StellarionGame = game
    names = tuple(FACE_NAMES[f] for f in _faces(g))
    blocks: list[tuple[str, Iterable[Action]]] = []
    star = SOURCE_NAMES[STAR_SOURCE]
    launches = []
    for vid, gal in zip(g.voyage_ids, g.voyage_galaxy, strict=True):
        slots = []
        for t in range(4):
            f = gal * 4 + t
            slots.append(sorted([gal, 4 + t, 8 + f]))
        combos = list(product(*slots))
        for t in range(4):
            with_star = [*slots]
            with_star[t] = [STAR_SOURCE]
            combos.extend(product(*with_star))
        for combo in combos:
            src = tuple(star if x == STAR_SOURCE else SOURCE_NAMES[x] for x in combo)
            launches.append(action("launch", (vid, src)))
    blocks.append(("launch", launches))
    sources = sorted(s for s in SOURCE_NAMES if s != STAR_SOURCE)
    blocks.append(
        (
            "coordinate",
            [
                action("coordinate", ((SOURCE_NAMES[a], SOURCE_NAMES[b]),))
                for a, b in combinations(sources, 2)
            ],
        )
    )
    if g.black_holes:
        four = [
            action("traverse", (tuple(DECKS[d] for d in c),)) for c in combinations(range(8), 4)
        ]
        blocks.append(("traverse", four))
        if g.players == 1:
            blocks.append(("take", [action("take", (v,)) for v in g.voyage_ids]))
        else:
            blocks.append(
                ("take", [action("take", (v, p)) for v in g.voyage_ids for p in range(g.players)])
            )
    if g.theories:
        blocks.append(("prove", [action("prove")]))
    if g.glaucous_sun:
        blocks.append(("meteor", [action("meteor", (v,)) for v in g.voyage_ids]))
        blocks.append(("forfeit", [action("forfeit", (n,)) for n in range(9)]))
    else:
        blocks.append(("forfeit", [action("forfeit")]))
    blocks.append(("stop", [action("stop")]))
    search: list[Action] = []
    for d in range(8):
        deck_faces = sorted({c & 31 for c in full_deck(d, g.black_holes, g.mirrors)})
        search.extend(action("search", (DECKS[d], FACE_NAMES[f])) for f in deck_faces)
    blocks.append(("search", search))
    retrieve: list[Action] = []
    top: list[Action] = []
    for d in range(8):
        faces = sorted({c & 31 for c in full_deck(d, False, False)})
        picks: list[tuple[int, ...]] = [(f,) for f in faces]
        picks += [(f, h) for i, f in enumerate(faces) for h in faces[i:]]
        retrieve.extend(
            action("retrieve", (DECKS[d], tuple(FACE_NAMES[f] for f in p))) for p in picks
        )
        ordered: list[tuple[int, ...]] = [(f,) for f in faces]
        ordered += [(f, h) for f in faces for h in faces]
        top.extend(
            action("retrieve", (DECKS[d], tuple(FACE_NAMES[f] for f in p), "top")) for p in ordered
        )
    blocks.append(("retrieve", retrieve))
    if g.theories:
        blocks.append(("retrieve_top", top))
    blocks.append(("stars", [action("stars", (d,)) for d in DECKS]))
    pairs = [(d,) for d in DECKS] + [(a, b) for a, b in combinations(DECKS, 2)]
    blocks.append(("outpost", [action("outpost", (p,)) for p in pairs]))
    place = [action("place", ((a,), (b,))) for a in names for b in names]
    place += [action("place", ((a,), ())) for a in names]
    if g.theories:  # the Reflection amplifier: both on top or both at the bottom
        place += [action("place", ((a, b), ())) for a in names for b in names]
        place += [action("place", ((), (a, b))) for a in names for b in names]
        bottom = [action("bottom", (DECKS[d], n)) for d in range(8) for n in names]
        blocks.append(("bottom", [*bottom, action("discard")]))
    blocks.append(("place", place))
    if not g.reveal_all:
        blocks.append(("reveal", [action("reveal", (d,)) for d in DECKS]))
    blocks.append(("end", [action("end")]))
    if g.glaucous_sun and g.players > 1:
        # the partner's Meteor trade (issue 54): appended, so no earlier index moves
        partner = [action("meteor", (v, p)) for v in g.voyage_ids for p in range(g.players)]
        blocks.append(("meteor_partner", partner))
    return blocks


class StellarionObserver(SparseObserver):
    """The shared table, seen by ``seat`` (every seat sees the same)."""

    def __init__(self, game: Any) -> None:
        super().__init__()
        g: StellarionGame = game
        self.players = g.players
        self.voyages = {v: i for i, v in enumerate(g.voyage_ids)}
        self.theory_type = dict(zip(g.theory_ids, g.theory_type, strict=True))
        nv = len(self.voyages)
        nf = len(FACE_NAMES)
        self.o_seat = self.add("seat", g.players, "one-hot: this seat")
        self.o_turn = self.add("turn", g.players, "one-hot: the seat to act")
        self.o_turns = self.add("turns", 1, "turn number / 50")
        self.o_phase = self.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        self.o_count = self.add("deck_count", 8, "cards per deck (alpha..delta, ship..planet) / 10")
        self.o_up = self.add("deck_face_up", 8, "1 when the deck's top is in the Observatory")
        self.o_top = self.add("deck_top", (8, nf), "one-hot face of each Observatory card")
        self.o_known = self.add(
            "deck_known_top", (8, KNOWN_TOP, nf), "known cards from the top down (3 per deck)"
        )
        self.o_bottom = self.add(
            "deck_known_bottom", (8, KNOWN_BOTTOM, nf), "known cards from the bottom up"
        )
        self.o_contents = self.add(
            "deck_contents", (8, nf), "the deck as a multiset of faces (copies / 2)"
        )
        self.o_discards = self.add("deck_discards", (8, nf), "its discard pile (copies / 2)")
        self.o_outpost = self.add("outpost", nf, "1 per face in the Outpost")
        self.o_stars = self.add("shooting_stars", 1, "Shooting Stars in reserve / 4")
        self.o_vplay = self.add("voyage_in_columns", nv, "Voyage still on the table")
        self.o_vacc = self.add("voyage_accessible", nv, "Voyage uncovered (may be taken)")
        self.o_vwon = self.add("voyage_victory", (g.players, nv), "Voyage in a seat's pile")
        self.o_pkind = self.add("pending_kind", 2, "one-hot: coordinate, traverse")
        self.o_ppower = self.add("pending_power", 4, "one-hot Type of the Coordinate power")
        self.o_pmisc = self.add(
            "pending_misc", 3, "major, uses left / 4, power started (or Traverse takes / 3)"
        )
        self.o_pdeck = self.add("pending_deck", 8, "one-hot deck the power works on")
        self.o_pcards = self.add("pending_cards", nf, "faces of the cards coordinated")
        self.o_theory = self.add(
            "theories", 4 + 4 + 2, "top Theory Type, remaining Types, left / 4, proven / 4"
        )
        self.o_break = self.add("breakthrough", 4, "one-hot Type of the Breakthrough")
        self.o_sun = self.add("sun", 3, "Sun position / final, Meteors held / 4, on board / 4")

    def fill_entries(self, view: dict[str, Any], seat: int, vec: Vec) -> None:
        nf = len(FACE_NAMES)
        faces = FACE_INDEX
        one_hot(vec, self.o_seat, seat)
        one_hot(vec, self.o_turn, view["turn"] if view["to_move"] else None)
        vec[self.o_turns] = view["turns"] / 50.0
        one_hot(vec, self.o_phase, PHASES.index(view["phase"]))
        for d, deck in enumerate(view["decks"]):
            vec[self.o_count + d] = deck["count"] / 10.0
            if deck["face_up"]:
                vec[self.o_up + d] = 1.0
                one_hot(vec, self.o_top + d * nf, faces[deck["top"]])
            for k, f in enumerate(deck["known_top"][:KNOWN_TOP]):
                vec[self.o_known + (d * KNOWN_TOP + k) * nf + faces[f]] = 1.0
            for k, f in enumerate(deck["known_bottom"][:KNOWN_BOTTOM]):
                vec[self.o_bottom + (d * KNOWN_BOTTOM + k) * nf + faces[f]] = 1.0
            base = self.o_contents + d * nf
            for f, n in deck["contents"].items():
                vec[base + faces[f]] = n / 2.0
            counts(vec, self.o_discards + d * nf, deck["discards"], faces, 0.5)
        mark(vec, self.o_outpost, [c["card"] for c in view["outpost"]], faces)
        vec[self.o_stars] = view["shooting_stars"] / 4.0
        voy = view["voyages"]
        vi = self.voyages
        for col in voy["columns"]:
            mark(vec, self.o_vplay, col, vi)
        mark(vec, self.o_vacc, voy["accessible"], vi)
        nv = len(vi)
        for p, pile in enumerate(view["victory"]):
            mark(vec, self.o_vwon + p * nv, pile, vi)
        pending = view["pending"]
        if pending is not None:
            if pending["kind"] == "coordinate":
                vec[self.o_pkind] = 1.0
                one_hot(vec, self.o_ppower, TYPES.index(pending["power"]))
                vec[self.o_pmisc] = float(pending["major"])
                vec[self.o_pmisc + 1] = pending["uses_left"] / 4.0
                vec[self.o_pmisc + 2] = float(pending["started"])
                if pending["deck"] is not None:
                    one_hot(vec, self.o_pdeck, DECK_INDEX[pending["deck"]])
                for c in pending["cards"]:
                    vec[self.o_pcards + faces[c.partition("/")[0]]] += 1.0
            else:
                vec[self.o_pkind + 1] = 1.0
                vec[self.o_pmisc + 2] = pending["takes_left"] / 3.0
        th = view.get("theories")
        if th:
            if th["top_type"]:
                one_hot(vec, self.o_theory, TYPES.index(th["top_type"]))
            for tid in th["remaining"]:
                t = self.theory_type.get(tid)
                if t is not None:
                    vec[self.o_theory + 4 + t] = 1.0
            vec[self.o_theory + 8] = th["left"] / 4.0
            vec[self.o_theory + 9] = len(th["proven"]) / 4.0
        bt = view.get("breakthrough")
        if bt:
            one_hot(vec, self.o_break, TYPES.index(bt["type"]))
        sun = view.get("sun")
        if sun:
            vec[self.o_sun] = (sun["position"] - sun["start"]) / (sun["final"] - sun["start"])
            vec[self.o_sun + 1] = sun["meteors_held"] / 4.0
            vec[self.o_sun + 2] = len(sun["meteors_on_board"]) / 4.0


OBSERVER = StellarionObserver
