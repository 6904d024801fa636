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

import numpy as np

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
from skydeck.games.stellarion.cards import TYPES as CARD_TYPES
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.legal import (
    LOOK,
    OVER,
    PHASE_NAMES,
    POWER,
    THRUST,
    TRAVERSE,
    action,
)
from skydeck.games.stellarion.view import POWER_NAMES

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
        # the state path's tables (``observe``): the view's names turned back into the
        # indexes they encode to, so the state's small ints index them directly
        self.theories = g.theories
        self.sun = (g.sun_start, g.sun_final) if g.glaucous_sun else None
        self._vidx = [self.voyages[v] for v in g.voyage_ids]
        self._face = [FACE_INDEX[name] for name in FACE_NAMES]
        self._phase = {p: PHASES.index(name) for p, name in enumerate(PHASE_NAMES)}
        self._power = [TYPES.index(name) for name in POWER_NAMES]
        self._types = [TYPES.index(name) for name in CARD_TYPES]
        self._theory = [self.theory_type.get(t) for t in g.theory_ids]
        self._top = [self._types[t] for t in g.theory_type]
        self._nf = nf
        #: the last observation made and what it came from (see ``observe``)
        self._memo: tuple[Any, ...] | None = None

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

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat), seat)`` without the view, from what changed: the
        observer keeps the decks' encoding and the decks it came from (copies), and
        re-encodes only the decks that differ (a move changes one or two of eight);
        the rest, a few dozen entries, is written from the state's small ints into a
        copy each time. tests/rl/test_state_observers.py proves it equal to the view's
        encoding. The memory is the observer's, shared by the environments of one game
        and option set: it is compared by value, so it serves any state (only the
        speed gains). Its vector is never handed out (each observation is a copy), so
        it is edited in place, with the memory dropped meanwhile: a failure half-way
        leaves no memory, never a stale one."""
        s = state
        decks, discards, ktop, kbot, up = s.decks, s.discards, s.ktop, s.kbot, s.up
        memo = self._memo
        if memo is None:
            base = np.zeros(self.size, dtype=np.float32)
            parts = [self._part(s, d) for d in range(8)]
            for at, values in parts:
                base[at] = values
        else:
            m_decks, m_discards, m_ktop, m_kbot, m_up, parts, base = memo
            if (
                decks != m_decks
                or discards != m_discards
                or ktop != m_ktop
                or kbot != m_kbot
                or up != m_up
            ):
                self._memo = None
                for d in range(8):
                    if (
                        decks[d] != m_decks[d]
                        or discards[d] != m_discards[d]
                        or ktop[d] != m_ktop[d]
                        or kbot[d] != m_kbot[d]
                        or up[d] != m_up[d]
                    ):
                        base[parts[d][0]] = 0.0
                        part = parts[d] = self._part(s, d)
                        base[part[0]] = part[1]
        if self._memo is None:  # the state's lists change in place: copies are kept
            self._memo = (
                [c.copy() for c in decks],
                [c.copy() for c in discards],
                ktop.copy(),
                kbot.copy(),
                up.copy(),
                parts,
                base,
            )
        idx, val = self._rest(s, seat)
        out = base.copy()
        out[np.array(idx, dtype=np.intp)] = np.array(val, dtype=np.float32)
        return out

    def _part(self, s: Any, d: int) -> tuple[np.ndarray, np.ndarray]:
        """Deck ``d``'s entries (indexes, values, no index twice), as ``fill_entries``
        writes them from the deck's part of the view (view._make_deck): its count,
        face-up top, the known cards at each end, its contents and discards."""
        cards = s.decks[d]
        face, nf = self._face, self._nf
        at = [self.o_count + d]
        values = [len(cards) / 10.0]
        if s.up[d]:
            at += (self.o_up + d, self.o_top + d * nf + face[cards[-1] & 31])
            values += (1.0, 1.0)
        kt = s.ktop[d]
        if kt:
            base = self.o_known + d * KNOWN_TOP * nf
            for k, c in enumerate(cards[: -kt - 1 : -1][:KNOWN_TOP]):
                at.append(base + k * nf + face[c & 31])
                values.append(1.0)
        base = self.o_bottom + d * KNOWN_BOTTOM * nf
        for k, c in enumerate(cards[: s.kbot[d]][:KNOWN_BOTTOM]):
            at.append(base + k * nf + face[c & 31])
            values.append(1.0)
        for base, pile in ((self.o_contents, cards), (self.o_discards, s.discards[d])):
            base += d * nf
            copies: dict[int, int] = {}
            for c in pile:
                i = base + face[c & 31]
                copies[i] = copies.get(i, 0) + 1
            at += copies.keys()
            values += (n / 2.0 for n in copies.values())
        return np.array(at, dtype=np.intp), np.array(values, dtype=np.float32)

    def _rest(self, s: Any, seat: int) -> tuple[list[int], list[float]]:
        """Every entry but the decks': (indexes, values); an index twice only with
        the same value (a fancy-indexed write keeps one)."""
        idx: list[int] = []
        val: list[float] = []
        if seat is not None and seat >= 0:
            idx.append(self.o_seat + seat)
            val.append(1.0)
        phase = s.phase
        if phase != OVER and s.turn >= 0:
            idx.append(self.o_turn + s.turn)
            val.append(1.0)
        idx += (self.o_turns, self.o_phase + self._phase[phase], self.o_stars)
        val += (s.turns / 50.0, 1.0, s.stars / 4.0)
        face = self._face
        o = self.o_outpost
        for c in s.outpost:
            idx.append(o + face[c & 31])
            val.append(1.0)
        vidx = self._vidx
        o, acc = self.o_vplay, self.o_vacc
        for col in s.columns:
            for v in col:
                idx.append(o + vidx[v])
                val.append(1.0)
            if col:
                idx.append(acc + vidx[col[-1]])
                val.append(1.0)
        nv = len(vidx)
        for p, pile in enumerate(s.piles):
            o = self.o_vwon + p * nv
            for v in pile:
                idx.append(o + vidx[v])
                val.append(1.0)
        if phase in (POWER, LOOK, THRUST):
            misc = self.o_pmisc
            idx += (self.o_pkind, self.o_ppower + self._power[s.p_type], misc, misc + 1, misc + 2)
            val += (1.0, 1.0, float(bool(s.p_major)), s.p_left / 4.0, float(bool(s.p_started)))
            if s.p_deck >= 0:
                idx.append(self.o_pdeck + s.p_deck)
                val.append(1.0)
            if s.p_cards:
                held: dict[int, float] = {}
                for c in s.p_cards:
                    i = self.o_pcards + face[c & 31]
                    held[i] = held.get(i, 0.0) + 1.0
                idx += held.keys()
                val += held.values()
        elif phase == TRAVERSE:
            idx += (self.o_pkind + 1, self.o_pmisc + 2)
            val += (1.0, s.p_take / 3.0)
        if self.theories:
            o = self.o_theory
            left = s.theories
            if left:
                idx.append(o + self._top[left[-1]])
                val.append(1.0)
            theory = self._theory
            for t in left:
                kind = theory[t]
                if kind is not None:
                    idx.append(o + 4 + kind)
                    val.append(1.0)
            idx += (o + 8, o + 9, self.o_break + self._types[s.breakthrough])
            val += (len(left) / 4.0, len(s.proven) / 4.0, 1.0)
        if self.sun is not None:
            start, final = self.sun
            o = self.o_sun
            idx += (o, o + 1, o + 2)
            val += ((s.sun - start) / (final - start), s.held / 4.0, len(s.meteors) / 4.0)
        return idx, val


OBSERVER = StellarionObserver
