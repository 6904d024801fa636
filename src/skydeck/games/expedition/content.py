"""Stellar Expedition content: pydantic schemas for every data file, and the loader.

All cards, tiles, dice and dashboards live in ``data/*.json``. Every effect on them is
written in the small effect vocabulary below (a discriminated union on ``op``), so the
engine can execute every one of them: there is no free text the code ignores. A broken
file raises ValueError naming the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

SKILLS = (
    "officer",
    "engineer",
    "archaeologist",
    "soldier",
    "scientist",
    "psychic",
    "doctor",
    "navigator",
    "beast",
    "pilot",
    "communications",
    "pirate",
    "robot",
)
LOCATION_TYPES = ("city", "fire", "nature", "tech", "space", "water", "arcane")
TIERS = ("bronze", "silver", "gold")
FACES = ("rm2", "crystal", "upgrade", "special1", "special2", "encounter", "blank")
REWARD_FACES = ("rm2", "crystal", "upgrade", "special1", "special2")

Skill = Literal[
    "officer",
    "engineer",
    "archaeologist",
    "soldier",
    "scientist",
    "psychic",
    "doctor",
    "navigator",
    "beast",
    "pilot",
    "communications",
    "pirate",
    "robot",
]
LocType = Literal["city", "fire", "nature", "tech", "space", "water", "arcane"]
Tier = Literal["bronze", "silver", "gold"]
Face = Literal["rm2", "crystal", "upgrade", "special1", "special2", "encounter", "blank"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- the effect vocabulary ---------------------------------------------------------------


class Gain(_Strict):
    """Gain resources (capped by the Dashboard tracks)."""

    op: Literal["gain"]
    rm: int = Field(0, ge=0, le=20)
    crystal: int = Field(0, ge=0, le=10)
    influence: int = Field(0, ge=0, le=10)


class Lose(_Strict):
    """Lose resources (as many as you have, down to zero)."""

    op: Literal["lose"]
    rm: int = Field(0, ge=0, le=20)
    crystal: int = Field(0, ge=0, le=10)
    influence: int = Field(0, ge=0, le=10)


class Moves(_Strict):
    """Extra moves for this round's Command phase; Damage to the engines takes some back
    unless ``immune`` (Afterburner: "not affected by negative effects")."""

    op: Literal["moves"]
    n: int = Field(ge=1, le=6)
    immune: bool = False


class TakeUpgrade(_Strict):
    """Take an Upgrade of your choice from the store, free."""

    op: Literal["take_upgrade"]


class Injury(_Strict):
    """A random card of your hand goes to the Sickbay (``n`` times)."""

    op: Literal["injury"]
    n: int = Field(1, ge=1, le=3)


class Damage(_Strict):
    """Your ship takes ``n`` Damage cards."""

    op: Literal["damage"]
    n: int = Field(1, ge=1, le=3)


class Destroy(_Strict):
    """``n`` of your Upgrades (picked at random) are destroyed: discarded."""

    op: Literal["destroy"]
    n: int = Field(1, ge=1, le=3)


class Repair(_Strict):
    """Repair ``n`` Damage for free."""

    op: Literal["repair"]
    n: int = Field(1, ge=1, le=6)


class Heal(_Strict):
    """Crew from your Sickbay go back to your hand (longest-waiting first)."""

    op: Literal["heal"]
    n: int = Field(1, ge=1, le=3)


class Steal(_Strict):
    """Take Raw Materials from another ship of your choice."""

    op: Literal["steal"]
    rm: int = Field(ge=1, le=5)


class Theft(_Strict):
    """Raw Materials taken from your ship by nobody at the table (an Encounter's thief):
    a harm, so you may react first (a Solo mission, an Upgrade)."""

    op: Literal["theft"]
    rm: int = Field(ge=1, le=5)


class Attack(_Strict):
    """Another ship of your choice suffers Damage, an Injury or a destroyed Upgrade."""

    op: Literal["attack"]
    harm: Literal["damage", "injury", "destroy"]


class PlaceTiles(_Strict):
    """Draw and place Location tiles; ``anywhere``: on any empty space next to the map,
    otherwise next to your current Location; ``recruit_reward``: 1 RM or 1 Crystal (your
    choice) per Recruiting Location placed."""

    op: Literal["place_tiles"]
    n: int = Field(ge=1, le=3)
    anywhere: bool = False
    recruit_reward: bool = False


class LocalProduction(_Strict):
    """Receive the printed Resources of your current Location (no Embassy needed)."""

    op: Literal["local_production"]


class Trade(_Strict):
    """One trade this Command phase: 2 of RM/Crystal/Influence for 1 of another."""

    op: Literal["trade"]


class CollectRemote(_Strict):
    """Collect from one of your Embassies that still holds your Collection token."""

    op: Literal["collect_remote"]


class BuildDiscount(_Strict):
    """Your next Embassy this round costs ``n`` fewer Resources (RM first)."""

    op: Literal["build_discount"]
    n: int = Field(ge=1, le=5)


class Points(_Strict):
    """Expedition points."""

    op: Literal["points"]
    n: int = Field(ge=1, le=3)


class SecretExpedition(_Strict):
    """Take a Secret Expedition of a difficulty of your choice, free (max 3 held)."""

    op: Literal["secret_expedition"]


class Prevent(_Strict):
    """Cancel the Injury, Damage or theft being reacted to."""

    op: Literal["prevent"]


class Exchange(_Strict):
    """Exchange Raw Materials and Crystals 2:1 for the rest of this round."""

    op: Literal["exchange"]


class Choose(_Strict):
    """Choose exactly one of the options (each a list of effects)."""

    op: Literal["choose"]
    options: list[list[Effect]] = Field(min_length=2, max_length=4)


Effect = Annotated[
    Gain
    | Lose
    | Moves
    | TakeUpgrade
    | Injury
    | Damage
    | Destroy
    | Repair
    | Heal
    | Steal
    | Theft
    | Attack
    | PlaceTiles
    | LocalProduction
    | Trade
    | CollectRemote
    | BuildDiscount
    | Points
    | SecretExpedition
    | Prevent
    | Exchange
    | Choose,
    Field(discriminator="op"),
]
Choose.model_rebuild()
EFFECT_OPS = (
    "gain",
    "lose",
    "moves",
    "take_upgrade",
    "injury",
    "damage",
    "destroy",
    "repair",
    "heal",
    "steal",
    "theft",
    "attack",
    "place_tiles",
    "local_production",
    "trade",
    "collect_remote",
    "build_discount",
    "points",
    "secret_expedition",
    "prevent",
    "exchange",
    "choose",
)


# --- components ----------------------------------------------------------------------------


class Cost(_Strict):
    rm: int = Field(0, ge=0, le=20)
    crystal: int = Field(0, ge=0, le=10)


class Crew(_Strict):
    id: str
    name: str
    level: int = Field(
        ge=0, le=4, description="0 = Captain (planet icon, no level number); 4 = Legendary"
    )
    skills: list[Skill] = Field(min_length=1, max_length=4)
    home: str
    solo: list[Effect] | None = None


class Location(_Strict):
    id: str
    name: str
    type: LocType
    level: int = Field(ge=0, le=6, description="0 = Starting Location (planet icon)")
    faction: str | None = None
    kind: Literal["recruit", "legendary", "artifact"] = "recruit"
    cost: list[Cost] = Field(min_length=1, max_length=3, description="1st, 2nd, 3rd Embassy")
    produce: Cost
    crew: list[str] = Field(max_length=3, description="level 1, 2, 3 crew")

    @model_validator(mode="after")
    def _check(self) -> Location:
        want = {"recruit": (3, 3), "legendary": (1, 1), "artifact": (1, 0)}[self.kind]
        if (len(self.cost), len(self.crew)) != want:
            raise ValueError(
                f"a {self.kind} Location has {want[0]} Embassy cost(s) and {want[1]} crew"
            )
        if self.kind != "recruit" and (self.produce.rm or self.produce.crystal):
            raise ValueError(f"a {self.kind} Location produces nothing")
        return self


class Anomaly(_Strict):
    id: str
    name: str
    kind: Literal["wormhole", "mining", "ghost", "asteroid", "hazard"]
    passable: bool
    discover: list[Effect] = []
    round_end: list[Effect] = []
    roll: list[list[Effect]] = Field([], description="hazard: effects for die faces 1-6")

    @model_validator(mode="after")
    def _check(self) -> Anomaly:
        if (self.kind == "hazard") != (len(self.roll) == 6):
            raise ValueError("a hazard has one effect list per die face (6), others none")
        return self


class Requirement(_Strict):
    skills: list[Skill] = []
    levels: list[int] = []
    level_sum: int = Field(0, ge=0, le=30)
    location: LocType | None = None
    embassies: int = Field(0, ge=0, le=3, description="own Embassies on one Location of type")
    embassy_type: LocType | None = None

    @model_validator(mode="after")
    def _check(self) -> Requirement:
        for lv in self.levels:
            if lv not in (1, 2, 3):
                raise ValueError(f"level hexagons must be 1, 2 or 3, got {lv}")
        if (self.embassies > 0) != (self.embassy_type is not None):
            raise ValueError("embassies and embassy_type go together")
        return self


class Bonus(_Strict):
    requires: Requirement
    reward: list[Effect] = Field(min_length=1)


class Expedition(_Strict):
    id: str
    name: str
    tier: Tier
    kind: Literal["skill", "embassy", "location"]
    points: int = Field(ge=1, le=6)
    requires: Requirement
    bonus: Bonus | None = None

    @model_validator(mode="after")
    def _check(self) -> Expedition:
        lo, hi = {"bronze": (1, 2), "silver": (3, 4), "gold": (5, 6)}[self.tier]
        if not lo <= self.points <= hi:
            raise ValueError(f"a {self.tier} Expedition is worth {lo}-{hi} points")
        r = self.requires
        if self.kind == "embassy" and not r.embassies:
            raise ValueError("an embassy Expedition needs embassies")
        if self.kind == "location" and not r.location:
            raise ValueError("a location Expedition needs a location")
        if self.kind == "skill" and not (r.skills or r.levels or r.level_sum):
            raise ValueError("a skill Expedition needs skills, levels or a level sum")
        b = self.bonus
        if b and b.requires.location and r.location and b.requires.location != r.location:
            raise ValueError(
                "the bonus asks for another Location than the Expedition: "
                "a ship is only in one place"
            )
        return self


class Upgrade(_Strict):
    id: str
    name: str
    skill: Skill | None = None
    ability: list[Effect] = Field(min_length=1)
    temporary: bool = False
    no_solo: bool = Field(False, description="crossed-out icon: out of the solo game")


class Chance(_Strict):
    target: int = Field(ge=2, le=7)
    helper: Skill
    per_helper: int = Field(2, ge=1, le=3)


class Encounter(_Strict):
    id: str
    name: str
    kind: Literal["test", "chance", "boon", "plus"]
    requires: Requirement | None = None
    chance: Chance | None = None
    fail: list[Effect] = []
    bonus: list[Effect] = []
    gift: list[Effect] = Field([], description="plus: received when drawn, always")
    no_solo: bool = Field(False, description="crossed-out icon: out of the solo game")

    @model_validator(mode="after")
    def _check(self) -> Encounter:
        if self.kind == "test" and (self.requires is None or not self.fail):
            raise ValueError("a test Encounter needs requires and fail")
        if self.kind == "chance" and (self.chance is None or not self.fail):
            raise ValueError("a chance Encounter needs chance and fail")
        if self.kind == "boon" and not self.bonus:
            raise ValueError("a boon Encounter needs a bonus")
        if self.kind == "plus" and (
            self.requires is None or not self.bonus or not self.gift or self.fail
        ):
            raise ValueError("a plus Encounter needs gift, requires and bonus, and no fail")
        if self.kind != "plus" and self.gift:
            raise ValueError("only plus Encounters have a gift")
        return self


class DamageCard(_Strict):
    """A Damage card: it covers an Upgrade slot like every Damage card, and may also
    resolve ``effects`` once when taken and cost ``movement`` while on the Dashboard
    (the round's movement and every move effect but an immune one give that much less)."""

    id: str
    name: str
    effects: list[Effect] = []
    movement: int = Field(0, ge=0, le=1)


class Special(_Strict):
    name: str
    effects: list[Effect] = Field(min_length=1)


class Dashboard(_Strict):
    faction: str
    name: str
    colour: str
    start: str
    captain: str
    specials: list[Special] = Field(min_length=2, max_length=2)


class Rules(_Strict):
    rounds: int = Field(ge=1)
    start: Cost
    start_influence: int
    max_rm: int
    max_crystal: int
    max_influence: int
    embassies: int
    collection_tokens: int
    upgrade_slots: int
    store_size: int
    max_secret: int
    discovery_tiles: int
    discovery_tiles_two_players: int
    exploration_discount: list[int]
    costs: dict[str, int]
    board_radius: int = Field(ge=2, le=6)
    start_directions: dict[str, list[int]]


class ContentFile(_Strict):
    rules: Rules
    dice: list[list[Face]] = Field(min_length=2, max_length=2)
    dashboards: list[Dashboard] = Field(min_length=4, max_length=4)
    crew: list[Crew]
    locations: list[Location]
    anomalies: list[Anomaly]
    expeditions: list[Expedition]
    upgrades: list[Upgrade]
    encounters: list[Encounter]
    damage: list[DamageCard]


COUNTS = {
    "crew": 88,
    "locations": 28,
    "anomalies": 8,
    "expeditions": 54,
    "upgrades": 26,
    "encounters": 45,
    "damage": 6,
}

DATA_DIR = Path(__file__).parent / "data"
FILES = (
    "rules",
    "dice",
    "dashboards",
    "crew",
    "locations",
    "anomalies",
    "expeditions",
    "upgrades",
    "encounters",
    "damage",
)


# --- the engine's plain form ---------------------------------------------------------------


def plain_effects(effects: list[Any]) -> tuple[Any, ...]:
    """Effects as tuples of plain dicts (what the engine stores in pending frames)."""
    return tuple(_plain(e) for e in effects)


def _plain(e: Any) -> dict[str, Any]:
    d = e.model_dump()
    if d["op"] == "choose":
        d["options"] = [plain_effects(opt) for opt in e.options]
    return d


@dataclass(frozen=True)
class Content:
    """The validated content, indexed for the engine (ids are list positions)."""

    raw: ContentFile
    rules: Rules
    dice: tuple[tuple[str, ...], ...]
    dashboards: tuple[Dashboard, ...]
    crew: tuple[Crew, ...]
    locations: tuple[Location, ...]
    anomalies: tuple[Anomaly, ...]
    expeditions: tuple[Expedition, ...]
    upgrades: tuple[Upgrade, ...]
    encounters: tuple[Encounter, ...]
    damage: tuple[DamageCard, ...]
    crew_index: dict[str, int]
    location_index: dict[str, int]
    expedition_index: dict[str, int]
    upgrade_index: dict[str, int]
    encounter_index: dict[str, int]
    #: the optional modules this content was built for (see modules_content.py)
    modules: frozenset[str] = frozenset()
    nothing_bad: bool = False
    #: every module's validated data (a ``ModuleFile``), None for the base content
    mod: Any = None
    #: Artifact cards; in the engine's Upgrade tables they follow the Upgrades
    artifacts: tuple[Any, ...] = ()


def check_references(c: ContentFile) -> None:
    """Cross-file consistency: ids unique, every reference resolves, counts as printed."""
    for name, count in COUNTS.items():
        have = len(getattr(c, name))
        if have != count:
            raise ValueError(f"{name}: the game has {count} cards/tiles, the data has {have}")
    for name in (
        "crew",
        "locations",
        "anomalies",
        "expeditions",
        "upgrades",
        "encounters",
        "damage",
    ):
        ids = [x.id for x in getattr(c, name)]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"{name}: duplicate id(s) {dup}")
    for cr in c.crew:
        if cr.level > 3 or len(cr.skills) > 3:
            raise ValueError(f"crew.{cr.id}: the base game has levels 0-3 and up to 3 skills")
    for loc in c.locations:
        if loc.kind != "recruit":
            raise ValueError(f"locations.{loc.id}: {loc.kind} Locations belong to a module")
    for a in c.anomalies:
        if a.kind == "hazard":
            raise ValueError(f"anomalies.{a.id}: Hazards belong to the hazards module")
    for e in c.encounters:
        if e.kind == "plus":
            raise ValueError(f"encounters.{e.id}: plus Encounters belong to a module")
    for card in c.damage:
        if any(e.op == "damage" for e in card.effects):
            raise ValueError(f"damage.{card.id}.effects: a Damage card deals no further Damage")
    crew = {x.id: x for x in c.crew}
    locs = {x.id: x for x in c.locations}
    starts = [x for x in c.locations if x.level == 0]
    if len(starts) != 4:
        raise ValueError(f"locations: need 4 Starting Locations (level 0), found {len(starts)}")
    for lv in range(1, 7):
        n = sum(1 for x in c.locations if x.level == lv)
        if n != 4:
            raise ValueError(f"locations: need 4 Recruiting Locations of level {lv}, found {n}")
    for loc in c.locations:
        for i, cid in enumerate(loc.crew):
            if cid not in crew:
                raise ValueError(f"locations.{loc.id}.crew: unknown crew {cid!r}")
            if crew[cid].level != i + 1 or crew[cid].home != loc.id:
                raise ValueError(f"locations.{loc.id}.crew[{i}]: {cid} must be level {i + 1} here")
    for cr in c.crew:
        if cr.home not in locs:
            raise ValueError(f"crew.{cr.id}.home: unknown location {cr.home!r}")
        home = locs[cr.home]
        allowed = cr.level in (0, 3) or (cr.level == 2 and home.level >= 5)
        if cr.solo is not None and not allowed:
            raise ValueError(
                f"crew.{cr.id}.solo: only Captains, level 3 and level 2 crew of "
                "level V-VI Locations go on Solo missions"
            )
        if cr.solo is None and cr.level in (0, 3):
            raise ValueError(f"crew.{cr.id}.solo: Captains and level 3 crew need a Solo mission")
    factions = set()
    for d in c.dashboards:
        factions.add(d.faction)
        if d.start not in locs or locs[d.start].level != 0 or locs[d.start].faction != d.faction:
            raise ValueError(f"dashboards.{d.faction}.start: {d.start!r} is not its Starting tile")
        if d.captain not in crew or crew[d.captain].level != 0:
            raise ValueError(f"dashboards.{d.faction}.captain: {d.captain!r} is not a Captain")
    if len(factions) != 4:
        raise ValueError("dashboards: the four factions must differ")
    for t in TIERS:
        n = sum(1 for e in c.expeditions if e.tier == t)
        if n != 18:
            raise ValueError(f"expeditions: need 18 {t} Expeditions, found {n}")
    for i, die in enumerate(c.dice):
        if len(die) != 6:
            raise ValueError(f"dice[{i}]: a Sensor die has 6 faces, found {len(die)}")


def load_content(data_dir: Path | None = None) -> Content:
    """Read and validate every data file; ValueError naming the file and field if broken."""
    folder = data_dir or DATA_DIR
    merged: dict[str, Any] = {}
    for name in FILES:
        path = folder / f"{name}.json"
        try:
            merged[name] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"expedition content: missing data file {path}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"expedition content: {path.name} is not valid JSON: {exc}") from None
        try:
            ContentFile.model_validate({**_blank(), name: merged[name]}, strict=False)
        except ValidationError as exc:
            errs = [e for e in exc.errors() if e["loc"] and e["loc"][0] == name]
            if errs:
                where = ".".join(str(p) for p in errs[0]["loc"])
                raise ValueError(
                    f"expedition content: {path.name}: {where}: {errs[0]['msg']}"
                ) from None
    try:
        parsed = ContentFile.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"expedition content: {where}: {first['msg']}") from None
    try:
        check_references(parsed)
    except ValueError as exc:
        raise ValueError(f"expedition content: {exc}") from None
    return Content(
        raw=parsed,
        rules=parsed.rules,
        dice=tuple(tuple(d) for d in parsed.dice),
        dashboards=tuple(parsed.dashboards),
        crew=tuple(parsed.crew),
        locations=tuple(parsed.locations),
        anomalies=tuple(parsed.anomalies),
        expeditions=tuple(parsed.expeditions),
        upgrades=tuple(parsed.upgrades),
        encounters=tuple(parsed.encounters),
        damage=tuple(parsed.damage),
        crew_index={x.id: i for i, x in enumerate(parsed.crew)},
        location_index={x.id: i for i, x in enumerate(parsed.locations)},
        expedition_index={x.id: i for i, x in enumerate(parsed.expeditions)},
        upgrade_index={x.id: i for i, x in enumerate(parsed.upgrades)},
        encounter_index={x.id: i for i, x in enumerate(parsed.encounters)},
    )


def _blank() -> dict[str, Any]:
    """Placeholders so one file can be validated alone (errors in others are ignored)."""
    return {n: None for n in FILES}


@lru_cache(maxsize=1)
def default_content() -> Content:
    return load_content()
