"""The state's plain data and the small bookkeeping helpers every rule module uses.

The rules are modules of functions over this data (effects, galactic, modules, drone,
pending, sensor, flow, command: each imports only those before it), so every field and
helper a rule reads has one home, here.

Everything is ints, strings and (nested) lists, so clone() is a handful of list copies
and to_json() is the data itself. Ids are list positions in the content tables: crew,
locations, Expeditions, Upgrades, Encounters; map tiles are Location ids 0-27, then the
Anomalies, then the Space gate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skydeck.core import Rng, fields
from skydeck.games.expedition.board import Grid, grid
from skydeck.games.expedition.content import Content
from skydeck.games.expedition.tables import Tables, tables

# field name -> kind: "v" plain value, "l" flat list, "ll" list of lists, "p" pending frames
FIELDS: dict[str, str] = {
    "phase": "v",
    "round": "v",
    "first": "v",
    "acted": "v",
    "step": "v",
    "reveals": "v",
    "dmg_supply": "v",
    "draft_pick": "v",
    "enc_known": "v",
    "factions": "l",
    "board": "l",
    "stack": "l",
    "ship": "l",
    "rm": "l",
    "cr": "l",
    "inf": "l",
    "emb_left": "l",
    "owner": "l",
    "dmg": "l",
    "moves": "l",
    "worm": "l",
    "disc_used": "l",
    "build_bonus": "l",
    "trades": "l",
    "exchange": "l",
    "rerolled": "l",
    "bonus_pts": "l",
    "picked": "l",
    "enc_deck": "l",
    "enc_discard": "l",
    "upg_deck": "l",
    "upg_discard": "l",
    "store": "l",
    "exp_discard": "l",
    "emb": "ll",
    "hand": "ll",
    "transit": "ll",
    "sickbay": "ll",
    "solo": "ll",
    "loc_cards": "ll",
    "slots": "ll",
    "used_upg": "ll",
    "reprog": "ll",
    "tokens": "ll",
    "collected": "ll",
    "exps": "ll",
    "secret": "ll",
    "done": "ll",
    "exp_decks": "ll",
    "packs": "ll",
    "kept": "ll",
    "seen": "ll",
    # modules and the solo drone (empty in the base game)
    "powers": "ll",
    "objs": "l",
    "obj_deck": "l",
    "gevents": "l",
    "ev_deck": "l",
    "ev_pts": "ll",
    "art_deck": "l",
    "upg_out": "l",
    "d_ship": "v",
    "d_left": "v",
    "d_pts": "v",
    "d_emb": "l",
    "d_done": "l",
    "d_known": "l",
    "d_decks": "ll",
    "d_used": "ll",
    # the Damage cards on each Dashboard, in slot order (Damage with effects)
    "dmg_cards": "ll",
    # later rules fixes (issue 13); states saved before them load with these empty
    "filled": "ll",
    "ready": "ll",
    # the round's own movement not yet used (issue 54: an engine Damage card slows it
    # while the card is on the Dashboard); saved before it: counted in ``moves``
    "base_moves": "l",
    "pending": "p",
}


def tuplify(x: Any) -> Any:
    """JSON lists back to the tuples frames use."""
    if isinstance(x, list):
        return tuple(tuplify(v) for v in x)
    if isinstance(x, dict):
        return {k: tuplify(v) for k, v in x.items()}
    return x


class StateData:
    """Fields and low-level helpers (resources, decks, slots, injuries)."""

    content: Content
    grid: Grid
    n: int
    rng: Rng
    reveals: int
    phase: str
    round: int
    first: int
    acted: int
    step: int
    dmg_supply: int
    draft_pick: int
    enc_known: int
    factions: list[int]
    board: list[int]
    stack: list[int]
    ship: list[int]
    rm: list[int]
    cr: list[int]
    inf: list[int]
    emb_left: list[int]
    owner: list[int]
    dmg: list[int]
    moves: list[int]
    base_moves: list[int]
    worm: list[int]
    disc_used: list[int]
    build_bonus: list[int]
    trades: list[int]
    exchange: list[int]
    rerolled: list[int]
    bonus_pts: list[int]
    picked: list[int]
    enc_deck: list[int]
    enc_discard: list[int]
    upg_deck: list[int]
    upg_discard: list[int]
    store: list[int]
    exp_discard: list[int]
    emb: list[list[int]]
    hand: list[list[int]]
    transit: list[list[int]]
    sickbay: list[list[int]]
    solo: list[list[int]]
    loc_cards: list[list[int]]
    slots: list[list[int]]
    used_upg: list[list[int]]
    reprog: list[list[int]]
    tokens: list[list[int]]
    collected: list[list[int]]
    exps: list[list[int]]
    secret: list[list[int]]
    done: list[list[int]]
    exp_decks: list[list[int]]
    packs: list[list[int]]
    kept: list[list[int]]
    seen: list[list[int]]
    powers: list[list[int]]
    objs: list[int]
    obj_deck: list[int]
    gevents: list[int]
    ev_deck: list[int]
    ev_pts: list[list[int]]
    art_deck: list[int]
    upg_out: list[int]
    d_ship: int
    d_left: int
    d_pts: int
    d_emb: list[int]
    d_done: list[int]
    d_known: list[int]
    d_decks: list[list[int]]
    d_used: list[list[int]]
    dmg_cards: list[list[int]]
    #: per seat, Locations whose third Embassy was built this round (doubling starts the
    #: next round)
    filled: list[list[int]]
    #: per seat, special actions (1, 2) rolled this round and not used yet
    ready: list[list[int]]
    pending: list[dict[str, Any]]
    #: seats plus the drone in solo (turn order runs over both); the drone's index is n
    turns: int
    is_solo: bool

    # --- derived constants (set by new_data) ----------------------------------------------
    n_locations: int
    gate_tile: int
    #: per tile id: the Anomaly kind (None for Locations and the gate), and passability
    tile_kind: tuple[str | None, ...]
    tile_passable: tuple[bool, ...]
    #: the content's lookup tables, made once per content (``t``)
    _tables: Tables | None = None
    #: solo: the drone's faction index and its rank card (set by the state)
    drone_faction: int
    rank: str

    @property
    def t(self) -> Tables:
        tb = self._tables
        if tb is None:
            tb = self._tables = tables(self.content)
        return tb

    @property
    def turn(self) -> int:
        """Whose turn it is in the round's turn order (the drone's index is ``n``)."""
        return (self.first + self.acted) % self.turns

    @property
    def drone(self) -> int:
        """The drone's index in the turn order (solo)."""
        return self.n

    def tile_at(self, cell: int) -> int:
        return self.board[cell]

    def location_at(self, cell: int) -> int:
        """The Location id on a cell, or -1 (empty, Anomaly or Space gate)."""
        t = self.board[cell]
        return t if 0 <= t < self.n_locations else -1

    def anomaly_kind(self, tile: int) -> str | None:
        return self.tile_kind[tile] if tile >= 0 else None

    def passable(self, cell: int) -> bool:
        t = self.board[cell]
        return t >= 0 and self.tile_passable[t]

    def tile_name(self, tile: int) -> str:
        if tile < self.n_locations:
            return self.content.locations[tile].id
        k = tile - self.n_locations
        if k < len(self.content.anomalies):
            return self.content.anomalies[k].id
        return "space_gate"

    def start_of(self, seat: int) -> int:
        d = self.content.dashboards[self.factions[seat]]
        return self.content.location_index[d.start]

    # --- resources -------------------------------------------------------------------------
    def gain(self, seat: int, rm: int = 0, crystal: int = 0, influence: int = 0) -> None:
        r = self.content.rules
        self.rm[seat] = min(r.max_rm, self.rm[seat] + rm)
        self.cr[seat] = min(r.max_crystal, self.cr[seat] + crystal)
        self.inf[seat] = min(r.max_influence, self.inf[seat] + influence)

    def lose(self, seat: int, rm: int = 0, crystal: int = 0, influence: int = 0) -> None:
        self.rm[seat] = max(0, self.rm[seat] - rm)
        self.cr[seat] = max(0, self.cr[seat] - crystal)
        self.inf[seat] = max(0, self.inf[seat] - influence)

    def production(self, seat: int, loc: int) -> tuple[int, int]:
        """What a Location gives this seat: printed, doubled with 3 of its Embassies from
        the round after the third was built ("double ... in the next round")."""
        p = self.content.locations[loc].produce
        mult = 2 if self.emb[seat][loc] >= 3 and loc not in self.filled[seat] else 1
        return p.rm * mult, p.crystal * mult

    def collect(self, seat: int, loc: int) -> tuple[int, int]:
        rm, crystal = self.production(seat, loc)
        self.gain(seat, rm=rm, crystal=crystal)
        self.collected[seat].append(loc)
        if loc in self.tokens[seat]:
            self.tokens[seat].remove(loc)
        return rm, crystal

    # --- decks -------------------------------------------------------------------------
    def draw_encounter(self) -> int:
        """Top card of the Encounter deck (the discard reshuffled when empty); -1 if none."""
        if not self.enc_deck:
            if not self.enc_discard:
                return -1
            self.enc_deck = self.enc_discard
            self.enc_discard = []
            self.rng.shuffle(self.enc_deck)
            self.enc_known = 0
        card = self.enc_deck.pop()
        self.enc_known = min(self.enc_known, len(self.enc_deck))
        self.reveals += 1
        return card

    def refill_store(self) -> None:
        """Fill empty store places from the Upgrade deck (discard reshuffled when empty)."""
        for i, u in enumerate(self.store):
            if u >= 0:
                continue
            if not self.upg_deck and self.upg_discard:
                self.upg_deck = self.upg_discard
                self.upg_discard = []
                self.rng.shuffle(self.upg_deck)
            if self.upg_deck:
                self.store[i] = self.upg_deck.pop()
                self.reveals += 1

    def draw_expedition(self, tier: int) -> int:
        deck = self.exp_decks[tier]
        if not deck:
            return -1
        self.reveals += 1
        return deck.pop()

    # --- Upgrade slots and Damage ----------------------------------------------------------
    def slot_capacity_left(self, seat: int) -> int:
        return self.content.rules.upgrade_slots - max(len(self.slots[seat]), self.dmg[seat])

    def real_upgrades(self, seat: int) -> list[int]:
        return [u for u in self.slots[seat] if u >= 0]

    def enabled_upgrades(self, seat: int) -> list[int]:
        """Upgrades in the slots no Damage card covers (Damage fills the first slots)."""
        d = self.dmg[seat]
        sl = self.slots[seat]
        return [u for u in (sl[d:] if d > 0 else sl) if u >= 0]

    def install(self, seat: int, upg: int) -> None:
        """Place an Upgrade in the next free slot (after any Damage cards)."""
        sl = self.slots[seat]
        while len(sl) < self.dmg[seat]:
            sl.append(-1)
        sl.append(upg)

    def remove_upgrade(self, seat: int, upg: int) -> None:
        """Discard or destroy: the others slide over, leaving no gap."""
        self.slots[seat].remove(upg)
        self.upg_discard.append(upg)
        if upg in self.used_upg[seat]:
            self.used_upg[seat].remove(upg)
        self._compact(seat)

    def _compact(self, seat: int) -> None:
        sl = self.slots[seat]
        d = self.dmg[seat]
        self.slots[seat] = [u for i, u in enumerate(sl) if u >= 0 or i < d]
        while self.slots[seat] and self.slots[seat][-1] < 0:
            self.slots[seat].pop()

    def take_damage(self, seat: int) -> bool:
        """The top card of the shuffled Damage deck: a random one of those in the supply."""
        if self.dmg_supply <= 0 or self.dmg[seat] >= self.content.rules.upgrade_slots:
            return False
        held = {d for cards in self.dmg_cards for d in cards}
        supply = [d for d in range(len(self.content.damage)) if d not in held]
        if supply:
            self.dmg_cards[seat].append(supply[self.rng.below(len(supply))])
        self.dmg_supply -= 1
        self.dmg[seat] += 1
        return True

    def repair(self, seat: int) -> bool:
        """Repair one Damage: a card that slows the ship first (the choice every player
        would make: the other cards' only lasting harm, the covered slot, is the same)."""
        if self.dmg[seat] <= 0:
            return False
        cards = self.dmg_cards[seat]
        if cards:
            slow = self.content.damage
            cards.pop(next((i for i, d in enumerate(cards) if slow[d].movement), 0))
        self.dmg[seat] -= 1
        self.dmg_supply += 1
        self._compact(seat)
        return True

    def movement(self, seat: int) -> int:
        """Free movement left now: the round's own movement, slowed by the engine Damage
        cards on the Dashboard at this moment, plus what move effects gave."""
        base = self.base_moves[seat] if self.base_moves else 0
        return max(0, base - self.slowdown(seat)) + self.moves[seat]

    def use_movement(self, seat: int, steps: int) -> None:
        """Spend ``steps`` free movement, the round's own first (the part Damage can
        take away or a repair give back), then what effects gave."""
        if self.base_moves:
            own = min(steps, max(0, self.base_moves[seat] - self.slowdown(seat)))
            self.base_moves[seat] -= own
            steps -= own
        self.moves[seat] -= steps

    def slowdown(self, seat: int) -> int:
        """Movement lost to Damage cards (the round's movement and each move effect)."""
        cards = self.dmg_cards[seat]
        if not cards:
            return 0
        dmg = self.content.damage
        return sum(dmg[d].movement for d in cards)

    def injure(self, seat: int) -> int:
        """A random hand card to the Sickbay (an opponent picks blind); -1 if none."""
        h = self.hand[seat]
        if not h:
            return -1
        card = h.pop(self.rng.below(len(h)))
        self.sickbay[seat].append(card)
        self._drop_reprogram(seat, card)
        return card

    def _drop_reprogram(self, seat: int, card: int) -> None:
        rp = self.reprog[seat]
        for i in range(0, len(rp), 2):
            if rp[i] == card:
                del rp[i : i + 2]
                return

    # --- scoring ---------------------------------------------------------------------------
    def base_points(self, seat: int) -> int:
        """Points of the base game (Expeditions, bonuses, full Embassies); the modules'
        are added by ``modules.points``."""
        exps = self.content.expeditions
        total = sum(exps[e].points for e in self.done[seat]) + self.bonus_pts[seat]
        total += sum(1 for c in self.emb[seat] if c >= 3)
        return total

    def crew_levels(self, seat: int) -> int:
        crew = self.content.crew
        return sum(
            crew[c].level
            for pile in (self.hand, self.transit, self.sickbay, self.solo)
            for c in pile[seat]
        )


def new_data(obj: StateData, content: Content, n: int, rng: Rng) -> None:
    """Empty fields for ``n`` seats."""
    set_constants(obj, content)
    obj.n = n
    obj.rng = rng
    for name, kind in FIELDS.items():
        if kind == "v":
            setattr(obj, name, 0)
        elif kind == "l":
            setattr(obj, name, [])
        else:
            setattr(obj, name, [])
    obj.dmg_cards = [[] for _ in range(n)]
    obj.base_moves = [0] * n
    obj.phase = "draft"


def set_constants(obj: StateData, content: Content) -> None:
    """Content-derived lookups shared by every copy of a state."""
    obj.content = content
    obj.grid = grid(content.rules.board_radius)
    nl = len(content.locations)
    obj.n_locations = nl
    obj.gate_tile = nl + len(content.anomalies)
    t = obj._tables = tables(content)
    obj.tile_kind = t.tile_kind
    obj.tile_passable = t.tile_passable


def _value(v: Any) -> Any:
    if not isinstance(v, (int, str)):
        raise ValueError(f"not a number or a word: {v!r}")
    return v


def jsonable(x: Any) -> Any:
    """Frames' tuples as JSON lists (the inverse of ``tuplify``)."""
    if isinstance(x, (tuple, list)):
        return [jsonable(v) for v in x]
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    return x


#: fields added with the modules and later: states saved before them load with these empty
_NAMES = list(FIELDS)
MODULE_FIELDS = frozenset(_NAMES[_NAMES.index("powers") : _NAMES.index("pending")])


def _empty(_s: Any) -> list[Any]:
    return []


def _zero(_s: Any) -> int:
    return 0


def _field(name: str, kind: str) -> fields.Field:
    default: Callable[[Any], Any] | None = None
    if name in MODULE_FIELDS:
        default = _zero if kind == "v" else _empty
    if kind == "v":
        return fields.value(name, _value, default=default)
    if kind == "l":
        return fields.ints(name, default=default)
    if kind == "ll":
        return fields.int_lists(name, default=default)
    return fields.custom(
        name,
        "[dict(_f) for _f in {x}]",
        "[jsonable(_f) for _f in {x}]",
        lambda v: [tuplify(f) for f in v],
        default=default,
    )


#: the field table (core/fields.py) made from FIELDS: its copy is a straight-line
#: function (clone is hot in tree search)
TABLE = fields.FieldTable(
    "expedition",
    [
        # the match's constants and content-derived look-ups: shared by every copy
        *map(fields.shared, ("content", "grid", "n", "n_locations", "gate_tile", "_tables")),
        *map(fields.shared, ("tile_kind", "tile_passable", "is_solo", "rank", "turns")),
        fields.shared("drone_faction"),
        fields.own("applied"),  # moves applied to this object (state.py): a clone's start at 0
        fields.own("_offered"),  # the legal list last handed out (state.py): a clone's none
        *(_field(name, kind) for name, kind in FIELDS.items()),
    ],
    env={"jsonable": jsonable},
)
copy_fields = TABLE.copy
fields_json = TABLE.dump


def fields_from_json(dst: StateData, obj: dict[str, Any]) -> None:
    TABLE.load(dst, obj)
    if not dst.dmg_cards:  # saved before Damage cards had effects: none named yet
        dst.dmg_cards = [[] for _ in dst.hand]
    if not dst.base_moves:  # saved before issue 54: the round's movement is in ``moves``
        dst.base_moves = [0 for _ in dst.hand]
