"""Fleets, Meteor cards and table measures, loaded from ``data/`` and validated.

Content is data so that another content pack can be swapped in. The loader turns the
validated models into flat tuples the rules use on hot paths (``ShipCard``), with all
card-space measures already in half millimetres (see geometry.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from skydeck.core.content import load_model

DATA = Path(__file__).parent / "data"
RACES = ("wiss", "vak", "tetrakori", "hexai")
EDGES = ("front", "left", "back", "right")
#: Card-space direction (degrees, counter-clockwise from the nose) of each edge's normal.
EDGE_NORMAL = {"front": 0, "left": 90, "back": 180, "right": 270}
KINDS = ("normal", "ion", "piercing")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LaserModel(_Model):
    edge: Literal["front", "left", "back", "right"]
    offset: float = Field(0, description="mm along the edge from its middle")
    turn: int = Field(0, gt=-90, lt=90, description="degrees from the edge's outward normal")
    strength: Literal[1, 2, 3] = 1
    kind: Literal["normal", "ion", "piercing"] = "normal"

    @model_validator(mode="after")
    def _check(self) -> LaserModel:
        if self.kind == "piercing" and self.strength != 1:
            raise ValueError("shield-penetrating lasers always have strength 1")
        if (self.offset * 2) != int(self.offset * 2):
            raise ValueError("offset must be a multiple of 0.5 mm")
        return self


class ShieldModel(_Model):
    edge: Literal["front", "left", "back", "right"]
    start: float | None = Field(None, description="mm along the edge; None: the whole edge")
    end: float | None = None

    @model_validator(mode="after")
    def _check(self) -> ShieldModel:
        if (self.start is None) != (self.end is None):
            raise ValueError("give both start and end, or neither (whole edge)")
        if self.start is not None and self.end is not None and self.start >= self.end:
            raise ValueError("shield start must be below its end")
        return self


class AbilitiesModel(_Model):
    immune_to: list[Literal[1, 2, 3]] = Field(default_factory=list)
    regenerate: int = Field(0, ge=0, le=3)
    ion_proof: bool = False


def ability_texts(ab: AbilitiesModel) -> list[str]:
    """The sentence a card prints for each ability it has (the shop, the terminal and the
    page show ``text``, so a buyer learns every ability from it)."""
    out = [f"Cannot be damaged by strength-{k} lasers." for k in sorted(ab.immune_to)]
    if ab.regenerate:
        tokens = "token" if ab.regenerate == 1 else "tokens"
        out.append(
            f"Regenerates: removes {ab.regenerate} damage {tokens} at the end of each "
            "initiative step it survives."
        )
    if ab.ion_proof:
        out.append("Ion lasers do not delay it.")
    return out


#: Words of an ability's sentence: a text naming one must have that ability in data.
_ABILITY_WORDS = {
    "Regenerates": lambda ab: ab.regenerate > 0,
    "Cannot be damaged": lambda ab: bool(ab.immune_to),
    "Ion lasers do not": lambda ab: ab.ion_proof,
}


class ShipModel(_Model):
    id: str = Field(pattern=r"^[a-z_]+\.[a-z0-9_]+$")
    name: str
    role: Literal["ship", "cargo", "flagship"]
    initiative: int = Field(ge=0, le=20)
    hull: int = Field(ge=0, le=10)
    vp: int = Field(ge=0, le=10)
    cost: int = Field(ge=0, le=30)
    lasers: list[LaserModel] = Field(default_factory=list)
    shields: list[ShieldModel] = Field(default_factory=list)
    abilities: AbilitiesModel = AbilitiesModel(immune_to=[], regenerate=0, ion_proof=False)
    text: str = ""

    @model_validator(mode="after")
    def _check(self) -> ShipModel:
        if self.role == "cargo" and self.lasers:
            raise ValueError("a Cargo ship carries no lasers")
        if self.role != "cargo" and self.hull < 1:
            raise ValueError("a fighting ship needs at least 1 hull point")
        if self.role != "ship" and self.cost != 0:
            raise ValueError("Cargo ships and Flagships are not bought: cost must be 0")
        if self.abilities.regenerate and self.hull < 2:
            # any damage destroys a 1-hull ship before the step's regeneration (RULINGS 12)
            raise ValueError(
                f"{self.id}: a ship with {self.hull} hull point can never regenerate "
                "(any damage destroys it first): drop 'regenerate' or give it more hull"
            )
        missing = [t for t in ability_texts(self.abilities) if t not in self.text]
        if missing:
            raise ValueError(
                f"{self.id}: its text must print every ability it has (the rulebook puts a "
                f"ship's special rule on its card); missing {missing}"
            )
        for word, has in _ABILITY_WORDS.items():
            if word in self.text and not has(self.abilities):
                raise ValueError(
                    f"{self.id}: its text says {word!r} but its data has no such ability"
                )
        return self


class FleetModel(_Model):
    race: str
    name: str
    identity: str
    ships: list[ShipModel]

    @model_validator(mode="after")
    def _check(self) -> FleetModel:
        roles = [s.role for s in self.ships]
        if roles.count("cargo") != 1 or roles.count("flagship") != 1:
            raise ValueError("a fleet needs exactly one Cargo ship and one Flagship")
        ids = [s.id for s in self.ships]
        if len(set(ids)) != len(ids):
            raise ValueError("ship ids must be unique")
        for s in self.ships:
            if not s.id.startswith(self.race + "."):
                raise ValueError(f"ship id {s.id!r} must start with {self.race + '.'!r}")
        return self


class MeteorModel(_Model):
    id: str = Field(pattern=r"^meteor\.[a-z0-9_]+$")
    name: str


class MeteorsModel(_Model):
    meteors: list[MeteorModel] = Field(min_length=5, max_length=5)


class CardSize(_Model):
    width_mm: int = Field(gt=0, le=300)
    length_mm: int = Field(gt=0, le=300)


class TableSize(_Model):
    width_mm: int = Field(gt=0, le=5000)
    height_mm: int = Field(gt=0, le=5000)


class GridModel(_Model):
    step_mm: int = Field(gt=0)
    margin_mm: int = Field(ge=0)
    angle_step: int = Field(gt=0, le=360)


class ScaleModel(_Model):
    credits: int = Field(gt=0)
    seconds: int = Field(gt=0)


class TimerModel(_Model):
    """The time model of a timed Deployment played without a real clock (RULINGS 15):
    a seat's first card takes ``first_card_seconds``, each later one
    ``more_per_card`` seconds more than the one before."""

    first_card_seconds: int = Field(gt=0, le=120)
    more_per_card: int = Field(ge=0, le=120)

    def cards_in(self, seconds: int) -> int:
        """How many cards one seat deploys within ``seconds``."""
        n, used = 0, 0
        while used + self.first_card_seconds + n * self.more_per_card <= seconds:
            used += self.first_card_seconds + n * self.more_per_card
            n += 1
        return n


class TableModel(_Model):
    card: CardSize
    table: TableSize
    grid: GridModel
    scales: dict[str, ScaleModel]
    cargo_cubes: dict[str, int]
    cube_supply: int = Field(gt=0)
    delay_tokens: int = Field(ge=0)
    damage_tokens_per_colour: int = Field(ge=0)
    timer_model: TimerModel


# --- flat, fast forms ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Laser:
    lx: int  # exit point, card space, half millimetres
    ly: int
    direction: int  # card-space degrees, 0 = the nose, counter-clockwise
    strength: int
    kind: str  # "normal" | "ion" | "piercing"


@dataclass(frozen=True, slots=True)
class ShipCard:
    index: int  # position in the catalogue
    id: str
    name: str
    race: str  # "meteor" for Meteor cards
    role: str  # "ship" | "cargo" | "flagship" | "meteor"
    initiative: int
    hull: int
    vp: int
    cost: int
    lasers: tuple[Laser, ...]
    shields: tuple[tuple[int, int, int, int], ...]  # card-space segments (half mm)
    immune_to: frozenset[int]
    regenerate: int
    ion_proof: bool
    text: str

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "race": self.race,
            "role": self.role,
            "initiative": self.initiative,
            "hull": self.hull,
            "vp": self.vp,
            "cost": self.cost,
            "lasers": [
                {
                    "x": lz.lx / 2,
                    "y": lz.ly / 2,
                    "direction": lz.direction,
                    "strength": lz.strength,
                    "kind": lz.kind,
                }
                for lz in self.lasers
            ],
            "shields": [[a / 2, b / 2, c / 2, d / 2] for a, b, c, d in self.shields],
            "abilities": {
                "immune_to": sorted(self.immune_to),
                "regenerate": self.regenerate,
                "ion_proof": self.ion_proof,
            },
            "text": self.text,
        }


@dataclass(frozen=True)
class Content:
    """Everything the rules read from data: one immutable catalogue, shared by states."""

    ships: tuple[ShipCard, ...]
    by_id: dict[str, int]
    fleets: dict[str, tuple[int, ...]]  # race -> catalogue indexes, file order
    identities: dict[str, str]
    race_names: dict[str, str]
    meteors: tuple[int, ...]
    table: TableModel

    @property
    def half_w(self) -> int:
        return self.table.card.width_mm  # half millimetres: width/2 mm * 2

    @property
    def half_l(self) -> int:
        return self.table.card.length_mm

    def cargo_of(self, race: str) -> int:
        return next(i for i in self.fleets[race] if self.ships[i].role == "cargo")

    def flagship_of(self, race: str) -> int:
        return next(i for i in self.fleets[race] if self.ships[i].role == "flagship")

    def regulars_of(self, race: str) -> tuple[int, ...]:
        return tuple(i for i in self.fleets[race] if self.ships[i].role == "ship")


def _read(path: Path, model: type[_Model]) -> _Model:
    return load_model(path, model)


def _edge_point(edge: str, offset2: int, hw: int, hl: int) -> tuple[int, int]:
    """Card-space point (half mm) at ``offset2`` half-mm along an edge from its middle.

    Along front/back the offset runs along +x; along left/right it runs along +y."""
    if edge == "front":
        return (offset2, hl)
    if edge == "back":
        return (offset2, -hl)
    if edge == "left":
        return (-hw, offset2)
    return (hw, offset2)


def _ship(index: int, race: str, m: ShipModel, hw: int, hl: int, where: str) -> ShipCard:
    lasers = []
    for k, lz in enumerate(m.lasers):
        off = int(lz.offset * 2)
        half = hw if lz.edge in ("front", "back") else hl
        if abs(off) > half:
            raise ValueError(f"{where}: ship {m.id} laser {k}: offset {lz.offset} is off the edge")
        lx, ly = _edge_point(lz.edge, off, hw, hl)
        lasers.append(Laser(lx, ly, (EDGE_NORMAL[lz.edge] + lz.turn) % 360, lz.strength, lz.kind))
    shields = []
    for k, sh in enumerate(m.shields):
        half = hw if sh.edge in ("front", "back") else hl
        a = -half if sh.start is None else int(sh.start * 2)
        b = half if sh.end is None else int(sh.end * 2)
        if a < -half or b > half:
            raise ValueError(f"{where}: ship {m.id} shield {k} runs off the edge")
        p, q = _edge_point(sh.edge, a, hw, hl), _edge_point(sh.edge, b, hw, hl)
        shields.append((p[0], p[1], q[0], q[1]))
    ab = m.abilities
    return ShipCard(
        index,
        m.id,
        m.name,
        race,
        m.role,
        m.initiative,
        m.hull,
        m.vp,
        m.cost,
        tuple(lasers),
        tuple(shields),
        frozenset(ab.immune_to),
        ab.regenerate,
        ab.ion_proof,
        m.text,
    )


def load_content(data_dir: Path = DATA) -> Content:
    """Read and validate a content pack; ValueError naming the file and the field."""
    table = _read(data_dir / "table.json", TableModel)
    assert isinstance(table, TableModel)
    for scale in ("dispute", "conflict", "war"):
        if scale not in table.scales:
            raise ValueError(f"{data_dir / 'table.json'}: field scales: missing {scale!r}")
    for n in ("2", "3", "4"):
        if n not in table.cargo_cubes:
            raise ValueError(f"{data_dir / 'table.json'}: field cargo_cubes: missing {n!r}")
    hw, hl = table.card.width_mm, table.card.length_mm
    ships: list[ShipCard] = []
    fleets: dict[str, tuple[int, ...]] = {}
    identities: dict[str, str] = {}
    names: dict[str, str] = {}
    for race in RACES:
        path = data_dir / "fleets" / f"{race}.json"
        fleet = _read(path, FleetModel)
        assert isinstance(fleet, FleetModel)
        if fleet.race != race:
            raise ValueError(f"{path}: field race: expected {race!r}, got {fleet.race!r}")
        start = len(ships)
        for m in fleet.ships:
            ships.append(_ship(len(ships), race, m, hw, hl, str(path)))
        fleets[race] = tuple(range(start, len(ships)))
        identities[race] = fleet.identity
        names[race] = fleet.name
    path = data_dir / "meteors.json"
    mets = _read(path, MeteorsModel)
    assert isinstance(mets, MeteorsModel)
    meteor_idx = []
    for met in mets.meteors:
        meteor_idx.append(len(ships))
        ships.append(
            ShipCard(
                len(ships), met.id, met.name, "meteor", "meteor", 0, 0, 0, 0, (), (),
                frozenset(), 0, False, "Neutral Cargo source.",
            )
        )  # fmt: skip
    by_id = {s.id: s.index for s in ships}
    if len(by_id) != len(ships):
        raise ValueError(f"{data_dir}: card ids must be unique across all files")
    return Content(tuple(ships), by_id, fleets, identities, names, tuple(meteor_idx), table)


@lru_cache(maxsize=4)
def default_content() -> Content:
    return load_content(DATA)
