"""The Command phase: movement, Embassies and recruiting, Expeditions, collecting, and
every way to spend Raw Materials, Crystals and Influence; plus the action dispatcher.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, IllegalAction, private
from skydeck.games.expedition import effects, flow, galactic, modules, sensor
from skydeck.games.expedition.actions import act, each
from skydeck.games.expedition.board import Grid
from skydeck.games.expedition.content import SKILLS, TIERS

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState

SPENDABLE = ("rm", "crystal")
TRADABLE = ("rm", "crystal", "influence")
#: how a ``build`` pays: every discount, only one of the two, or the printed price
BUILD_MODES = ("", "exploration", "bonus", "full")
#: (tiles, start cell and search, map) -> reachable tiles with their distance
_DISTANCES: dict[tuple[int, int, tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
#: (grid radius, start cell, blocking cells, Hazard cells) -> the search's visiting order
_ORDERS: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
#: (map key, free movement, Jumps in RM, Jumps in Crystals) -> moves and warps
_MOVES: dict[tuple[Any, ...], tuple[Action, ...]] = {}
#: Entries kept before either cache starts again (about 2 KB each, the map in the key). A
#: search reuses a few hundred maps; 50,000 held ~100 MB in a long-running server, the
#: soak's main memory growth.
DISTANCES_KEPT = 4096


# --- costs and checks ------------------------------------------------------------------
def build_cost(
    st: ExpeditionState, seat: int, mode: str = "", crystals: int | None = None
) -> tuple[int, int, bool, bool] | None:
    """(RM, Crystal, uses the exploration discount, uses the build discount) to build
    here now, or None. ``mode`` (the argument of ``build``): "" every discount that
    lowers the price, "exploration" or "bonus" only that one (keeping the other for a
    later Embassy this round), "full" the printed price (keeping both). A discount
    that takes nothing off is not spent. ``crystals``: how much of the build
    discount (Terraform: "2 less Resources (Raw Materials and/or Crystals)") comes
    off the Crystals, the player's split; None: off the Raw Materials first."""
    if mode not in BUILD_MODES:
        raise ValueError(f"unknown build mode {mode!r}; known: {BUILD_MODES}")
    here = st.location_at(st.ship[seat])
    if here < 0 or st.emb_left[seat] <= 0:
        return None
    c = st.emb[seat][here]
    own = st.owner[here]
    loc = st.content.locations[here]
    if c >= 3 or (loc.level == 0 and own != seat):
        return None
    if loc.kind != "recruit" and (c >= 1 or (loc.kind == "legendary" and own >= 0)):
        return None  # Legendary: one Embassy in all; Artifact: one per player
    if own < 0:
        if any(st.ship[o] == st.ship[seat] for o in range(st.n) if o != seat):
            return None  # an empty Location is blocked by a ship standing on it
        if st.is_solo and st.d_ship == st.ship[seat]:
            return None  # ... the drone's ship too
        idx = 0
    elif own == seat:
        idx = c
    else:
        if c >= 1:
            return None
        idx = 0
    rm, crystal = loc.cost[idx].rm, loc.cost[idx].crystal
    discount = False
    disc = st.content.rules.exploration_discount
    if (
        mode in ("", "exploration")
        and c == 0
        and st.round <= len(disc)
        and not st.disc_used[seat]
        and rm > 0
    ):
        rm = max(0, rm - disc[st.round - 1])
        discount = True
    bonus = st.build_bonus[seat] if mode in ("", "bonus") else 0
    used = False
    if bonus and rm + crystal > 0:
        total = min(bonus, rm + crystal)
        if crystals is None:
            off_cr = total - min(total, rm)
        elif max(0, total - rm) <= crystals <= min(total, crystal):
            off_cr = crystals
        else:
            return None  # a split the price does not allow
        rm -= total - off_cr
        crystal -= off_cr
        used = True
    elif crystals is not None:
        return None
    if st.rm[seat] < rm or st.cr[seat] < crystal:
        return None
    return rm, crystal, discount, used


def build_actions(st: ExpeditionState, seat: int) -> list[Action]:
    """``build`` with every discount, and each other way to pay that differs from it
    (the player decides which Embassy gets which discount)."""
    best = build_cost(st, seat)
    if best is None:
        return []
    acts = [act("build")]
    seen = {best}
    for mode, uses in (("exploration", 2), ("bonus", 3), ("full", -1)):
        cost = build_cost(st, seat, mode)
        if cost is not None and cost not in seen and (uses < 0 or cost[uses]):
            seen.add(cost)
            acts.append(act("build", (mode,)))
    # the build discount's other splits between Raw Materials and Crystals
    bonus = st.build_bonus[seat]
    for mode, word in (("", "all"), ("bonus", "bonus")):
        for n in range(1, bonus + 1):
            cost = build_cost(st, seat, mode, n)
            if cost is not None and cost[3] and cost not in seen:
                seen.add(cost)
                acts.append(act("build", (word, n)))
    return acts


def reach(st: ExpeditionState, seat: int, limit: int, over: bool = False) -> dict[int, int]:
    """Tiles a ship can move to within ``limit`` movement -> the movement it takes.
    Ships move through empty space (RULINGS.md 12): every cell entered costs one
    movement, placed tile or empty; Asteroid belts block; a move ends on a tile. A
    path goes around Hazards (one may still be where it ends) unless ``over``: then
    the shortest path, over Hazards too (RULINGS.md 48)."""
    return {c: d for c, d in distances(st, st.ship[seat], not over) if d <= limit}


def _distance(st: ExpeditionState, start: int, cell: int, around: bool) -> int:
    """``reach`` without a limit, for one cell: its distance (KeyError if no tile there
    or unreachable)."""
    if st.board[cell] >= 0:
        around = around and st.content.mod is not None
        for c, d in _visits(st, start, around):
            if c == cell:
                return d
    raise KeyError(cell)


def hazards_on_map(st: ExpeditionState) -> bool:
    kind = st.tile_kind
    return st.content.mod is not None and any(t >= 0 and kind[t] == "hazard" for t in st.board)


def hazards_over(st: ExpeditionState, start: int, cell: int) -> list[int]:
    """The Hazards a ship flies over on a shortest path from ``start`` to ``cell``
    (the path over the fewest of them; ``cell`` itself is not counted)."""
    nb, board, kind = st.grid.neighbours, st.board, st.tile_kind
    best: dict[int, tuple[int, int]] = {start: (0, -1)}  # cell -> (Hazards, parent)
    frontier = [start]
    while frontier and cell not in best:
        layer: dict[int, tuple[int, int]] = {}
        for c in frontier:
            t = board[c]
            if c != start and t >= 0 and not st.tile_passable[t]:
                continue
            here = best[c][0] + (c != start and t >= 0 and kind[t] == "hazard")
            for x in nb[c]:
                if x in best:
                    continue
                tx = board[x]
                if tx >= 0 and not st.tile_passable[tx]:
                    continue
                if x not in layer or here < layer[x][0]:
                    layer[x] = (here, c)
        best.update(layer)
        frontier = list(layer)
    out, c = [], best[cell][1] if cell in best else -1
    while c not in (-1, start):
        t = board[c]
        if t >= 0 and kind[t] == "hazard":
            out.append(c)
        c = best[c][1]
    return out[::-1]


def _map_key(st: ExpeditionState, start: int, around: bool) -> tuple[int, int, tuple[int, ...]]:
    """What ``distances`` depends on: the content's tiles (one tuple per content, held
    for good by ``tables``), the start and the search's kind, and the map."""
    return (id(st.tile_passable), start * 2 + around, tuple(st.board))


def distances(st: ExpeditionState, start: int, around: bool = True) -> tuple[tuple[int, int], ...]:
    """(tile cell, cells from ``start``) for every tile a ship on ``start`` can reach,
    nearest first (``around``: never through a Hazard). Cached by map: the map
    changes rarely and tree search asks for the same maps again and again."""
    around = around and st.content.mod is not None
    key = _map_key(st, start, around)
    hit = _DISTANCES.get(key)
    if hit is None:
        hit = _search(st, start, around)
        if len(_DISTANCES) >= DISTANCES_KEPT:
            _DISTANCES.clear()
        _DISTANCES[key] = hit
    return hit


def _search(st: ExpeditionState, start: int, around: bool) -> tuple[tuple[int, int], ...]:
    """The breadth-first search of ``distances``, read off ``_order``: which cells it
    visits, and in what order, depends only on where the blocking tiles lie (and the
    Hazards, when ``around``); the tiles among them are the answer."""
    board = st.board
    return tuple([(x, d) for x, d in _visits(st, start, around) if board[x] >= 0])


def _visits(st: ExpeditionState, start: int, around: bool) -> tuple[tuple[int, int], ...]:
    """Every cell the search from ``start`` passes or lands on, nearest first."""
    board = st.board
    t = st.t
    stops = _cells_of(board, t.tile_blocked)
    bends = _cells_of(board, t.tile_hazard) if around else ()
    return _order(st.grid, start, stops, bends)


def _cells_of(board: list[int], tiles: frozenset[int]) -> tuple[int, ...]:
    """The cells where these tiles lie, in cell order (a few tiles: list scans in C)."""
    cells: list[int] = []
    for tile in tiles:
        n = board.count(tile)
        if n == 1:
            cells.append(board.index(tile))
        elif n:
            cells += [c for c, x in enumerate(board) if x == tile]
    return tuple(sorted(cells))


def _order(
    grid: Grid, start: int, stops: tuple[int, ...], bends: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    """Every cell a ship on ``start`` can pass or land on, with its distance, in the
    order a breadth-first search finds them: empty space and tiles are crossed, a cell
    in ``stops`` (an Asteroid belt) never entered, one in ``bends`` (a Hazard, when the
    path goes around them) landed on, never crossed. Cached: the blocking tiles move
    rarely, while the map's other tiles, which change nothing here, come and go."""
    key = (grid.radius, start, stops, bends)
    hit = _ORDERS.get(key)
    if hit is not None:
        return hit
    nb = grid.neighbours
    seen = bytearray(grid.size)
    seen[start] = 1
    for c in stops:
        seen[c] = 1
    frontier = [start]
    out: list[tuple[int, int]] = []
    d = 0
    while frontier:
        d += 1
        nxt = []
        for c in frontier:
            for x in nb[c]:
                if not seen[x]:
                    seen[x] = 1
                    out.append((x, d))
                    if x not in bends:
                        nxt.append(x)
        frontier = nxt
    if len(_ORDERS) >= DISTANCES_KEPT:
        _ORDERS.clear()
    res = _ORDERS[key] = tuple(out)
    return res


def wormhole_cells(st: ExpeditionState, seat: int) -> list[int]:
    here = st.ship[seat]
    if not st.worm[seat] or st.anomaly_kind(st.board[here]) != "wormhole":
        return []
    return [
        c
        for c, tile in enumerate(st.board)
        if c != here and tile >= 0 and st.anomaly_kind(tile) == "wormhole"
    ]


def resources(st: ExpeditionState, seat: int, word: str) -> int:
    return {"rm": st.rm, "crystal": st.cr, "influence": st.inf}[word][seat]


def _spend(st: ExpeditionState, seat: int, word: str, n: int) -> None:
    {"rm": st.rm, "crystal": st.cr, "influence": st.inf}[word][seat] -= n


# --- legal Command actions -------------------------------------------------------------
def command_actions(st: ExpeditionState, seat: int, only: str | None = None) -> list[Action]:
    """Every legal Command action, or only those of one kind (for fast validation)."""
    costs = st.content.rules.costs
    t = st.t
    acts: list[Action] = []
    here = st.ship[seat]
    if only in (None, "move", "warp"):
        acts += movement_actions(st, seat)
    if only in (None, "wormhole"):
        acts += [act("wormhole", (c,)) for c in wormhole_cells(st, seat)]
    if only in (None, "build"):
        acts += build_actions(st, seat)
    loc = st.location_at(here)
    if only in (None, "collect") and loc >= 0 and loc in st.tokens[seat]:
        acts.append(act("collect"))
    if only in (None, "expedition"):
        cards = effects.pool(
            st, seat, tuple(st.hand[seat]), tuple(effects.usable_upgrades(st, seat))
        )
        for x in st.exps[seat] + st.secret[seat]:
            if effects.meets_with(st, seat, t.exp_req[x], cards):
                acts.append(each("expedition", t.exp_ids)[x])
    if only in (None, "buy") and st.rm[seat] >= costs["upgrade"]:
        acts += effects.upgrade_choices(st, seat, "buy")
    if only in (None, "repair") and st.dmg[seat] and st.rm[seat] >= costs["repair"]:
        acts.append(act("repair"))
    if only in (None, "reprogram") and st.cr[seat] >= costs["reprogram"]:
        done = set(st.reprog[seat][0::2])
        for c in sorted(st.hand[seat]):
            if t.robot in t.crew_skills[c] and c not in done:
                acts += [
                    act("reprogram", (t.crew_ids[c], SKILLS[s]))
                    for s in range(len(SKILLS))
                    if s not in t.crew_skills[c]
                ]
    if only in (None, "solo"):
        acts += [
            each("solo", t.crew_ids)[c]
            for c in sorted(st.hand[seat])
            if effects.solo_affordable(st, seat, c)
        ]
    if only in (None, "ability"):
        ability = each("ability", t.upg_ids)
        acts += [ability[u] for u in effects.enabled_discardable(st, seat)]
    if only in (None, "special"):
        acts += [act("special", (k,)) for k in st.ready[seat]]
    inf = st.inf[seat]
    if only in (None, "replace") and inf >= costs["replace_expedition"]:
        for x in st.exps[seat]:
            acts += [act("replace", (t.exp_ids[x], TIERS[i])) for i in range(3) if st.exp_decks[i]]
    if (
        only in (None, "scan")
        and inf >= costs["influence_tile"]
        and st.stack
        and effects.placement_cells(st, seat, False, here)
    ):
        acts.append(act("scan"))
    if only in (None, "exchange") and inf >= costs["exchange"] and not st.exchange[seat]:
        acts.append(act("exchange"))
    if only in (None, "convert") and st.exchange[seat]:
        acts += _two_for_one(st, seat, "convert", SPENDABLE)
    if (
        only in (None, "secret")
        and inf >= costs["secret_expedition"]
        and len(st.secret[seat]) < st.content.rules.max_secret
    ):
        acts += [act("secret", (TIERS[i],)) for i in range(3) if st.exp_decks[i]]
    if only in (None, "trade") and st.trades[seat]:
        acts += _two_for_one(st, seat, "trade", TRADABLE)
    if only in (None, "end"):
        acts.append(act("end"))
    return acts if only is None else [a for a in acts if a.kind == only]


def movement_actions(st: ExpeditionState, seat: int) -> tuple[Action, ...]:
    """Every ``move`` and ``warp`` of ``seat``. Cached by what they depend on (the map
    and the ship's cell, the free movement, the Jumps each resource pays for): a
    Command turn asks twice (the legal list, then its validation) and a random or
    searching player moves among the same few cells."""
    costs = st.content.rules.costs
    free = st.movement(seat)
    by_rm = st.rm[seat] // costs["warp_rm"]
    by_cr = st.cr[seat] // costs["warp_crystal"]
    start = st.ship[seat]
    key = (_map_key(st, start, st.content.mod is not None), free, by_rm, by_cr)
    hit = _MOVES.get(key)
    if hit is not None:
        return hit
    limit = free + by_rm + by_cr
    acts = _moves(st, _visits(st, start, st.content.mod is not None), limit, free, by_rm, by_cr, ())
    if hazards_on_map(st):
        # "you might want to go around them. But, if you take a chance and roll
        # the die ...": where the shortest path flies over a Hazard, that too
        reached = reach(st, seat, limit)
        over = reach(st, seat, limit, over=True)
        shorter = [(c, d) for c, d in over.items() if d < reached.get(c, limit + 1)]
        acts += _moves(st, shorter, limit, free, by_rm, by_cr, ("hazard",))
    if len(_MOVES) >= DISTANCES_KEPT:
        _MOVES.clear()
    res = _MOVES[key] = tuple(acts)
    return res


def _moves(
    st: ExpeditionState,
    reach: Iterable[tuple[int, int]],
    limit: int,
    free: int,
    by_rm: int,
    by_cr: int,
    tail: tuple[str, ...],
) -> list[Action]:
    """``move`` within the free movement, else ``warp`` paying each cell beyond it
    with 2 RM or 1 Crystal (``by_rm``, ``by_cr``: the Jumps each pays for), or both
    ("Raw Materials and/or Crystals": ``mixed K``, K Jumps in Crystals and the rest in
    RM); ``tail`` ends every action. ``reach``: (cell, distance) nearest first (a
    search's visits: empty cells, not stopped in, are passed over here); those beyond
    ``limit`` left out. In that order, the moves, then the warps in RM, in Crystals,
    mixed."""
    move, warp_rm, warp_cr, mix = _cell_moves(st.grid.size, st.content.rules.max_crystal, tail)
    moves: list[Action] = []
    rms: list[Action] = []
    crs: list[Action] = []
    mixed: list[Action] = []
    board = st.board
    for c, d in reach:
        if d > limit:
            break  # nearest first: nothing further is within reach
        if board[c] < 0:
            continue
        if d <= free:
            moves.append(move[c])
            continue
        need = d - free
        if need <= by_rm:
            rms.append(warp_rm[c])
        if need <= by_cr:
            crs.append(warp_cr[c])
        lo, hi = max(1, need - by_rm), min(need - 1, by_cr)
        if lo <= hi:
            row = mix[c]
            if hi <= len(row):
                mixed += row[lo - 1 : hi]
            else:  # more Crystals than the rules hold (a scenario's plain fields)
                mixed += [act("warp", (c, "mixed", k, *tail)) for k in range(lo, hi + 1)]
    return moves + rms + crs + mixed


@lru_cache(maxsize=8)
def _cell_moves(size: int, crystals: int, tail: tuple[str, ...]) -> tuple[Any, ...]:
    """Per cell: its ``move``, its ``warp`` in RM, in Crystals, and its ``warp mixed
    K`` for K = 1 up to the most Crystals a player holds: the shared actions looked
    up once."""
    cells = range(size)
    return (
        tuple(act("move", (c, *tail)) for c in cells),
        tuple(act("warp", (c, "rm", *tail)) for c in cells),
        tuple(act("warp", (c, "crystal", *tail)) for c in cells),
        tuple(
            tuple(act("warp", (c, "mixed", k, *tail)) for k in range(1, crystals + 1))
            for c in cells
        ),
    )


def _two_for_one(st: ExpeditionState, seat: int, kind: str, pool: Sequence[str]) -> list[Action]:
    """The 2:1 swaps of ``pool``'s resources the seat can pay for: the exchange's
    ``convert`` and the Galactic trader's ``trade`` differ only in which resources."""
    return [
        act(kind, (give, get))
        for give in pool
        for get in pool
        if give != get and resources(st, seat, give) >= 2
    ]


# --- applying Command actions ----------------------------------------------------------
def apply_command(st: ExpeditionState, seat: int, a: Action, events: list[Event]) -> None:
    k = a.kind
    costs = st.content.rules.costs
    t = st.t
    ci = st.content
    if k in ("move", "warp", "wormhole"):
        cell = int(a.args[0])  # type: ignore[arg-type]
        steps = 0
        paid = {"rm": 0, "crystal": 0}  # a Warp Jump's price, told in the log
        over = a.args[-1] == "hazard"  # flying over a Hazard: its die is rolled
        start = st.ship[seat]
        if k == "move":
            steps = _distance(st, st.ship[seat], cell, not over)
            if steps > st.movement(seat):  # as ``reach`` within the free movement
                raise KeyError(cell)
            st.use_movement(seat, steps)
        elif k == "warp":
            word = str(a.args[1])
            steps = _distance(st, st.ship[seat], cell, not over)
            free = st.movement(seat)
            if word == "mixed":  # K Jumps paid in Crystals, the others in RM
                jumps = int(a.args[2])  # type: ignore[arg-type]
                paid["crystal"] = costs["warp_crystal"] * jumps
                paid["rm"] = costs["warp_rm"] * (steps - free - jumps)
            else:
                paid[word] = costs["warp_" + word] * (steps - free)
            for what, n in paid.items():
                _spend(st, seat, what, n)
            st.use_movement(seat, free)
        st.ship[seat] = cell
        if k != "wormhole" and st.content.mod is not None:
            if over:
                for h in hazards_over(st, start, cell):
                    modules.hazard_landing(st, seat, h, events)
            modules.hazard_landing(st, seat, cell, events)
        st.worm[seat] = int(
            k != "wormhole"
            and st.anomaly_kind(st.board[cell]) == "wormhole"
            and sum(1 for x in st.board if x >= 0 and st.anomaly_kind(x) == "wormhole") > 1
        )
        moved = {"seat": seat, "cell": cell, "how": k, "steps": steps}
        if k == "warp":
            moved["paid"] = {w: n for w, n in paid.items() if n}
        events.append(Event("moved", moved))
    elif k == "build":
        mode = str(a.args[0]) if a.args else ""
        split = int(a.args[1]) if len(a.args) > 1 else None  # type: ignore[arg-type]
        build(st, seat, events, "" if mode == "all" else mode, split)
    elif k == "collect":
        rm, crystal = st.collect(seat, st.location_at(st.ship[seat]))
        events.append(Event("collected", {"seat": seat, "rm": rm, "crystal": crystal}))
    elif k == "expedition":
        x = ci.expedition_index[str(a.args[0])]
        st.pending.append({"k": "exp", "s": seat, "x": x, "sel": (), "su": ()})
    elif k == "buy":
        st.rm[seat] -= costs["upgrade"]
        u = effects.gain_upgrade(st, seat, a)
        galactic.trigger(st, seat, "upgrade")
        events.append(Event("upgrade_bought", {"seat": seat, "upgrade": t.upg_ids[u]}))
    elif k == "repair":
        st.rm[seat] -= costs["repair"]
        st.repair(seat)
    elif k == "reprogram":
        st.cr[seat] -= costs["reprogram"]
        c = ci.crew_index[str(a.args[0])]
        st.reprog[seat] += [c, SKILLS.index(str(a.args[1]))]
    elif k == "solo":
        c = ci.crew_index[str(a.args[0])]
        events.append(Event("solo_mission", {"seat": seat, "crew": t.crew_ids[c]}))
        effects.start_solo(st, seat, c)
    elif k == "ability":
        u = ci.upgrade_index[str(a.args[0])]
        st.remove_upgrade(seat, u)
        effects.push_fx(st, seat, t.upg_ability[u])
    elif k == "special":
        effects.push_fx(st, seat, flow.use_special(st, seat, int(a.args[0]), events))  # type: ignore[arg-type]
    elif k == "replace":
        st.inf[seat] -= costs["replace_expedition"]
        x = ci.expedition_index[str(a.args[0])]
        st.exps[seat].remove(x)
        st.exp_discard.append(x)
        card = st.draw_expedition(TIERS.index(str(a.args[1])))
        st.exps[seat].append(card)
        events.append(Event("expedition_drawn", {"seat": seat, "expedition": t.exp_ids[card]}))
    elif k == "scan":
        st.inf[seat] -= costs["influence_tile"]
        effects.open_placement(st, seat, 1, False, False, events)
    elif k == "exchange":
        st.inf[seat] -= costs["exchange"]
        st.exchange[seat] = 1
    elif k in ("convert", "trade"):
        give, get = str(a.args[0]), str(a.args[1])
        _spend(st, seat, give, 2)
        st.gain(
            seat,
            **{"rm": {"rm": 1}, "crystal": {"crystal": 1}, "influence": {"influence": 1}}[get],
        )
        if k == "trade":
            st.trades[seat] -= 1
    elif k == "secret":
        st.inf[seat] -= costs["secret_expedition"]
        effects.take_secret(st, seat, TIERS.index(str(a.args[0])), events)
    elif k == "end":
        st.acted += 1
        events.append(Event("command_done", {"seat": seat}))
        flow.open_windows(st, st.turn)


def build(
    st: ExpeditionState, seat: int, events: list[Event], mode: str = "", crystals: int | None = None
) -> None:
    cost = build_cost(st, seat, mode, crystals)
    assert cost is not None
    rm, crystal, discount, bonus = cost
    here = st.location_at(st.ship[seat])
    st.rm[seat] -= rm
    st.cr[seat] -= crystal
    if discount:
        st.disc_used[seat] = 1
    if bonus:
        st.build_bonus[seat] = 0
    c = st.emb[seat][here]
    st.emb[seat][here] = c + 1
    if c + 1 >= 3:
        st.filled[seat].append(here)
    st.emb_left[seat] -= 1
    st.gain(seat, influence=1)
    own = st.owner[here]
    loc = st.content.locations[here]
    recruit = -1
    if own < 0:
        st.owner[here] = seat
        if loc.kind == "recruit":  # Legendary and Artifact Locations have no card
            st.loc_cards[seat].append(here)
        if loc.crew:
            recruit = st.content.crew_index[loc.crew[0]]
    elif own == seat and not (st.is_solo and st.d_emb[here]):
        recruit = st.content.crew_index[loc.crew[c]]  # (a drone cube stops recruiting)
    if recruit >= 0:
        st.transit[seat].append(recruit)
    if loc.kind == "artifact":
        modules.offer_artifact(st, seat)
    galactic.trigger(st, seat, "embassy", loc.type)
    events.append(
        Event(
            "embassy",
            {
                "seat": seat,
                "location": loc.id,
                "count": c + 1,
                "recruit": st.t.crew_ids[recruit] if recruit >= 0 else None,
            },
        )
    )


# --- dispatch --------------------------------------------------------------------------
def frame_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    k = f["k"]
    if k == "sensor":
        return sensor.sensor_actions(st, f)
    if k == "enc":
        return sensor.enc_actions(st, f)
    if k == "enc_reward":
        return [act("bonus"), act("alt")]
    if k == "window":
        return [*flow.window_actions(st, f["s"], f["w"] == "command"), act("pass")]
    if k == "enc_pick":
        return [act("pick", (st.t.enc_ids[c],)) for c in f["cards"]]
    if k == "exp":
        return sensor.exp_actions(st, f)
    if k in ("tokens", "new_exp"):
        return flow.round_frame_actions(st, f)
    if k == "artifact":
        return modules.artifact_actions(st, f["s"])
    if k == "choose":
        return choose_actions(st, f)
    return effects.effect_frame_actions(st, f)


def choose_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    """``option I`` for each option that can do something now (Subspace gateway's
    teleport needs a Collection token); all of them if none can."""
    seat = f["s"]
    ok = [i for i, opt in enumerate(f["opts"]) if any(can_do(st, seat, e) for e in opt)]
    return [act("option", (i,)) for i in ok or range(len(f["opts"]))]


def can_do(st: ExpeditionState, seat: int, e: dict[str, Any]) -> bool:
    """Could this effect change anything for ``seat`` now?"""
    op = e["op"]
    if op == "collect_remote":
        return bool(st.tokens[seat])
    if op == "take_upgrade":
        return effects.can_take_upgrade(st, seat)
    if op in ("steal", "attack"):
        return st.n > 1
    if op == "secret_expedition":
        return len(st.secret[seat]) < st.content.rules.max_secret and any(st.exp_decks)
    return True


def actions_for(st: ExpeditionState, seat: int) -> list[Action]:
    if st.phase == "over":
        return []
    if st.pending:
        f = st.pending[-1]
        return frame_actions(st, f) if f["s"] == seat else []
    if st.phase == "start":
        return flow.start_actions(st, seat)
    if st.phase == "draft":
        return flow.draft_actions(st, seat)
    if st.phase == "powers":
        return modules.power_actions(st, seat)
    if st.phase == "command" and seat == st.turn:
        return command_actions(st, seat)
    return []


def dispatch(st: ExpeditionState, seat: int, a: Action) -> list[Event]:
    if a.kind == "draft":  # picks stay hidden until the draft ends
        head = private("action", seat, {"seat": seat, "action": str(a)}, {"seat": seat})
    else:
        head = Event("action", {"seat": seat, "action": str(a)})
    events: list[Event] = [head]
    if st.pending:
        f = st.pending[-1]
        k = f["k"]
        if k == "sensor":
            sensor.apply_sensor(st, f, a, events)
        elif k == "enc":
            sensor.apply_enc(st, f, a, events)
        elif k == "enc_reward":
            sensor.apply_enc_reward(st, f, a, events)
        elif k == "window":
            flow.apply_window(st, f, a, events)
        elif k == "enc_pick":
            sensor.apply_enc_pick(st, f, a, events)
        elif k == "exp":
            sensor.apply_exp(st, f, a, events)
        elif k in ("tokens", "new_exp"):
            flow.apply_round_frame(st, f, a, events)
        elif k == "artifact":
            modules.apply_artifact(st, f["s"], a, events)
        else:
            effects.apply_effect_frame(st, f, a, events)
    elif st.phase == "start":
        flow.apply_start(st, seat, a, events)
    elif st.phase == "draft":
        flow.apply_draft(st, seat, a, events)
    elif st.phase == "powers":
        modules.apply_power(st, seat, a, events)
    elif st.phase == "command":
        apply_command(st, seat, a, events)
    else:  # pragma: no cover - to_move guards this
        raise IllegalAction(f"nothing to do in phase {st.phase}")
    flow.settle(st, events)
    return events
