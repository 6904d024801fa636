"""Content files: JSON or TOML, refused with the file, field and problem named."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from skydeck.core.content import load_model


class Card(BaseModel):
    name: str
    cost: int


class Deck(BaseModel):
    cards: list[Card]


def test_json_and_toml_load(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text('{"cards": [{"name": "Scout", "cost": 2}]}')
    (tmp_path / "d.toml").write_text('[[cards]]\nname = "Scout"\ncost = 2\n')
    assert load_model(tmp_path / "d.json", Deck) == load_model(tmp_path / "d.toml", Deck)


def test_broken_field_is_named(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text('{"cards": [{"name": "Scout", "cost": 2}, {"name": "X", "cost": "lots"}]}')
    with pytest.raises(ValueError, match=r"d\.json: field cards\.1\.cost: .*integer"):
        load_model(path, Deck)


def test_unreadable_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"missing\.json: cannot read content"):
        load_model(tmp_path / "missing.json", Deck)
    bad = tmp_path / "bad.toml"
    bad.write_text("cards = [")
    with pytest.raises(ValueError, match=r"bad\.toml: cannot read content"):
        load_model(bad, Deck)
