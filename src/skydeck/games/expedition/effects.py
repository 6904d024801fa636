"""The effect executor and the small decision frames effects open.

Effects (the data vocabulary in content.py) run from a stack of pending frames: an
``fx`` frame holds effects still to run; a decision frame (choose, take an Upgrade,
pick a target, react to harm, place a tile, ...) waits for its seat's action. Harm to a
ship (Injury, Damage, theft) goes through a ``harm`` frame so its victim can react with
a Solo mission or an Upgrade first (see RULINGS.md).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, IllegalAction
from skydeck.games.expedition import galactic
from skydeck.games.expedition.actions import act, each
from skydeck.games.expedition.content import TIERS
from skydeck.games.expedition.tables import Req

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


# --- requirements ----------------------------------------------------------------------
def meets(
    st: ExpeditionState, seat: int, req: Req, crews: tuple[int, ...], upgs: tuple[int, ...]
) -> bool:
    """Do these crew cards and Upgrade skills, here and now, fulfil ``req``?"""
    return meets_with(st, seat, req, pool(st, seat, crews, upgs))


#: what a set of cards brings to a requirement: skill counts, crew per level, level sum
Pool = tuple[list[int], list[int], int]


def pool(st: ExpeditionState, seat: int, crews: tuple[int, ...], upgs: tuple[int, ...]) -> Pool:
    """The skills (Reprogrammed ones included), levels and level sum of these crew
    cards and Upgrades: counted once when several requirements are held against the
    same cards (``meets_with``)."""
    t = st.t
    counts = [0] * 13
    have = [0, 0, 0, 0, 0]
    total = 0
    skills, level = t.crew_skills, t.crew_level
    for c in crews:
        for s in skills[c]:
            counts[s] += 1
        lv = level[c]
        have[lv] += 1
        total += lv
    rp = st.reprog[seat]
    for i in range(0, len(rp), 2):
        if rp[i] in crews:
            counts[rp[i + 1]] += 1
    for u in upgs:
        s = t.upg_skill[u]
        if s >= 0:
            counts[s] += 1
    return counts, have, total


def meets_with(st: ExpeditionState, seat: int, req: Req, cards: Pool) -> bool:
    """``meets`` for cards already counted (``pool``): the cards first, where most
    requirements fail, then the place."""
    skills, levels, lsum, loc, embn, embt = req
    counts, have, total = cards
    if (
        total < lsum
        or have[1] < levels[1]
        or have[2] < levels[2]
        or have[3] < levels[3]
        or not all(map(int.__ge__, counts, skills))
    ):
        return False
    t = st.t
    if loc >= 0:
        here = st.location_at(st.ship[seat])
        if here < 0 or t.loc_type[here] != loc:
            return False
    if embn:
        em = st.emb[seat]
        if not any(em[i] >= embn and t.loc_type[i] == embt for i in range(len(em)) if em[i]):
            return False
    return True


def usable_upgrades(st: ExpeditionState, seat: int) -> list[int]:
    """Enabled Upgrades whose skill has not been used this round."""
    used = st.used_upg[seat]
    return [
        u for u in st.enabled_upgrades(seat) if u not in used and st.t.upg_skill[u] >= 0
    ]


def commit_cards(
    st: ExpeditionState, seat: int, crews: tuple[int, ...], upgs: tuple[int, ...]
) -> None:
    """Played crew go to Transit; used Upgrades are turned (temporary ones discarded)."""
    for c in crews:
        st.hand[seat].remove(c)
        st.transit[seat].append(c)
    for u in upgs:
        if st.t.upg_temporary[u]:
            st.remove_upgrade(seat, u)
        else:
            st.used_upg[seat].append(u)


# --- the executor ---------------------------------------------------------------------
def push_fx(st: ExpeditionState, seat: int, fx: tuple[Any, ...]) -> None:
    if fx:
        st.pending.append({"k": "fx", "s": seat, "fx": tuple(fx)})


def discardable(st: ExpeditionState, seat: int) -> list[int]:
    """Upgrades that may be discarded or destroyed (Artifacts never)."""
    if not st.content.artifacts:
        return st.real_upgrades(seat)
    art = st.t.upg_artifact
    return [u for u in st.slots[seat] if u >= 0 and not art[u]]


def enabled_discardable(st: ExpeditionState, seat: int) -> list[int]:
    if not st.content.artifacts:
        return st.enabled_upgrades(seat)
    art = st.t.upg_artifact
    return [u for u in st.enabled_upgrades(seat) if not art[u]]


def solo_affordable(st: ExpeditionState, seat: int, crew: int) -> bool:
    """A Solo mission costs 2 Crystals; Legendary crew go free."""
    t = st.t
    if t.crew_solo[crew] is None:
        return False
    return st.cr[seat] >= st.content.rules.costs["solo"] or (
        bool(t.crew_free_solo) and t.crew_free_solo[crew]
    )


def execute(st: ExpeditionState, seat: int, e: dict[str, Any], events: list[Event]) -> None:
    op = e["op"]
    if op == "gain":
        st.gain(seat, e["rm"], e["crystal"], e["influence"])
    elif op == "lose":
        st.lose(seat, e["rm"], e["crystal"], e["influence"])
    elif op == "moves":
        n = e["n"] if e.get("immune") else max(0, e["n"] - st.slowdown(seat))
        st.moves[seat] += n
    elif op == "take_upgrade":
        if can_take_upgrade(st, seat):
            st.pending.append({"k": "take_upgrade", "s": seat})
    elif op in ("injury", "damage", "destroy"):
        for _ in range(e["n"]):
            harm(st, seat, op, 0, -1, events)
    elif op == "repair":
        for _ in range(e["n"]):
            st.repair(seat)
    elif op == "heal":
        for _ in range(e["n"]):
            if st.sickbay[seat]:
                st.hand[seat].append(st.sickbay[seat].pop(0))
    elif op == "steal":
        if st.n > 1:  # solo: the drone cannot be harmed or robbed
            st.pending.append({"k": "target", "s": seat, "h": "steal", "rm": e["rm"]})
    elif op == "theft":
        harm(st, seat, "steal", e["rm"], -1, events)
    elif op == "attack":
        if st.n > 1:
            st.pending.append({"k": "target", "s": seat, "h": e["harm"], "rm": 0})
    elif op == "place_tiles":
        open_placement(st, seat, e["n"], e["anywhere"], e["recruit_reward"], events)
    elif op == "local_production":
        here = st.location_at(st.ship[seat])
        if here >= 0:
            p = st.content.locations[here].produce
            st.gain(seat, rm=p.rm, crystal=p.crystal)
    elif op == "trade":
        st.trades[seat] += 1
    elif op == "collect_remote":
        if st.tokens[seat]:
            st.pending.append({"k": "collect_remote", "s": seat})
    elif op == "build_discount":
        st.build_bonus[seat] += e["n"]
    elif op == "points":
        st.bonus_pts[seat] += e["n"]
    elif op == "secret_expedition":
        if len(st.secret[seat]) < st.content.rules.max_secret and any(st.exp_decks):
            st.pending.append({"k": "secret_pick", "s": seat})
    elif op == "prevent":
        for i in range(len(st.pending) - 1, -1, -1):
            f = st.pending[i]
            if f["k"] == "harm" and f["s"] == seat:
                del st.pending[i]
                events.append(Event("prevented", {"seat": seat, "harm": f["h"]}))
                break
    elif op == "exchange":
        st.exchange[seat] = 1
    elif op == "choose":
        st.pending.append({"k": "choose", "s": seat, "opts": e["options"]})
    else:  # pragma: no cover - the schema admits no other op
        raise ValueError(f"unknown effect op {op!r}")


# --- harm and reactions --------------------------------------------------------------
def reaction_options(st: ExpeditionState, seat: int) -> list[Action]:
    acts: list[Action] = []
    t = st.t
    for c in sorted(st.hand[seat]):
        if solo_affordable(st, seat, c):
            acts.append(act("react_solo", (t.crew_ids[c],)))
    acts += [act("react_upgrade", (t.upg_ids[u],)) for u in enabled_discardable(st, seat)]
    return acts


def harm(
    st: ExpeditionState, victim: int, kind: str, rm: int, by: int, events: list[Event]
) -> None:
    frame = {"k": "harm", "s": victim, "h": kind, "rm": rm, "by": by}
    if reaction_options(st, victim):
        st.pending.append(frame)
        st.pending.append({"k": "react", "s": victim, "h": kind})
    else:
        apply_harm(st, frame, events)


def apply_harm(st: ExpeditionState, f: dict[str, Any], events: list[Event]) -> None:
    victim, kind = f["s"], f["h"]
    if kind == "injury":
        card = st.injure(victim)
        if card >= 0:
            events.append(Event("injured", {"seat": victim, "crew": st.t.crew_ids[card]}))
    elif kind == "damage":
        if st.take_damage(victim):
            card = st.dmg_cards[victim][-1] if st.dmg_cards[victim] else -1
            name = st.t.dmg_ids[card] if card >= 0 else None
            events.append(Event("damaged", {"seat": victim, "card": name}))
            if card >= 0:
                push_fx(st, victim, st.t.dmg_effects[card])
    elif kind == "destroy":
        real = discardable(st, victim)
        if real:
            u = real[st.rng.below(len(real))]
            st.remove_upgrade(victim, u)
            events.append(Event("destroyed", {"seat": victim, "upgrade": st.t.upg_ids[u]}))
    elif kind == "steal":  # by -1: a thief from an Encounter, nobody at the table
        amount = min(f["rm"], st.rm[victim])
        st.rm[victim] -= amount
        by = f["by"] if f["by"] >= 0 else None
        if by is not None:
            st.gain(by, rm=amount)
        events.append(Event("stolen", {"seat": victim, "by": by, "rm": amount}))


# --- Upgrades from effects -------------------------------------------------------------
def has_room_for_upgrade(st: ExpeditionState, seat: int) -> bool:
    """A free slot, or one to free by discarding (impossible under 6 Damage cards)."""
    if st.slot_capacity_left(seat) > 0:
        return True
    return st.dmg[seat] < st.content.rules.upgrade_slots and bool(discardable(st, seat))


def can_take_upgrade(st: ExpeditionState, seat: int) -> bool:
    return any(u >= 0 for u in st.store) and has_room_for_upgrade(st, seat)


def upgrade_choices(st: ExpeditionState, seat: int, verb: str) -> list[Action]:
    """``verb <store card>`` or, when the slots are full, ``verb <card> <discard>``."""
    ids = st.t.upg_ids
    acts: list[Action] = []
    if not has_room_for_upgrade(st, seat):
        return acts
    full = st.slot_capacity_left(seat) <= 0
    one = each(verb, ids)
    for u in st.store:
        if u < 0:
            continue
        if not full:
            acts.append(one[u])
        else:
            for old in discardable(st, seat):
                acts.append(act(verb, (ids[u], ids[old])))
    return acts


def gain_upgrade(st: ExpeditionState, seat: int, action: Action) -> int:
    u = st.content.upgrade_index[str(action.args[0])]
    if len(action.args) > 1:
        st.remove_upgrade(seat, st.content.upgrade_index[str(action.args[1])])
    st.store[st.store.index(u)] = -1
    st.install(seat, u)
    st.refill_store()
    return u


# --- tile placement ------------------------------------------------------------------
def placement_cells(st: ExpeditionState, seat: int, anywhere: bool, near: int) -> list[int]:
    b = st.board
    nb = st.grid.neighbours
    if not anywhere:
        return [c for c in nb[near] if b[c] < 0]
    return [c for c in range(len(b)) if b[c] < 0 and any(b[x] >= 0 for x in nb[c])]


def open_placement(
    st: ExpeditionState,
    seat: int,
    n: int,
    anywhere: bool,
    reward: bool,
    events: list[Event],
    near: int = -1,
    drone: bool = False,
) -> None:
    """Draw tiles for ``seat`` to place; ``drone``: the solo player places the drone's
    tiles next to the drone (no discovery reward for anybody)."""
    if near < 0:
        near = st.ship[seat]
    m = min(n, len(st.stack), len(placement_cells(st, seat, anywhere, near)))
    if m <= 0:
        return
    drawn = tuple(st.stack.pop() for _ in range(m))
    st.reveals += 1
    events.append(
        Event("tiles_drawn", {"seat": seat, "tiles": [st.tile_name(x) for x in drawn]})
    )
    frame = {
        "k": "place",
        "s": seat,
        "tiles": drawn,
        "any": int(anywhere),
        "rw": int(reward),
        "near": near,
    }
    if drone:
        frame["dr"] = 1
    st.pending.append(frame)


def place_tile(st: ExpeditionState, seat: int, f: dict[str, Any], tile: int, cell: int) -> None:
    rest = list(f["tiles"])
    rest.remove(tile)
    if rest:
        f["tiles"] = tuple(rest)
    else:
        st.pending.pop()  # the placement frame is always the top one
    st.board[cell] = tile
    if f.get("dr"):
        return  # the drone's discovery: no reward
    galactic.trigger(st, seat, "discover")
    if tile < st.n_locations:
        if f["rw"]:
            st.pending.append(
                {
                    "k": "choose",
                    "s": seat,
                    "opts": (
                        ({"op": "gain", "rm": 1, "crystal": 0, "influence": 0},),
                        ({"op": "gain", "rm": 0, "crystal": 1, "influence": 0},),
                    ),
                }
            )
    else:
        push_fx(st, seat, st.t.anomaly_discover[tile - st.n_locations])


# --- decision frames opened by effects -------------------------------------------------
def effect_frame_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    k, seat = f["k"], f["s"]
    ids = st.t
    if k == "choose":
        return [act("option", (i,)) for i in range(len(f["opts"]))]
    if k == "take_upgrade":
        return [*upgrade_choices(st, seat, "take"), act("decline")]
    if k == "target":
        return [act("target", (o,)) for o in range(st.n) if o != seat]
    if k == "react":
        return [*reaction_options(st, seat), act("accept")]
    if k == "place":
        cells = placement_cells(st, seat, bool(f["any"]), f["near"])
        out: list[Action] = []
        for tile in sorted(set(f["tiles"])):
            row = _place_row(st.tile_name(tile), st.grid.size)
            out += [row[c] for c in cells]
        return out
    if k == "collect_remote":
        locs = sorted(st.tokens[seat])
        return [*(act("collect_at", (ids.loc_ids[x],)) for x in locs), act("decline")]
    if k == "secret_pick":
        return [
            *(act("secret_free", (TIERS[i],)) for i in range(3) if st.exp_decks[i]),
            act("decline"),
        ]
    return []


@lru_cache(maxsize=256)
def _place_row(name: str, size: int) -> tuple[Action, ...]:
    """``place NAME C`` for every cell C: the shared actions of one tile, looked up once."""
    return tuple(act("place", (name, c)) for c in range(size))


def apply_effect_frame(
    st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]
) -> None:
    k, seat = f["k"], f["s"]
    if k == "choose":
        st.pending.pop()
        push_fx(st, seat, f["opts"][int(a.args[0])])  # type: ignore[arg-type]
    elif k == "take_upgrade":
        st.pending.pop()
        if a.kind == "take":
            u = gain_upgrade(st, seat, a)
            events.append(Event("upgrade_taken", {"seat": seat, "upgrade": st.t.upg_ids[u]}))
    elif k == "target":
        st.pending.pop()
        harm(st, int(a.args[0]), f["h"], f["rm"], seat, events)  # type: ignore[arg-type]
    elif k == "react":
        st.pending.pop()
        if a.kind == "react_solo":
            start_solo(st, seat, st.content.crew_index[str(a.args[0])])
        elif a.kind == "react_upgrade":
            u = st.content.upgrade_index[str(a.args[0])]
            st.remove_upgrade(seat, u)
            push_fx(st, seat, st.t.upg_ability[u])
    elif k == "place":
        tile = tile_by_name(st, str(a.args[0]))
        place_tile(st, seat, f, tile, int(a.args[1]))  # type: ignore[arg-type]
    elif k == "collect_remote":
        st.pending.pop()
        if a.kind == "collect_at":
            st.collect(seat, st.content.location_index[str(a.args[0])])
    elif k == "secret_pick":
        st.pending.pop()
        if a.kind == "secret_free":
            take_secret(st, seat, TIERS.index(str(a.args[0])), events)


def tile_by_name(st: ExpeditionState, name: str) -> int:
    if name in st.content.location_index:
        return st.content.location_index[name]
    for i, x in enumerate(st.content.anomalies):
        if x.id == name:
            return st.n_locations + i
    raise IllegalAction(f"no tile {name!r}")


def start_solo(st: ExpeditionState, seat: int, crew: int) -> None:
    """Pay, put the crew member in the Solo mission slot, resolve its mission."""
    t = st.t
    if not (t.crew_free_solo and t.crew_free_solo[crew]):
        st.cr[seat] -= st.content.rules.costs["solo"]
    galactic.trigger(st, seat, "solo")
    st.hand[seat].remove(crew)
    st._drop_reprogram(seat, crew)
    st.solo[seat].append(crew)
    push_fx(st, seat, st.t.crew_solo[crew] or ())


def take_secret(st: ExpeditionState, seat: int, tier: int, events: list[Event]) -> None:
    card = st.draw_expedition(tier)
    if card < 0:
        return
    st.secret[seat].append(card)
    events.append(
        Event(
            "secret_expedition",
            {"seat": seat, "expedition": st.t.exp_ids[card]},
            frozenset((seat,)),
            {"seat": seat, "tier": TIERS[tier]},
        )
    )
