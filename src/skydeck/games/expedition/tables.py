"""Content compiled to plain tuples for the hot paths (requirement checks, effects).

A requirement becomes (skill counts, level-hexagon counts, level sum, location type,
Embassies, Embassy type); the check is a superset test because a played card counts
all of its skill icons and its level at once (see RULINGS.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skydeck.games.expedition.content import (
    LOCATION_TYPES,
    SKILLS,
    TIERS,
    Content,
    Requirement,
    plain_effects,
)

SKILL_INDEX = {s: i for i, s in enumerate(SKILLS)}
TYPE_INDEX = {t: i for i, t in enumerate(LOCATION_TYPES)}
TIER_INDEX = {t: i for i, t in enumerate(TIERS)}

#: (skill counts[13], level counts[4] (index 1-3), level sum, location type, emb n, emb type)
Req = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]


def compile_req(r: Requirement | None, extra: Requirement | None = None) -> Req:
    counts = [0] * len(SKILLS)
    levels = [0, 0, 0, 0]
    total, loc, embn, embt = 0, -1, 0, -1
    for req in (r, extra):
        if req is None:
            continue
        for s in req.skills:
            counts[SKILL_INDEX[s]] += 1
        for lv in req.levels:
            levels[lv] += 1
        total += req.level_sum
        if req.location is not None:
            loc = TYPE_INDEX[req.location]
        if req.embassies:
            embn = req.embassies
            embt = TYPE_INDEX[req.embassy_type or "city"]
    return tuple(counts), tuple(levels), total, loc, embn, embt


@dataclass(frozen=True)
class Tables:
    crew_skills: tuple[tuple[int, ...], ...]
    crew_level: tuple[int, ...]
    crew_solo: tuple[tuple[Any, ...] | None, ...]
    crew_ids: tuple[str, ...]
    loc_type: tuple[int, ...]
    loc_ids: tuple[str, ...]
    upg_skill: tuple[int, ...]
    upg_ability: tuple[tuple[Any, ...], ...]
    upg_temporary: tuple[bool, ...]
    upg_ids: tuple[str, ...]
    exp_req: tuple[Req, ...]
    exp_bonus_req: tuple[Req | None, ...]
    exp_bonus: tuple[tuple[Any, ...], ...]
    exp_tier: tuple[int, ...]
    exp_ids: tuple[str, ...]
    enc_kind: tuple[str, ...]
    enc_req: tuple[Req | None, ...]
    enc_chance: tuple[tuple[int, int, int] | None, ...]
    enc_fail: tuple[tuple[Any, ...], ...]
    enc_bonus: tuple[tuple[Any, ...], ...]
    enc_ids: tuple[str, ...]
    anomaly_discover: tuple[tuple[Any, ...], ...]
    anomaly_round_end: tuple[tuple[Any, ...], ...]
    specials: tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]
    robot: int
    dmg_ids: tuple[str, ...] = ()
    dmg_effects: tuple[tuple[Any, ...], ...] = ()
    dmg_movement: tuple[int, ...] = ()
    # --- modules (empty or all-False for the base game) ---
    crew_free_solo: tuple[bool, ...] = ()
    loc_kind: tuple[str, ...] = ()
    anomaly_roll: tuple[tuple[tuple[Any, ...], ...], ...] = ()
    upg_artifact: tuple[bool, ...] = ()
    upg_each_round: tuple[tuple[Any, ...], ...] = ()
    upg_no_solo: tuple[bool, ...] = ()
    enc_gift: tuple[tuple[Any, ...], ...] = ()
    enc_no_solo: tuple[bool, ...] = ()
    powers: tuple[tuple[Any, ...], ...] = ()
    power_ids: tuple[str, ...] = ()
    drone_cards: tuple[tuple[tuple[Any, ...], ...], ...] = ()
    drone_card_ids: tuple[tuple[str, ...], ...] = ()
    # --- map tiles (Location ids, then the Anomalies, then the Space gate) ---
    #: per tile: the Anomaly kind (None for Locations and the gate), and passability;
    #: one tuple per content, so a cache may key on its identity (command.distances)
    tile_kind: tuple[str | None, ...] = ()
    tile_passable: tuple[bool, ...] = ()
    #: tiles no ship passes (Asteroid belts) and the Hazards: where these lie is all a
    #: ship's search of the map depends on (``command._order``)
    tile_blocked: frozenset[int] = frozenset()
    tile_hazard: frozenset[int] = frozenset()


_CACHE: dict[int, tuple[Content, Tables]] = {}


def tables(c: Content) -> Tables:
    hit = _CACHE.get(id(c))
    if hit is not None and hit[0] is c:
        return hit[1]
    arts = c.artifacts
    mf = c.mod
    nl = len(c.locations)
    tile_kind = (None,) * nl + tuple(a.kind for a in c.anomalies) + (None,)
    tile_passable = (True,) * nl + tuple(a.passable for a in c.anomalies) + (True,)
    t = Tables(
        crew_skills=tuple(tuple(SKILL_INDEX[s] for s in x.skills) for x in c.crew),
        crew_level=tuple(x.level for x in c.crew),
        crew_solo=tuple(None if x.solo is None else plain_effects(x.solo) for x in c.crew),
        crew_ids=tuple(x.id for x in c.crew),
        loc_type=tuple(TYPE_INDEX[x.type] for x in c.locations),
        loc_ids=tuple(x.id for x in c.locations),
        upg_skill=tuple(
            -1 if x.skill is None else SKILL_INDEX[x.skill] for x in (*c.upgrades, *arts)
        ),
        upg_ability=tuple(plain_effects(x.ability) for x in c.upgrades) + ((),) * len(arts),
        upg_temporary=tuple(x.temporary for x in c.upgrades) + (False,) * len(arts),
        upg_ids=tuple(x.id for x in (*c.upgrades, *arts)),
        exp_req=tuple(compile_req(x.requires) for x in c.expeditions),
        exp_bonus_req=tuple(
            None if x.bonus is None else compile_req(x.requires, x.bonus.requires)
            for x in c.expeditions
        ),
        exp_bonus=tuple(
            () if x.bonus is None else plain_effects(x.bonus.reward) for x in c.expeditions
        ),
        exp_tier=tuple(TIER_INDEX[x.tier] for x in c.expeditions),
        exp_ids=tuple(x.id for x in c.expeditions),
        enc_kind=tuple(x.kind for x in c.encounters),
        enc_req=tuple(
            None if x.requires is None else compile_req(x.requires) for x in c.encounters
        ),
        enc_chance=tuple(
            None
            if x.chance is None
            else (x.chance.target, SKILL_INDEX[x.chance.helper], x.chance.per_helper)
            for x in c.encounters
        ),
        enc_fail=tuple(plain_effects(x.fail) for x in c.encounters),
        enc_bonus=tuple(plain_effects(x.bonus) for x in c.encounters),
        enc_ids=tuple(x.id for x in c.encounters),
        anomaly_discover=tuple(plain_effects(x.discover) for x in c.anomalies),
        anomaly_round_end=tuple(plain_effects(x.round_end) for x in c.anomalies),
        specials=tuple(
            (plain_effects(d.specials[0].effects), plain_effects(d.specials[1].effects))
            for d in c.dashboards
        ),
        robot=SKILL_INDEX["robot"],
        dmg_ids=tuple(x.id for x in c.damage),
        dmg_effects=tuple(plain_effects(x.effects) for x in c.damage),
        dmg_movement=tuple(x.movement for x in c.damage),
        crew_free_solo=tuple(x.level == 4 for x in c.crew),
        loc_kind=tuple(x.kind for x in c.locations),
        anomaly_roll=tuple(tuple(plain_effects(r) for r in x.roll) for x in c.anomalies),
        upg_artifact=(False,) * len(c.upgrades) + (True,) * len(arts),
        upg_each_round=((),) * len(c.upgrades) + tuple(plain_effects(a.each_round) for a in arts),
        upg_no_solo=tuple(x.no_solo for x in c.upgrades) + (False,) * len(arts),
        enc_gift=tuple(plain_effects(x.gift) for x in c.encounters),
        enc_no_solo=tuple(x.no_solo for x in c.encounters),
        powers=() if mf is None else tuple(plain_effects(p.effects) for p in mf.powers.powers),
        power_ids=() if mf is None else tuple(p.id for p in mf.powers.powers),
        drone_cards=()
        if mf is None
        else tuple(
            tuple(tuple(a.model_dump() for a in card.actions) for card in deck)
            for deck in mf.drone.decks
        ),
        drone_card_ids=()
        if mf is None
        else tuple(tuple(card.id for card in deck) for deck in mf.drone.decks),
        tile_kind=tile_kind,
        tile_passable=tile_passable,
        tile_blocked=frozenset(i for i, ok in enumerate(tile_passable) if not ok),
        tile_hazard=frozenset(i for i, k in enumerate(tile_kind) if k == "hazard"),
    )
    _CACHE[id(c)] = (c, t)
    return t
