"""Stellarion's data-driven content: Voyage cards, the Glaucous Sun board, Theory and
Breakthrough tokens, read from ``data/content.toml`` and validated with pydantic.

A broken file raises ValueError naming the file and the field, so a user's content pack
fails loudly at load time instead of mid-game.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from skydeck.core.content import load_model
from skydeck.games.stellarion.cards import GALAXIES, TYPES

DATA = Path(__file__).parent / "data" / "content.toml"
EXPANSIONS = ("black_holes", "glaucous_sun", "mirrors", "theories")
BREAKTHROUGH_EFFECTS = {
    "reversible_thrusters": "ship",
    "time_shift_radar": "nebula",
    "reflection_amplifier": "stars",
    "inflatable_biodomes": "planet",
}

Galaxy = Literal["alpha", "beta", "gamma", "delta"]
Type = Literal["ship", "nebula", "stars", "planet"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class VoyageCard(_Model):
    id: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_\-]*$")
    name: str
    galaxy: Galaxy


class SunBoard(_Model):
    start: int = Field(ge=0)
    final: int
    meteors: list[int]

    @model_validator(mode="after")
    def _check(self) -> SunBoard:
        if self.final <= self.start:
            raise ValueError(f"final ({self.final}) must be after start ({self.start})")
        if len(self.meteors) != 4 or len(set(self.meteors)) != 4:
            raise ValueError(f"meteors needs 4 distinct spaces, got {self.meteors}")
        for m in self.meteors:
            if not self.start < m < self.final:
                raise ValueError(f"meteor space {m} must lie strictly between start and final")
        return self


class TheoryToken(_Model):
    id: str
    name: str
    type: Type
    needs: int = Field(ge=1, le=8)


class BreakthroughToken(_Model):
    id: str
    name: str
    type: Type

    @model_validator(mode="after")
    def _check(self) -> BreakthroughToken:
        want = BREAKTHROUGH_EFFECTS.get(self.id)
        if want is None:
            raise ValueError(
                f"unknown breakthrough {self.id!r}; known: {', '.join(BREAKTHROUGH_EFFECTS)}"
            )
        if want != self.type:
            raise ValueError(f"breakthrough {self.id!r} upgrades {want}, not {self.type}")
        return self


class AdvancedCounts(_Model):
    black_holes: int = Field(ge=0)
    theories: int = Field(ge=0)
    mirrors: int = Field(ge=0)
    glaucous_sun: int = Field(ge=0)


class TableRules(_Model):
    """Readings of the rulebook a content pack may switch (see RULINGS.md)."""

    # the rulebook's own rule turns up every face-down top; "one" is a named variant
    end_of_turn_reveal: Literal["one", "all"] = "all"


class Content(_Model):
    rules: TableRules = TableRules()
    advanced_per_expansion: AdvancedCounts
    sun: SunBoard
    voyage: list[VoyageCard]
    advanced_voyage: list[VoyageCard]
    theory: list[TheoryToken]
    breakthrough: list[BreakthroughToken]

    @model_validator(mode="after")
    def _check(self) -> Content:
        ids = [v.id for v in self.voyage + self.advanced_voyage]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate voyage ids: {', '.join(dup)}")
        for g in GALAXIES:
            if sum(v.galaxy == g for v in self.voyage) != 2:
                raise ValueError(f"the base game needs exactly 2 {g} Voyage cards")
        counts = self.advanced_per_expansion
        total = counts.black_holes + counts.theories + counts.mirrors + counts.glaucous_sun
        if total > len(self.advanced_voyage):
            raise ValueError(
                f"expansions add {total} advanced voyages but only "
                f"{len(self.advanced_voyage)} are listed"
            )
        if sorted(t.type for t in self.theory) != sorted(TYPES):
            raise ValueError("theory tokens must be exactly one per Type")
        if sorted(b.type for b in self.breakthrough) != sorted(TYPES):
            raise ValueError("breakthrough tokens must be exactly one per Type")
        return self

    def all_voyages(self) -> list[VoyageCard]:
        return self.voyage + self.advanced_voyage


def load_content(path: str | Path | None = None) -> Content:
    """Read and validate a content file; ValueError naming the file and the field."""
    return load_model(Path(path) if path is not None else DATA, Content)


@lru_cache(maxsize=1)
def default_content() -> Content:
    return load_content()
