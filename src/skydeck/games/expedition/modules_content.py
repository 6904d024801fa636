"""Content of the six optional modules and of the solo drone: schemas, loader, merging.

Each module has its own data file (``data/<name>.json``), validated with pydantic like
the base files; effects use the base vocabulary (``content.Effect``), the drone's cards a
small vocabulary of their own (``DroneAction``). ``content_for`` returns the base content
with the chosen modules' tiles, crew, Encounters and Artifacts appended, so ids of the
base components never change and the base game is untouched when no module is chosen.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator

from skydeck.games.expedition.content import (
    DATA_DIR,
    Anomaly,
    Content,
    Crew,
    Effect,
    Encounter,
    Location,
    LocType,
    Skill,
    Tier,
    _Strict,
    default_content,
    load_content,
)

MODULES = ("player_powers", "objectives", "hazards", "legendary", "artifacts", "events")
RANKS = ("commander", "captain", "admiral")


class Power(_Strict):
    """A player power tile: replaces one faction special action on the Sensor dice."""

    id: str
    name: str
    effects: list[Effect] = Field(min_length=1)


class PowersFile(_Strict):
    copies: int = Field(ge=1, le=4)
    powers: list[Power] = Field(min_length=8, max_length=8)


class Objective(_Strict):
    """End-game objective: rank the players by ``metric``; ``min`` is the requirement."""

    id: str
    name: str
    metric: Literal[
        "embassies",
        "full_locations",
        "location_cards",
        "expeditions",
        "gold_expeditions",
        "crew_levels",
        "upgrades",
        "resources",
        "influence",
        "location_types",
    ]
    min: int = Field(ge=1, le=40)
    points: list[int] = Field(min_length=3, max_length=3, description="1st, 2nd, 3rd place")

    @model_validator(mode="after")
    def _check(self) -> Objective:
        if sorted(self.points, reverse=True) != self.points or self.points[-1] < 0:
            raise ValueError("objective points go down from 1st to 3rd place")
        return self


class ObjectivesFile(_Strict):
    rounds: list[int] = Field(min_length=1)
    cards: list[Objective] = Field(min_length=3)


class HazardsFile(_Strict):
    tiles: list[Anomaly] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> HazardsFile:
        for t in self.tiles:
            if t.kind != "hazard" or not t.passable:
                raise ValueError(f"{t.id}: a Hazard tile is a passable tile of kind hazard")
        return self


class PlusFile(_Strict):
    encounters: list[Encounter] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> PlusFile:
        for e in self.encounters:
            if e.kind != "plus":
                raise ValueError(f"{e.id}: the green plus Encounters are of kind plus")
        return self


class LegendaryFile(_Strict):
    embassies: int = Field(ge=12, le=20)
    locations: list[Location] = Field(min_length=1)
    crew: list[Crew] = Field(min_length=1)


class Artifact(_Strict):
    """Permanent: a skill usable once a round and/or effects at each Production."""

    id: str
    name: str
    skill: Skill | None = None
    each_round: list[Effect] = []

    @model_validator(mode="after")
    def _check(self) -> Artifact:
        if self.skill is None and not self.each_round:
            raise ValueError("an Artifact needs a skill or an each_round ability")
        return self


class ArtifactsFile(_Strict):
    embassies: int = Field(ge=12, le=20)
    locations: list[Location] = Field(min_length=1)
    artifacts: list[Artifact] = Field(min_length=1)


class GalacticEvent(_Strict):
    """Deck 1 card ``name`` and its deck 2 rule: ``points`` each time a player does
    ``trigger`` (optionally of a tier / Location type), at most ``max`` per player."""

    id: str
    name: str
    rule: str
    trigger: Literal["embassy", "expedition", "encounter", "upgrade", "discover", "solo"]
    tier: Tier | None = None
    type: LocType | None = None
    points: int = Field(ge=1, le=3)
    max: int = Field(ge=1, le=6)

    @model_validator(mode="after")
    def _check(self) -> GalacticEvent:
        if self.tier is not None and self.trigger != "expedition":
            raise ValueError("a tier filter goes with the expedition trigger")
        if self.type is not None and self.trigger != "embassy":
            raise ValueError("a Location type filter goes with the embassy trigger")
        return self


class EventsFile(_Strict):
    rounds: list[int] = Field(min_length=1)
    events: list[GalacticEvent] = Field(min_length=2)


# --- the drone ----------------------------------------------------------------------------


class DMove(_Strict):
    """The drone moves ``n`` times, each by a die roll on its Movement card."""

    op: Literal["d_move"]
    n: int = Field(1, ge=1, le=3)


class DEmbassy(_Strict):
    """The drone places an Embassy cube on its Location (normal placement rules)."""

    op: Literal["d_embassy"]


class DUpgrade(_Strict):
    """Die roll: that Upgrade store place's card leaves the game."""

    op: Literal["d_upgrade"]


class DExpedition(_Strict):
    """The drone completes the top Expedition of a tier (it scores its points)."""

    op: Literal["d_expedition"]
    tier: Tier


class DPoints(_Strict):
    op: Literal["d_points"]
    n: int = Field(ge=1, le=3)


class DDiscover(_Strict):
    """``n`` Location tiles next to the drone; the player places them."""

    op: Literal["d_discover"]
    n: int = Field(ge=1, le=3)


class DExtra(_Strict):
    """An extra action card from the current or the previous round's deck."""

    op: Literal["d_extra"]
    deck: Literal["current", "previous"]


class DAttack(_Strict):
    """The player's ship suffers harm (the player may react as usual)."""

    op: Literal["d_attack"]
    harm: Literal["damage", "injury", "destroy"]


class DDrain(_Strict):
    """The player loses resources."""

    op: Literal["d_drain"]
    rm: int = Field(0, ge=0, le=5)
    crystal: int = Field(0, ge=0, le=3)
    influence: int = Field(0, ge=0, le=3)


DroneAction = Annotated[
    DMove | DEmbassy | DUpgrade | DExpedition | DPoints | DDiscover | DExtra | DAttack | DDrain,
    Field(discriminator="op"),
]
DRONE_OPS = (
    "d_move",
    "d_embassy",
    "d_upgrade",
    "d_expedition",
    "d_points",
    "d_discover",
    "d_extra",
    "d_attack",
    "d_drain",
)


class DroneCard(_Strict):
    """Actions in order; the first is printed on the back (visible while on top)."""

    id: str
    actions: list[DroneAction] = Field(min_length=1, max_length=2)


class Rank(_Strict):
    moves: list[int] = Field(min_length=8, max_length=8)
    actions: list[int] = Field(min_length=8, max_length=8)


class DroneFile(_Strict):
    movement: list[int] = Field(min_length=6, max_length=6, description="die face -> direction")
    ranks: dict[Literal["commander", "captain", "admiral"], Rank]
    decks: list[list[DroneCard]] = Field(min_length=4, max_length=4)

    @model_validator(mode="after")
    def _check(self) -> DroneFile:
        if sorted(self.movement) != list(range(6)):
            raise ValueError("the Movement card names each of the 6 directions once")
        if set(self.ranks) != set(RANKS):
            raise ValueError(f"ranks: need {list(RANKS)}")
        for deck in self.decks:
            if len(deck) < 4:
                raise ValueError("a drone Action deck has at least 4 cards")
        return self


class ModuleFile(_Strict):
    powers: PowersFile
    objectives: ObjectivesFile
    hazards: HazardsFile
    plus_encounters: PlusFile
    legendary: LegendaryFile
    artifacts: ArtifactsFile
    events: EventsFile
    drone: DroneFile


MODULE_FILES = (
    "powers",
    "objectives",
    "hazards",
    "plus_encounters",
    "legendary",
    "artifacts",
    "events",
    "drone",
)


def load_modules(data_dir: Path | None = None, base: Content | None = None) -> ModuleFile:
    """Read and validate every module file; ValueError naming the file and field."""
    folder = data_dir or DATA_DIR
    merged: dict[str, Any] = {}
    for name in MODULE_FILES:
        path = folder / f"{name}.json"
        try:
            merged[name] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"expedition content: missing data file {path}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"expedition content: {path.name} is not valid JSON: {exc}") from None
    try:
        mf = ModuleFile.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(
            f"expedition content: {first['loc'][0]}.json: {where}: {first['msg']}"
        ) from None
    try:
        check_modules(mf, base or load_content(folder))
    except ValueError as exc:
        raise ValueError(f"expedition content: {exc}") from None
    return mf


def check_modules(mf: ModuleFile, base: Content) -> None:
    """Ids unique across base and modules, references resolve, shapes as the rules say."""
    seen = set(base.crew_index) | set(base.location_index) | set(base.upgrade_index)
    seen |= set(base.encounter_index) | {a.id for a in base.anomalies}
    new = [t.id for t in mf.hazards.tiles] + [e.id for e in mf.plus_encounters.encounters]
    new += [x.id for x in mf.legendary.locations] + [x.id for x in mf.legendary.crew]
    new += [x.id for x in mf.artifacts.locations] + [x.id for x in mf.artifacts.artifacts]
    dup = sorted({i for i in new if i in seen or new.count(i) > 1})
    if dup:
        raise ValueError(f"modules: duplicate id(s) {dup}")
    crew = {c.id: c for c in mf.legendary.crew}
    for loc in mf.legendary.locations:
        if loc.kind != "legendary" or loc.level < 1:
            raise ValueError(f"legendary.{loc.id}: must be a legendary Location of level 1-6")
        c = crew.get(loc.crew[0])
        if c is None or c.home != loc.id:
            raise ValueError(f"legendary.{loc.id}.crew: unknown or foreign crew {loc.crew[0]!r}")
    for c in mf.legendary.crew:
        if c.level != 4 or len(c.skills) != 4 or c.solo is None:
            raise ValueError(
                f"legendary.{c.id}: Legendary crew are level 4 with 4 skills and a Solo"
            )
    for loc in mf.artifacts.locations:
        if loc.kind != "artifact" or loc.level < 1:
            raise ValueError(f"artifacts.{loc.id}: must be an artifact Location of level 1-6")
    ids = [p.id for p in mf.powers.powers]
    if len(set(ids)) != len(ids):
        raise ValueError("powers: duplicate power ids")
    for deck in mf.drone.decks:
        for card in deck:
            for a in card.actions:
                if isinstance(a, DExtra) and len(card.actions) > 1 and a is card.actions[0]:
                    raise ValueError(f"drone.{card.id}: an extra action comes last on its card")
    for name, groups in (("objectives", mf.objectives.rounds), ("events", mf.events.rounds)):
        if any(not 1 <= r <= base.rules.rounds for r in groups):
            raise ValueError(f"{name}.rounds: rounds are 1-{base.rules.rounds}")
    if len(mf.objectives.cards) < len(mf.objectives.rounds):
        raise ValueError("objectives: fewer cards than reveals")
    if len(mf.events.events) < len(mf.events.rounds):
        raise ValueError("events: fewer cards than reveals")


@lru_cache(maxsize=1)
def default_modules() -> ModuleFile:
    return load_modules(base=default_content())


@lru_cache(maxsize=64)
def content_for(modules: frozenset[str], nothing_bad: bool = False, solo: bool = False) -> Content:
    """The base content plus the chosen modules' components (base ids unchanged); the
    solo game carries the module data too (the drone's cards are in it)."""
    base = default_content()
    if not modules and not nothing_bad and not solo:
        return base
    mf = default_modules()
    crew = list(base.crew)
    locations = list(base.locations)
    anomalies = list(base.anomalies)
    encounters = list(base.encounters)
    artifacts: list[Artifact] = []
    if "legendary" in modules:
        locations += mf.legendary.locations
        crew += mf.legendary.crew
    if "artifacts" in modules:
        locations += mf.artifacts.locations
        artifacts = list(mf.artifacts.artifacts)
    if "hazards" in modules:
        anomalies += mf.hazards.tiles
    if nothing_bad:
        encounters += mf.plus_encounters.encounters
    embassies = base.rules.embassies
    if "legendary" in modules:
        embassies = max(embassies, mf.legendary.embassies)
    if "artifacts" in modules:
        embassies = max(embassies, mf.artifacts.embassies)
    upgrade_index = dict(base.upgrade_index)
    for i, a in enumerate(artifacts):
        upgrade_index[a.id] = len(base.upgrades) + i
    return replace(
        base,
        rules=base.rules.model_copy(update={"embassies": embassies}),
        crew=tuple(crew),
        locations=tuple(locations),
        anomalies=tuple(anomalies),
        encounters=tuple(encounters),
        crew_index={x.id: i for i, x in enumerate(crew)},
        location_index={x.id: i for i, x in enumerate(locations)},
        encounter_index={x.id: i for i, x in enumerate(encounters)},
        upgrade_index=upgrade_index,
        modules=modules,
        nothing_bad=nothing_bad,
        mod=mf,
        artifacts=tuple(artifacts),
    )
