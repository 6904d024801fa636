"""Stellar Expedition for RL: the action catalogue and the observer.

Actions come from the content of the game's option set (modules change it): the map's
cells (``start`` a Starting tile, ``move``, ``warp`` with RM or Crystal, ``wormhole``,
``place`` a tile on a cell), crew (``play``, ``solo``, ``react_solo``, ``reprogram``
with a skill), Upgrades (``use``, ``ability``, ``react_upgrade``, ``buy``/``take``
with the card they replace, ``artifact``), Expeditions (``draft``, ``expedition``,
``replace`` for a tier), Encounters (``pick``), Locations (``collect_at``, ``token``),
tiers (``secret``, ``secret_free``, ``draw``), dice (``reroll``, ``reroll_free``,
``reward``), small choices (``option`` 0-7, ``target`` a seat, ``special`` 1-2,
``power_drop``, ``convert``/``trade`` pairs, ``build`` modes) and the plain words
(``end``, ``pass`` ...); last (issue 54, so no earlier index moved) the build discount's
Raw Materials / Crystals split (``build all|bonus N``), Warp Jumps paid with both
(``warp CELL mixed K``) and, with modules, the flights over a Hazard (``... hazard``).
Other seats' hands and Secret Expeditions are hidden by the view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import numpy as np

from skydeck.core.action import Action
from skydeck.core.observer import SparseObserver, Vec, mark, one_hot
from skydeck.games.expedition import modules
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.board import grid
from skydeck.games.expedition.command import SPENDABLE, TRADABLE
from skydeck.games.expedition.content import FACES, REWARD_FACES, SKILLS, TIERS
from skydeck.games.expedition.drone import drone_points
from skydeck.games.expedition.state import ExpeditionState
from skydeck.games.expedition.tables import tables as content_tables

COOPERATIVE = False
SIMULTANEOUS = True
MAX_OPTIONS = 8  # ``option I``: the most alternatives an effect offers
PHASES = ("start", "powers", "draft", "production", "discovery", "sensor", "command", "end", "over")
PENDING = (
    "place",
    "sensor",
    "enc_pick",
    "enc",
    "enc_reward",
    "exp",
    "take_upgrade",
    "choose",
    "target",
    "react",
    "collect_remote",
    "secret_pick",
    "tokens",
    "new_exp",
    "artifact",
    "window",
)
FACTIONS = ("unec", "tognath", "maheri", "edda")
RANKS = ("commander", "captain", "admiral")
WORDS = (
    "accept",
    "alt",
    "bonus",
    "build",
    "cancel",
    "collect",
    "complete",
    "decline",
    "draft_pass",
    "encounter",
    "end",
    "exchange",
    "fail",
    "pass",
    "repair",
    "resolve",
    "roll",
    "scan",
)


def _ids(game: Any) -> dict[str, tuple[str, ...]]:
    c = game.content
    t = content_tables(c)
    return {
        "crew": t.crew_ids,
        "locations": t.loc_ids,
        "upgrades": t.upg_ids,
        "artifacts": tuple(x.id for x in c.artifacts),
        "expeditions": t.exp_ids,
        "encounters": t.enc_ids,
        "tiles": (*t.loc_ids, *(a.id for a in c.anomalies), "space_gate"),
        "powers": t.power_ids,
    }


def n_cells(game: Any) -> int:
    return int(grid(game.content.rules.board_radius).size)


def moves(state: ExpeditionState) -> int:
    """The moves applied to the state so far: unchanged, the legal list the match handed
    out still holds, and a step from it skips the engine's re-validation (which builds
    the legal actions again; see ``skydeck.rl.match``)."""
    return state.applied


def catalogue(game: Any) -> list[tuple[str, Iterable[Action]]]:
    ids = _ids(game)
    cells = range(n_cells(game))
    crew, upg, exp = ids["crew"], ids["upgrades"], ids["expeditions"]

    def one(kind: str, domain: Iterable[Any]) -> tuple[str, list[Action]]:
        return kind, [act(kind, (x,)) for x in domain]

    def with_discard(kind: str, items: Iterable[str]) -> tuple[str, list[Action]]:
        items = list(items)
        acts = [act(kind, (u,)) for u in items]
        acts += [act(kind, (u, old)) for u in items for old in upg if old != u]
        return kind, acts

    prices = [p for loc in game.content.locations for p in loc.cost]
    crystals = range(1, max(p.crystal for p in prices) + 1)
    jumps = range(1, game.content.rules.max_crystal + 1)  # Jumps paid in Crystals
    over = cells if game.content.mod is not None else range(0)  # Hazards: a module
    pairs = [(a, b) for a in SPENDABLE for b in SPENDABLE if a != b]
    trades = [(a, b) for a in TRADABLE for b in TRADABLE if a != b]
    return [
        ("words", [act(w) for w in WORDS]),
        ("build_mode", [act("build", (m,)) for m in ("exploration", "bonus", "full")]),
        one("start", cells),
        one("move", cells),
        ("warp", [act("warp", (c, r)) for c in cells for r in SPENDABLE]),
        one("wormhole", cells),
        ("place", [act("place", (tile, c)) for tile in ids["tiles"] for c in cells]),
        one("play", crew),
        one("solo", crew),
        one("react_solo", crew),
        ("reprogram", [act("reprogram", (x, s)) for x in crew for s in SKILLS]),
        one("use", upg),
        one("ability", upg),
        one("react_upgrade", upg),
        with_discard("buy", upg),
        with_discard("take", upg),
        with_discard("artifact", ids["artifacts"]),
        one("draft", exp),
        one("expedition", exp),
        ("replace", [act("replace", (x, t)) for x in exp for t in TIERS]),
        one("pick", ids["encounters"]),
        one("collect_at", ids["locations"]),
        one("token", ids["locations"]),
        one("secret", TIERS),
        one("secret_free", TIERS),
        one("draw", TIERS),
        one("reroll", (0, 1)),
        one("reroll_free", (0, 1)),
        one("reward", REWARD_FACES),
        one("option", range(MAX_OPTIONS)),
        one("target", range(game.players)),
        one("special", (1, 2)),
        one("power_drop", ids["powers"]),
        ("convert", [act("convert", p) for p in pairs]),
        ("trade", [act("trade", p) for p in trades]),
        # issue 54, appended so that no earlier index moved: the build discount's split
        # (Crystals it takes off), Warp Jumps paid in both resources, and the shortest
        # path over a Hazard (its die rolled) where going around is longer
        ("build_split", [act("build", (m, n)) for m in ("all", "bonus") for n in crystals]),
        ("warp_mixed", [act("warp", (c, "mixed", k)) for c in cells for k in jumps]),
        ("move_hazard", [act("move", (c, "hazard")) for c in over]),
        ("warp_hazard", [act("warp", (c, r, "hazard")) for c in over for r in SPENDABLE]),
        (
            "warp_mixed_hazard",
            [act("warp", (c, "mixed", k, "hazard")) for c in over for k in jumps],
        ),
    ]


class ExpeditionObserver(SparseObserver):
    def __init__(self, game: Any) -> None:
        super().__init__()
        n = self.players = game.players
        ids = _ids(game)
        self.ix = {k: {x: i for i, x in enumerate(v)} for k, v in ids.items()}
        self.faces = {f: i for i, f in enumerate(FACES)}
        nc = self.cells = n_cells(game)
        nt, nl = len(ids["tiles"]), len(ids["locations"])
        nu, ne, ncr = len(ids["upgrades"]), len(ids["expeditions"]), len(ids["crew"])
        self.o_seat = self.add("seat", n, "one-hot: this seat")
        self.o_turn = self.add("turn", n, "one-hot: whose Discovery/Sensor/Command turn")
        self.o_first = self.add("first", n, "one-hot: first player this round")
        self.o_move = self.add("to_move", n, "seats that may act now")
        self.o_phase = self.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        self.o_round = self.add("round", 1, "round / rounds")
        self.o_map = self.add("map", (nc, nt), "per cell: one-hot tile on it")
        self.o_owner = self.add("owners", (nl, n + 1), "per Location: owner (seats, drone)")
        self.o_store = self.add("store", nu, "Upgrades in the store")
        self.o_decks = self.add(
            "decks",
            7,
            "cards left / 40: locations, encounters, upgrades, bronze, silver, gold; "
            "Damage cards / 10",
        )
        self.o_discards = self.add("expedition_discard", ne, "Expeditions discarded")
        self.o_player = self.add(
            "players",
            (n, 4 + 20),
            "per seat: faction one-hot; rm, crystal, influence / 10, embassies left / 15, "
            "hand count / 10, transit, sickbay, solo / 5, Location cards / 10, damage / 3, "
            "secret tiers / 3, completed / 10, bonus / 20, points / 50, moves / 3, "
            "wormhole ready, discount used, exchange, rerolled, trades / 3",
        )
        self.o_ship = self.add("ships", (n, nc), "per seat: one-hot cell of its ship")
        self.o_slots = self.add("slots", (n, nu), "per seat: Upgrades in its slots")
        self.o_exps = self.add("expeditions", (n, ne), "per seat: face-up Expeditions")
        self.o_emb = self.add("embassies", (n, nl), "per seat: Embassies per Location")
        self.o_hand = self.add("hand", ncr, "my hand (crew)")
        self.o_secret = self.add("secret", ne, "my Secret Expeditions")
        self.o_pack = self.add("draft", (2, ne), "draft: my pack, my kept Expeditions")
        self.o_pending = self.add(
            "pending", len(PENDING) + 1, "one-hot pending decision (" + ", ".join(PENDING) + ")"
        )
        self.o_penc = self.add("pending_encounter", len(ids["encounters"]), "its Encounter")
        self.o_pexp = self.add("pending_expedition", ne, "its Expedition")
        self.o_dice = self.add("pending_dice", (2, len(FACES)), "Sensor dice faces")
        self.o_drone = self.add(
            "drone", 3 + nc, "solo: points / 50, embassies left / 15, rank, ship cell one-hot"
        )
        # the state path's tables (``observe``): the state's ints turned into the indexes
        # their names encode to, through the names the view shows (the lists come from
        # the same content tables as ``ix``, so every name has its index)
        c, t = game.content, content_tables(game.content)
        self.rounds = max(1, c.rules.rounds)
        ix = self.ix

        def to(kind: str, names: Iterable[str]) -> list[int]:
            return [ix[kind][x] for x in names]

        nl, nu, ne = len(ix["locations"]), len(ix["upgrades"]), len(ix["expeditions"])
        tiles = to("tiles", [*(x.id for x in c.locations), *(a.id for a in c.anomalies)])
        tiles.append(ix["tiles"]["space_gate"])  # st.tile_name's order; beyond: the gate
        self._map = [[self.o_map + cell * nt + i for i in tiles] for cell in range(nc)]
        loc = to("locations", t.loc_ids)
        self._owner = [[self.o_owner + j * (n + 1) + o for o in range(n + 1)] for j in loc]
        upg, exp, crew = (
            to("upgrades", t.upg_ids),
            to("expeditions", t.exp_ids),
            to("crew", t.crew_ids),
        )
        self._store = [self.o_store + i for i in upg]
        self._discard = [self.o_discards + i for i in exp]
        self._slots = [[self.o_slots + s * nu + i for i in upg] for s in range(n)]
        self._exps = [[self.o_exps + s * ne + i for i in exp] for s in range(n)]
        self._emb = [[self.o_emb + s * nl + j for j in loc] for s in range(n)]
        self._hand = [self.o_hand + i for i in crew]
        self._secret = [self.o_secret + i for i in exp]
        self._pack = [self.o_pack + i for i in exp]
        self._kept = [self.o_pack + ne + i for i in exp]
        self._enc = [self.o_penc + i for i in to("encounters", t.enc_ids)]
        self._exp = [self.o_pexp + i for i in exp]
        self._faction = [
            FACTIONS.index(d.faction) if d.faction in FACTIONS else None for d in c.dashboards
        ]
        self._phase = {p: self.o_phase + i for i, p in enumerate(PHASES)}
        self._pending = {k: self.o_pending + i for i, k in enumerate(PENDING)}
        #: the parts' makers, in ``_sources``' order
        self._parts: list[Callable[[Any, int], tuple[np.ndarray, Any]]] = [
            self._map_part,
            self._owner_part,
            self._store_part,
            self._discard_part,
            *(partial(self._slots_part, s) for s in range(n)),
            *(partial(self._exps_part, s) for s in range(n)),
            *(partial(self._emb_part, s) for s in range(n)),
            self._hand_part,
            self._secret_part,
            self._draft_part,
        ]
        # the entries written at fixed places each time (``_values``' order)
        self._solo = game.options.get("solo_rank") is not None and c.mod is not None
        at = [*range(self.o_decks, self.o_decks + 7), self.o_round]
        for s in range(n):
            at += range(self.o_player + s * (4 + 20) + 4, self.o_player + (s + 1) * (4 + 20))
        if self._solo:
            at += (self.o_drone, self.o_drone + 1, self.o_drone + 2)
        self._at = np.array(at, dtype=np.intp)
        #: the last observation made and what it came from (see ``observe``)
        self._memo: tuple[Any, ...] | None = None

    def fill_entries(self, view: dict[str, Any], seat: int, vec: Vec) -> None:
        n, nc, ix = self.players, self.cells, self.ix
        one_hot(vec, self.o_seat, seat)
        if view["turn"] is not None and view["turn"] < n:
            one_hot(vec, self.o_turn, view["turn"])
        one_hot(vec, self.o_first, view["first"])
        for s in view["to_move"]:
            if s < n:
                vec[self.o_move + s] = 1.0
        one_hot(vec, self.o_phase, PHASES.index(view["phase"]))
        vec[self.o_round] = view["round"] / max(1, view["rounds"])
        tiles = ix["tiles"]
        nt = len(tiles)
        for t in view["map"]["tiles"]:
            k = tiles.get(t["tile"])
            if k is not None and t["cell"] < nc:
                vec[self.o_map + t["cell"] * nt + k] = 1.0
        locs = ix["locations"]
        for loc, owner in view["map"]["owners"].items():
            k = locs.get(loc)
            if k is not None:
                vec[self.o_owner + k * (n + 1) + min(owner, n)] = 1.0
        upg, exps = ix["upgrades"], ix["expeditions"]
        mark(vec, self.o_store, [u for u in view["store"] if u], upg)
        d = view["decks"]
        b = self.o_decks
        vec[b] = d["locations"] / 40.0
        vec[b + 1] = d["encounters"] / 40.0
        vec[b + 2] = d["upgrades"] / 40.0
        for i, tier in enumerate(TIERS):
            vec[b + 3 + i] = d["expeditions"].get(tier, 0) / 40.0
        vec[b + 6] = d["damage"] / 10.0
        mark(vec, self.o_discards, d["expedition_discard"], exps)
        nu, ne, nl = len(upg), len(exps), len(locs)
        w = 4 + 20
        for s, p in enumerate(view["players"][:n]):
            b = self.o_player + s * w
            one_hot(vec, b, FACTIONS.index(p["faction"]) if p["faction"] in FACTIONS else None)
            vals = (
                p["rm"] / 10.0,
                p["crystal"] / 10.0,
                p["influence"] / 10.0,
                p["embassies_left"] / 15.0,
                p["hand_count"] / 10.0,
                len(p["transit"]) / 5.0,
                len(p["sickbay"]) / 5.0,
                len(p["solo"]) / 5.0,
                len(p["location_cards"]) / 10.0,
                p["damage"] / 3.0,
                len(p["secret_tiers"]) / 3.0,
                len(p["completed"]) / 10.0,
                p["bonus_points"] / 20.0,
                p["points"] / 50.0,
                p["moves"] / 3.0,
                float(p["wormhole_ready"]),
                float(p["discount_used"]),
                float(p["exchange"]),
                float(p["rerolled"]),
                p["trades"] / 3.0,
            )
            for i, v in enumerate(vals):
                if v:
                    vec[b + 4 + i] = v
            if p["ship"] is not None and 0 <= p["ship"] < nc:  # -1: not placed yet
                vec[self.o_ship + s * nc + p["ship"]] = 1.0
            mark(vec, self.o_slots + s * nu, [u for u in p["slots"] if u], upg)
            mark(vec, self.o_exps + s * ne, p["expeditions"], exps)
            for loc, k in p["embassies"].items():
                j = locs.get(loc)
                if j is not None:
                    vec[self.o_emb + s * nl + j] = k / 3.0
        me = view["players"][seat]
        mark(vec, self.o_hand, me.get("hand") or (), ix["crew"])
        mark(vec, self.o_secret, me.get("secret") or (), exps)
        draft = view.get("draft")
        if draft:
            mark(vec, self.o_pack, draft.get("pack") or (), exps)
            mark(vec, self.o_pack + ne, draft.get("kept") or (), exps)
        pending = view.get("pending")
        if pending:
            kind = pending.get("kind")
            k = PENDING.index(kind) if kind in PENDING else len(PENDING)
            vec[self.o_pending + k] = 1.0
            enc = pending.get("encounter")
            if isinstance(enc, str):
                one_hot(vec, self.o_penc, ix["encounters"].get(enc))
            exp = pending.get("expedition")
            if isinstance(exp, str):
                one_hot(vec, self.o_pexp, exps.get(exp))
            dice = pending.get("dice")
            if dice:
                for i, face in enumerate(dice[:2]):
                    one_hot(vec, self.o_dice + i * len(FACES), self.faces.get(face))
        drone = (view.get("modules") or {}).get("drone")
        if drone:
            vec[self.o_drone] = drone.get("points", 0) / 50.0
            vec[self.o_drone + 1] = drone.get("embassies_left", 0) / 15.0
            rank = drone.get("rank")
            if rank in RANKS:
                vec[self.o_drone + 2] = RANKS.index(rank) / 2.0
            ship = drone.get("ship")
            if isinstance(ship, int) and 0 <= ship < nc:
                vec[self.o_drone + 3 + ship] = 1.0

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat), seat)`` without the view, from what changed: the
        observer keeps its last observation and copies of the parts it came from (the
        map, the Location owners, the store, the Expedition discard, each seat's slots,
        Expeditions and Embassies, and the observing seat's hand, Secret Expeditions
        and draft), and rewrites only the parts that differ (a move changes one or
        none); the rest, a few dozen entries per seat, is written from the state's
        ints each time. Of other seats it reads only what the view shows (the size of
        a hand, the number of Secret Expeditions). tests/rl/test_state_observers.py
        proves it equal to the view's encoding. The memory is shared by the
        environments of one game and option set: compared by value, it serves any
        state, and it is read once and replaced whole."""
        st = state
        sources = self._sources(st, seat)
        memo = self._memo
        if memo is None:
            out = np.zeros(self.size, dtype=np.float32)
            kept = tuple(_copy(source) for source in sources)
            parts = [make(st, seat) for make in self._parts]
            for at, values in parts:
                out[at] = values
        else:
            # edited in place; the memory is dropped meanwhile, so a failure half-way
            # never leaves an edited vector behind as the last observation
            kept, parts, rest, out = memo
            self._memo = None
            out[rest] = 0.0
            if sources != kept:
                fresh, parts = list(kept), list(parts)
                for k, source in enumerate(sources):
                    if source != kept[k]:
                        out[parts[k][0]] = 0.0
                        part = parts[k] = self._parts[k](st, seat)
                        out[part[0]] = part[1]
                        fresh[k] = _copy(source)  # the state's lists change in place
                kept = tuple(fresh)
        val = self._values(st)
        out[self._at] = np.fromiter(val, np.float32, len(val))
        ones = self._ones(st, seat)
        rest = np.fromiter(ones, np.intp, len(ones))
        out[rest] = 1.0
        self._memo = (kept, parts, rest, out)
        return out.copy()  # the caller's own: the memory's vector changes next step

    def _sources(self, st: Any, seat: int) -> tuple[Any, ...]:
        """What each part is made from, in ``self._parts``' order: the map, the owners,
        the store, the Expedition discard, each seat's slots, Expeditions and
        Embassies, then the observing seat's hand, Secret Expeditions and draft (None
        outside it). Flat lists of ints, or tuples of ints and such lists (``_copy``)."""
        draft = (
            (seat, st.packs[seat], st.kept[seat])
            if st.phase in ("start", "draft", "powers")
            else None
        )
        return (
            st.board,
            st.owner,
            st.store,
            st.exp_discard,
            *st.slots,
            *st.exps,
            *st.emb,
            (seat, st.hand[seat]),
            (seat, st.secret[seat]),
            draft,
        )

    # each part's entries (indexes, and values or 1.0 for all), as ``fill_entries``
    # writes them from the view
    def _map_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        top = len(self._map[0]) - 1
        at = [row[x if x < top else top] for row, x in zip(self._map, st.board) if x >= 0]
        return np.array(at, dtype=np.intp), 1.0

    def _owner_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        n = self.players
        at = [row[o if o < n else n] for row, o in zip(self._owner, st.owner) if o >= 0]
        return np.array(at, dtype=np.intp), 1.0

    def _store_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._store, [u for u in st.store if u >= 0])

    def _discard_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._discard, st.exp_discard)

    def _slots_part(self, s: int, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._slots[s], [u for u in st.slots[s] if u >= 0])

    def _exps_part(self, s: int, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._exps[s], st.exps[s])

    def _emb_part(self, s: int, st: Any, seat: int) -> tuple[np.ndarray, np.ndarray]:
        row, emb = self._emb[s], st.emb[s]
        at = [row[i] for i, count in enumerate(emb) if count]
        values = [count / 3.0 for count in emb if count]
        return np.array(at, dtype=np.intp), np.array(values, dtype=np.float32)

    def _hand_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._hand, st.hand[seat])

    def _secret_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        return _ones_at(self._secret, st.secret[seat])

    def _draft_part(self, st: Any, seat: int) -> tuple[np.ndarray, float]:
        if st.phase not in ("start", "draft", "powers"):
            return _ones_at(self._pack, ())
        pack, kept = self._pack, self._kept
        at = [pack[x] for x in st.packs[seat]] + [kept[x] for x in st.kept[seat]]
        return np.array(at, dtype=np.intp), 1.0

    def _values(self, st: Any) -> list[float]:
        """The entries at fixed places (``self._at``), zeros included: the decks, the
        round, each seat's numbers and the drone's."""
        tiers = [len(d) for d in st.exp_decks[:3]]
        tiers += [0] * (3 - len(tiers))
        val = [
            len(st.stack) / 40.0,
            len(st.enc_deck) / 40.0,
            len(st.upg_deck) / 40.0,
            tiers[0] / 40.0,
            tiers[1] / 40.0,
            tiers[2] / 40.0,
            st.dmg_supply / 10.0,
            st.round / self.rounds,
        ]
        rm, cr, inf, emb_left, dmg, bonus = st.rm, st.cr, st.inf, st.emb_left, st.dmg, st.bonus_pts
        hand, transit, sickbay, solo = st.hand, st.transit, st.sickbay, st.solo
        worm, disc, exchange, rerolled = st.worm, st.disc_used, st.exchange, st.rerolled
        points, movement = modules.points, st.movement
        for s in range(self.players):
            val += (
                rm[s] / 10.0,
                cr[s] / 10.0,
                inf[s] / 10.0,
                emb_left[s] / 15.0,
                len(hand[s]) / 10.0,
                len(transit[s]) / 5.0,
                len(sickbay[s]) / 5.0,
                len(solo[s]) / 5.0,
                len(st.loc_cards[s]) / 10.0,
                dmg[s] / 3.0,
                len(st.secret[s]) / 3.0,
                len(st.done[s]) / 10.0,
                bonus[s] / 20.0,
                points(st, s) / 50.0,
                movement(s) / 3.0,
                1.0 if worm[s] else 0.0,
                1.0 if disc[s] else 0.0,
                1.0 if exchange[s] else 0.0,
                1.0 if rerolled[s] else 0.0,
                st.trades[s] / 3.0,
            )
        if self._solo:
            if st.is_solo and st.content.mod is not None:  # the view's modules part
                rank = RANKS.index(st.rank) / 2.0 if st.rank in RANKS else 0.0
                val += (drone_points(st) / 50.0, st.d_left / 15.0, rank)
            else:
                val += (0.0, 0.0, 0.0)
        return val

    def _ones(self, st: Any, seat: int) -> list[int]:
        """The indexes of every other entry outside the parts (all ones): the seat,
        phase, turn, first player, seats to move, factions, ships, the pending
        decision and the drone's ship."""
        n, nc = self.players, self.cells
        phase = st.phase
        at = [self.o_seat + seat, self._phase[phase]]
        if phase in ("discovery", "sensor", "command"):
            turn = st.turn
            if turn < n:
                at.append(self.o_turn + turn)
        if st.first >= 0:
            at.append(self.o_first + st.first)
        at += [self.o_move + s for s in st.to_move if s < n]
        w = 4 + 20
        for s in range(n):
            faction = self._faction[st.factions[s]]
            if faction is not None:
                at.append(self.o_player + s * w + faction)
            ship = st.ship[s]
            if ship is not None and 0 <= ship < nc:  # -1: not placed yet
                at.append(self.o_ship + s * nc + ship)
        if st.pending:
            f = st.pending[-1]
            kind = f["k"]
            at.append(self._pending.get(kind, self.o_pending + len(PENDING)))
            if kind in ("enc", "enc_reward"):
                at.append(self._enc[f["e"]])
            elif kind == "exp":
                at.append(self._exp[f["x"]])
            elif kind == "sensor":
                for d, face in enumerate(list(f["d"])[:2]):
                    i = self.faces.get(face)
                    if i is not None:
                        at.append(self.o_dice + d * len(FACES) + i)
        if st.is_solo and st.content.mod is not None:
            ship = st.d_ship
            if isinstance(ship, int) and 0 <= ship < nc:
                at.append(self.o_drone + 3 + ship)
        return at


def _ones_at(table: list[int], items: Iterable[int]) -> tuple[np.ndarray, float]:
    """A part of ones: ``table``'s index for each of the state's ints."""
    return np.array([table[x] for x in items], dtype=np.intp), 1.0


def _copy(source: Any) -> Any:
    """A copy of a part's source that the state's later moves cannot change: flat lists
    copied, in tuples too (ints and None stay)."""
    if type(source) is list:
        return source[:]
    if type(source) is tuple:
        return tuple(x[:] if type(x) is list else x for x in source)
    return source


OBSERVER = ExpeditionObserver
