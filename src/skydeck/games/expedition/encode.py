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

from collections.abc import Iterable
from typing import Any

from skydeck.core.action import Action
from skydeck.core.observer import SparseObserver, Vec, mark, one_hot
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.board import grid
from skydeck.games.expedition.command import SPENDABLE, TRADABLE
from skydeck.games.expedition.content import FACES, REWARD_FACES, SKILLS, TIERS
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


OBSERVER = ExpeditionObserver
