"""Loads the Universe board and the 40 Mission cards from ``data/`` with pydantic.

The files are the content pack: another board or card set can be swapped in without
touching code. A broken file raises ValueError naming the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from skydeck.core.content import load_model

DATA = Path(__file__).parent / "data"

#: Body types, by code (0 is an empty space). Colours follow the bag: 11 green Planets,
#: 10 blue Comets, 9 yellow Stars, 8 pink Supernovas.
BODIES = ("", "planet", "comet", "star", "supernova")
COLOURS = ("", "green", "blue", "yellow", "pink")
BODY_CODE = {name: i for i, name in enumerate(BODIES) if name}
COLOUR_CODE = {"g": 1, "b": 2, "y": 3, "p": 4}
SHAPE_CODE = {"P": 1, "C": 2, "S": 3, "N": 4}
BAG_TOTALS = (0, 11, 10, 9, 8)

BodyName = Literal["planet", "comet", "star", "supernova"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _grid3(rows: list[str], allowed: str, what: str) -> list[str]:
    if len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise ValueError(f"{what} must be 3 rows of 3 characters, got {rows!r}")
    bad = {ch for r in rows for ch in r} - set(allowed)
    if bad:
        raise ValueError(f"{what} holds {sorted(bad)}; allowed: {allowed!r}")
    return rows


def _check_map(v: list[str]) -> list[str]:
    if not v or len({len(r) for r in v}) != 1:
        raise ValueError("map rows must all have the same, non-zero length")
    if len(v) > 9 or len(v[0]) > 26:
        raise ValueError("map is at most 9 rows by 26 columns (names like a1..z9)")
    bad = {ch for r in v for ch in r} - set("#@.")
    if bad:
        raise ValueError(f"map holds {sorted(bad)}; allowed: '#', '@', '.'")
    return v


class DiscModel(_Strict):
    """One Galaxy disc as printed: 3x3 holes, the middle one its centre."""

    name: str
    colours: list[str]
    start: list[str]

    @field_validator("colours")
    @classmethod
    def _colours(cls, v: list[str]) -> list[str]:
        _grid3(v, "gbyp.", "colours")
        if v[1][1] != ".":
            raise ValueError("the Galaxy centre is not a coloured space")
        return v

    @field_validator("start")
    @classmethod
    def _start(cls, v: list[str]) -> list[str]:
        _grid3(v, "x.", "start")
        if sum(r.count("x") for r in v) != 4 or v[1][1] == "x":
            raise ValueError("a disc has exactly 4 starting spaces, none at its centre")
        return v


class SlotModel(_Strict):
    slot: str
    centre: str


class UniverseModel(_Strict):
    name: str
    legend: str = ""
    map: list[str]
    galaxies: list[SlotModel]
    discs: list[DiscModel]

    @field_validator("map")
    @classmethod
    def _map(cls, v: list[str]) -> list[str]:
        return _check_map(v)


class FlowerDiscModel(_Strict):
    """One published Galaxy disc: a centre and a ring of six holes. ``ring`` and
    ``start`` list the ring clockwise from the east hole (e, se, sw, w, nw, ne)."""

    name: str
    ring: str
    start: str

    @field_validator("ring")
    @classmethod
    def _ring(cls, v: str) -> str:
        if len(v) != 6 or set(v) - set("gbyp."):
            raise ValueError(f"ring must be 6 characters of 'gbyp.', got {v!r}")
        if sorted(ch for ch in v if ch != ".") != ["b", "g", "p", "y"]:
            raise ValueError(f"ring must hold one hole of each colour g, b, y, p, got {v!r}")
        return v

    @field_validator("start")
    @classmethod
    def _start(cls, v: str) -> str:
        if len(v) != 6 or set(v) - set("x.") or v.count("x") != 4:
            raise ValueError(f"start must be 6 characters with exactly 4 'x', got {v!r}")
        return v


class LatticeUniverseModel(_Strict):
    """The published board: every hole on one triangular lattice, drawn in doubled
    columns (a hole at row r, column c only where r + c is even; its six neighbours
    are 2 columns east and west and 1 row and 1 column on each diagonal)."""

    name: str
    legend: str = ""
    lattice: Literal["triangular"]
    black_holes: Annotated[int, Field(ge=1)]
    map: list[str]
    galaxies: list[SlotModel]
    discs: list[FlowerDiscModel]

    @field_validator("map")
    @classmethod
    def _map(cls, v: list[str]) -> list[str]:
        v = _check_map(v)
        off = [
            f"{chr(ord('a') + c)}{r + 1}"
            for r, row in enumerate(v)
            for c, ch in enumerate(row)
            if ch != "." and (r + c) % 2
        ]
        if off:
            raise ValueError(f"spaces off the lattice (row + column must be even): {off}")
        return v


class _MissionBase(_Strict):
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name: str
    colour: BodyName
    points: Annotated[int, Field(ge=1, le=20)]


class ShapeMission(_MissionBase):
    kind: Literal["line", "semicircle", "rectangle", "diamond", "triangle", "around", "s_shape"]
    shape: list[str]

    @field_validator("shape")
    @classmethod
    def _shape(cls, v: list[str]) -> list[str]:
        if not v or len({len(r) for r in v}) != 1:
            raise ValueError("shape rows must all have the same, non-zero length")
        bad = {ch for r in v for ch in r} - set("PCSN.")
        if bad:
            raise ValueError(f"shape holds {sorted(bad)}; allowed: 'P', 'C', 'S', 'N', '.'")
        if sum(ch != "." for r in v for ch in r) < 2:
            raise ValueError("a shape needs at least two bodies")
        return v


class AcrossMission(_MissionBase):
    kind: Literal["across"]
    bodies: tuple[BodyName, BodyName]


class CountMission(_MissionBase):
    kind: Literal["centres", "colour_spaces"]
    count: Annotated[int, Field(ge=1, le=6)]


MissionModel = Annotated[ShapeMission | AcrossMission | CountMission, Field(discriminator="kind")]


class MissionsModel(_Strict):
    legend: str = ""
    missions: list[MissionModel]

    @field_validator("missions")
    @classmethod
    def _unique(cls, v: list[Any]) -> list[Any]:
        ids = [m.id for m in v]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate mission ids {dup}")
        if len(v) < 9:
            raise ValueError("at least 9 missions are needed (8 Available plus a Reserve)")
        return v


def _load(path: Path, model: type[_Strict]) -> Any:
    return load_model(path, model)


def load_universe(path: Path | None = None) -> UniverseModel:
    result: UniverseModel = _load(path or DATA / "universe.json", UniverseModel)
    return result


def load_lattice_universe(path: Path | None = None) -> LatticeUniverseModel:
    result: LatticeUniverseModel = _load(
        path or DATA / "universe_published.json", LatticeUniverseModel
    )
    return result


def load_missions(path: Path | None = None) -> MissionsModel:
    result: MissionsModel = _load(path or DATA / "missions.json", MissionsModel)
    return result
