"""Stellar Conflict for RL: the action catalogue and the observer.

Actions: ``buy`` (every regular ship of the races in play), ``ready``, ``place`` on the
engine's placement grid (``data/table.json``: centres every 100 mm from a 60 mm margin,
centred on the 900 x 600 table, x 8 angles every 45 degrees, keeping the spots whose
card lies wholly on the table: 320 spots), ``done`` and ``fire``. The clock's
``timeout`` is the server's, never an agent's; so is the alarm step it opens (phase
``alarm``, ``deploy`` / ``remove``), which never arises without the server's clock
and so has no index and no phase here. The continuous variant
(``placement="continuous"``) adds one ``place_any`` index whose x, y, angle come in a
Box beside it, as fractions of the table's width and height and of a full turn (see
``skydeck.rl.match``).

Observation: the table as the seat sees it. Other seats' fleets and hands are hidden by
the view (``null``), so only counts of them appear here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from skydeck.core.action import Action
from skydeck.core.observer import SparseObserver, Vec, mark, one_hot
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
    effective_initiative,
    next_initiative,
)

#: the continuous variant's ``place_any`` is legal exactly when ``done`` is (a card in
#: hand during deployment); its Box is x, y in mm and the angle in degrees
CONTINUOUS_WHEN = Action("done")
COOPERATIVE = False
SIMULTANEOUS = True
PHASES = ("preparation", "deployment", "last_card", "battle", "over")
RACES = ("wiss", "vak", "tetrakori", "hexai")
ROLES = ("ship", "cargo", "flagship", "meteor")
MAX_CARDS = 64  # cards beyond (never seen in play) are left out of the observation
CARD_FEATURES = 17


def catalogue(game: Any) -> list[tuple[str, Iterable[Action]]]:
    content = game.content
    buys = [
        Action("buy", (content.ships[i].id,)) for r in game.races for i in content.regulars_of(r)
    ]
    grid = game.shapes.grid
    return [
        ("buy", buys),
        ("ready", [Action("ready")]),
        ("place", [game.shapes.place_action[p] for p in grid]),
        ("done", [Action("done")]),
        ("fire", [Action("fire")]),
    ]


def continuous_box(game: Any) -> tuple[list[float], list[float]]:
    """The Box is normalised (as RL libraries prefer): x / table width, y / table
    height, angle / 360, each in [0, 1]."""
    return [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]


def continuous_action(values: Any, game: Any) -> Action:
    """``place X Y ANGLE`` from a Box sample (fractions of the table and of a turn),
    rounded to the engine's whole mm and degrees; IllegalAction naming a value that is
    not a finite number."""
    from skydeck.core.errors import IllegalAction

    try:
        x, y, angle = (float(v) for v in values)
    except (TypeError, ValueError):
        raise IllegalAction(
            f"place_any needs three numbers [x, y, angle], got {values!r}"
        ) from None
    if not all(math.isfinite(v) for v in (x, y, angle)):
        raise IllegalAction(f"place_any needs finite numbers, got {[x, y, angle]!r}")
    width, height = game.shapes.width, game.shapes.height
    return Action("place", (round(x * width), round(y * height), round(angle * 360) % 360))


class DeploymentIndices:
    """Deployment's legal indexes straight from the engine's free grid spots (its
    ``free_placements()``, cached per position), without the ``place`` Actions and
    their identity look-ups: a deployment offers up to 320 spots, and mapping that many
    Actions cost as much as the engine's whole step. Other phases return None (the
    generic path). ``tests/rl/test_fast_paths.py`` checks it against
    ``catalogue.indices(state.legal_actions(seat))`` over random games."""

    def __init__(self, game: Any, catalogue: Any) -> None:
        places = game.shapes.place_action
        self.spot: dict[tuple[int, int, int], int] = {
            p: catalogue.encode(a) for p, a in places.items()
        }
        self.done = catalogue.encode(Action("done"))

    def __call__(self, state: Any, seat: int) -> list[int] | None:
        if state.phase != "deployment" or seat not in state.to_move:
            return None
        out = list(map(self.spot.__getitem__, state.free_placements()))
        out.append(self.done)
        return out


def indexer(game: Any, catalogue: Any) -> DeploymentIndices:
    """The match's fast path for legal indexes (see ``skydeck.rl.match``)."""
    return DeploymentIndices(game, catalogue)


class ConflictObserver(SparseObserver):
    def __init__(self, game: Any) -> None:
        super().__init__()
        content = game.content
        n = game.players
        self.players = n
        designs = [s.id for s in content.ships if s.race in game.races]
        designs += [content.ships[i].id for i in content.meteors]
        self.designs = {d: i for i, d in enumerate(designs)}
        nd = len(designs)
        self.width, self.height = game.shapes.width, game.shapes.height
        self.credits = max(1, game.credits)
        self.o_seat = self.add("seat", n, "one-hot: this seat")
        self.o_phase = self.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        self.o_move = self.add("to_move", n, "seats that may act now")
        self.o_seats = self.add(
            "seats",
            (n, 4 + 7),
            "per seat: race one-hot (wiss vak tetrakori hexai), ready, done, deck / 10, "
            "holding, score / 10, kill pile / 10, is me",
        )
        self.o_hand = self.add("hand", nd, "one-hot design of the card in my hand")
        self.o_fleet = self.add("fleet", nd, "my chosen fleet (designs)")
        self.o_credits = self.add("credits_left", 1, "my credits left / credits")
        self.o_cards = self.add(
            "cards",
            (MAX_CARDS, CARD_FEATURES + n + 1),
            "per card on the table so far (card number order): present, on table, "
            "x / width, y / height, sin and cos of the angle, initiative / 10, hull / 5, "
            "damage / 5, vp / 5, cubes / 5, delays / 3, fired, role one-hot (4); then the "
            "owner one-hot (seats, then Meteor)",
        )
        self.o_design = self.add("card_design", (MAX_CARDS, nd), "one-hot design of each card")
        self.o_battle = self.add(
            "battle", 4, "steps / 20, last initiative / 10, next initiative / 10, has next"
        )
        self.o_cubes = self.add("cubes", 2, "cubes in the box / 16, vaporised / 16")
        # the state path's tables (``observe``)
        self.ships = content.ships
        self.races = [RACES.index(r) for r in game.races]
        self.ship_design = [self.designs.get(ship.id) for ship in content.ships]
        self.ship_role = [ROLES.index(ship.role) for ship in content.ships]
        #: the last observation made and what it came from (see ``observe``)
        self._memo: tuple[Any, ...] | None = None

    def fill_entries(self, view: dict[str, Any], seat: int, vec: Vec) -> None:
        n = self.players
        designs = self.designs
        one_hot(vec, self.o_seat, seat)
        one_hot(vec, self.o_phase, PHASES.index(view["phase"]))
        for s in view["to_move"]:
            vec[self.o_move + s] = 1.0
        width = 4 + 7
        for s, row in enumerate(view["seats"]):
            b = self.o_seats + s * width
            one_hot(vec, b, RACES.index(row["race"]))
            vec[b + 4] = float(row["ready"])
            vec[b + 5] = float(row["done"])
            vec[b + 6] = row["deck"] / 10.0
            vec[b + 7] = float(row["holding"])
            vec[b + 8] = row["score"] / 10.0
            vec[b + 9] = len(row["kill_pile"]) / 10.0
            vec[b + 10] = float(s == seat)
        me = view["seats"][seat]
        if me["hand"] is not None:
            one_hot(vec, self.o_hand, designs.get(me["hand"]))
        if me["fleet"]:
            mark(vec, self.o_fleet, me["fleet"], designs)
        if me["credits_left"] is not None:
            vec[self.o_credits] = me["credits_left"] / self.credits
        w = CARD_FEATURES + n + 1
        nd = len(designs)
        for c in view["cards"][:MAX_CARDS]:
            i = c["card"]
            if i >= MAX_CARDS:
                continue
            b = self.o_cards + i * w
            vec[b] = 1.0
            vec[b + 1] = float(c["on_table"])
            vec[b + 2] = c["x"] / self.width
            vec[b + 3] = c["y"] / self.height
            rad = math.radians(c["angle"])
            vec[b + 4] = math.sin(rad)
            vec[b + 5] = math.cos(rad)
            vec[b + 6] = c["initiative"] / 10.0
            vec[b + 7] = c["hull"] / 5.0
            vec[b + 8] = len(c["damage"]) / 5.0
            vec[b + 9] = c["vp"] / 5.0
            vec[b + 10] = c["cubes"] / 5.0
            vec[b + 11] = c["delays"] / 3.0
            vec[b + 12] = float(c["fired"])
            one_hot(vec, b + 13, ROLES.index(c["role"]))
            owner = c["owner"]
            vec[b + CARD_FEATURES + (n if owner is None else owner)] = 1.0
            one_hot(vec, self.o_design + i * nd, designs.get(c["ship"]))
        battle = view["battle"]
        vec[self.o_battle] = battle["step"] / 20.0
        vec[self.o_battle + 1] = (battle["initiative"] or 0) / 10.0
        if battle["next"] is not None:
            vec[self.o_battle + 2] = battle["next"] / 10.0
            vec[self.o_battle + 3] = 1.0
        vec[self.o_cubes] = view["cubes"]["box"] / 16.0
        vec[self.o_cubes + 1] = view["cubes"]["vaporised"] / 16.0

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat), seat)`` without the view (whose cards' corners,
        lasers and shields cost most of it and are not encoded), from what changed:
        the observer keeps its last observation, each card's row (a contiguous
        block) and a copy of the card it came from, and rebuilds and rewrites only
        the rows of the cards that changed (a row is its card's fields and its ship's
        constants alone); the seats, the hand, the battle and the cubes are written
        each time. Only ``seat``'s own hand and fleet are
        read. tests/rl/test_state_observers.py proves it equal to the view's
        encoding. The memory is shared by the environments of one game and option
        set: compared by value, read once and replaced whole."""
        st = state
        n = self.players
        w = CARD_FEATURES + n + 1
        memo = self._memo
        if memo is None:
            out = np.zeros(self.size, dtype=np.float32)
            m_cards: list[list[Any]] = []
            m_rows: list[list[float]] = []
            m_designs: list[int] = []
        else:
            m_cards, m_rows, m_designs, rest, last = memo
            out = last.copy()
            out[rest] = 0.0
        cards = st.cards[:MAX_CARDS]
        kept = len(m_cards)
        if len(cards) == kept and cards == m_cards:  # nothing on the table changed
            rows, designs = m_rows, m_designs
        else:
            copies, rows, designs = [], [], []
            for uid, c in enumerate(cards):
                if uid < kept and c == m_cards[uid]:  # a row is its card's alone
                    copies.append(m_cards[uid])
                    rows.append(m_rows[uid])
                    designs.append(m_designs[uid])
                    continue
                copies.append([tuple(x) if type(x) is list else x for x in c])
                row, design = self._row(st, uid, c)
                rows.append(row)
                designs.append(design)
            for uid in range(max(len(rows), len(m_rows))):
                new = rows[uid] if uid < len(rows) else None
                if uid < len(m_rows) and new is m_rows[uid]:
                    continue
                if uid < len(m_rows) and new == m_rows[uid] and designs[uid] == m_designs[uid]:
                    continue
                b = self.o_cards + uid * w
                out[b : b + w] = 0.0 if new is None else new
                if uid < len(m_designs) and m_designs[uid] >= 0:
                    out[m_designs[uid]] = 0.0
                if new is not None and designs[uid] >= 0:
                    out[designs[uid]] = 1.0
            m_cards = copies
        idx, val = self._rest(st, seat)
        at = np.array(idx, dtype=np.intp)
        out[at] = np.array(val, dtype=np.float32)
        self._memo = (m_cards, rows, designs, at, out.copy())
        return out

    def _row(self, st: Any, uid: int, c: list[Any]) -> tuple[list[float], int]:
        """Card ``uid``'s row and the index of its design's one (-1: none), from the
        card alone (its fields and its ship's constants)."""
        n = self.players
        kind = c[C_SHIP]
        ship = self.ships[kind]
        rad = math.radians(c[C_ANGLE])
        row = [
            1.0,
            float(bool(c[C_ALIVE])),
            c[C_X] / self.width,
            c[C_Y] / self.height,
            math.sin(rad),
            math.cos(rad),
            effective_initiative(st, c) / 10.0,
            ship.hull / 5.0,
            len(c[C_DAMAGE]) / 5.0,
            ship.vp / 5.0,
            c[C_CUBES] / 5.0,
            c[C_DELAYS] / 3.0,
            float(bool(c[C_FIRED])),
        ]
        row += [0.0] * (CARD_FEATURES + n + 1 - 13)
        row[13 + self.ship_role[kind]] = 1.0
        owner = c[C_OWNER]
        row[CARD_FEATURES + (owner if owner >= 0 else n)] = 1.0
        d = self.ship_design[kind]
        return row, -1 if d is None else self.o_design + uid * len(self.designs) + d

    def _rest(self, st: Any, seat: int) -> tuple[list[int], list[float]]:
        """Every entry but the cards': (indexes, values), no index twice."""
        n = self.players
        idx = [self.o_seat + seat, self.o_phase + PHASES.index(st.phase)]
        idx += [self.o_move + s for s in st.to_move]
        val = [1.0] * len(idx)
        scores = st.scores
        width = 4 + 7
        for s in range(n):
            b = self.o_seats + s * width
            idx += range(b, b + 11)
            val += (
                *(1.0 if k == self.races[s] else 0.0 for k in range(4)),
                float(st.ready[s]),
                float(st.done[s]),
                len(st.decks[s]) / 10.0,
                float(st.hands[s] >= 0),
                scores[s] / 10.0,
                len(st.kills[s]) / 10.0,
                float(s == seat),
            )
        ships = self.ships
        hand = st.hands[seat]
        if hand >= 0:
            d = self.designs.get(ships[hand].id)
            if d is not None and d >= 0:
                idx.append(self.o_hand + d)
                val.append(1.0)
        fleet = {self.designs.get(ships[i].id) for i in st.fleets[seat]}
        fleet.discard(None)
        for d in fleet:
            assert d is not None
            idx.append(self.o_fleet + d)
            val.append(1.0)
        left = st.credits_left(seat)
        if left is not None:
            idx.append(self.o_credits)
            val.append(left / self.credits)
        o = self.o_battle
        idx += (o, o + 1)
        val += (st.step / 20.0, (st.initiative if st.initiative >= 0 else 0) / 10.0)
        if st.phase == "battle":
            nxt = next_initiative(st)
            if nxt is not None:
                idx += (o + 2, o + 3)
                val += (nxt / 10.0, 1.0)
        idx += (self.o_cubes, self.o_cubes + 1)
        val += (st.supply / 16.0, st.vaporised / 16.0)
        return idx, val


OBSERVER = ConflictObserver
