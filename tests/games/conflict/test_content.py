"""The content pack: component counts from the rulebook, validation errors that name
the file and the field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skydeck.games.conflict.content import DATA, default_content, load_content


def test_fleet_sizes_match_the_box() -> None:
    c = default_content()
    assert {r: len(ix) for r, ix in c.fleets.items()} == {
        "wiss": 20,
        "vak": 20,
        "tetrakori": 23,
        "hexai": 20,
    }
    assert len(c.meteors) == 5
    for race in c.fleets:
        assert c.ships[c.cargo_of(race)].role == "cargo"
        assert c.ships[c.flagship_of(race)].role == "flagship"


def test_every_scale_allows_a_real_choice() -> None:
    c = default_content()
    for race in c.fleets:
        costs = sorted(c.ships[i].cost for i in c.regulars_of(race))
        assert costs[0] <= 2 and sum(costs[:3]) <= 10  # several ships fit even in a Dispute
        assert sum(costs) > 30  # a War cannot take everything: choices matter


def test_racial_lasers_and_identities() -> None:
    c = default_content()
    kinds = {r: {lz.kind for i in ix for lz in c.ships[i].lasers} for r, ix in c.fleets.items()}
    assert "ion" in kinds["wiss"] and "piercing" not in kinds["wiss"]
    assert "piercing" in kinds["vak"] and "ion" not in kinds["vak"]
    tk = [c.ships[i] for i in c.fleets["tetrakori"]]
    hx = [c.ships[i] for i in c.fleets["hexai"]]
    assert sum(1 in s.immune_to for s in tk) >= 10
    assert sum(s.regenerate > 0 for s in hx) >= 8


def test_sizes_are_data() -> None:
    t = default_content().table
    assert (t.card.width_mm, t.card.length_mm) == (63, 88)
    assert t.scales["war"].credits == 30 and t.scales["dispute"].seconds == 30


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA, dst)
    return dst


def test_broken_ship_names_file_and_field(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    path = d / "fleets" / "vak.json"
    obj = json.loads(path.read_text())
    obj["ships"][3]["lasers"][0]["strength"] = 7
    path.write_text(json.dumps(obj))
    with pytest.raises(ValueError, match=r"vak\.json: field ships\.3\.lasers\.0\.strength"):
        load_content(d)


def test_piercing_laser_must_be_strength_one(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    path = d / "fleets" / "vak.json"
    obj = json.loads(path.read_text())
    for ship in obj["ships"]:
        for lz in ship["lasers"]:
            if lz["kind"] == "piercing":
                lz["strength"] = 2
    path.write_text(json.dumps(obj))
    with pytest.raises(ValueError, match="shield-penetrating"):
        load_content(d)


def test_laser_off_the_edge_is_refused(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    path = d / "fleets" / "wiss.json"
    obj = json.loads(path.read_text())
    obj["ships"][2]["lasers"][0]["offset"] = 40  # the front edge is 63 mm: +-31.5
    path.write_text(json.dumps(obj))
    with pytest.raises(ValueError, match="off the edge"):
        load_content(d)


def test_missing_scale_and_bad_json(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    obj = json.loads((d / "table.json").read_text())
    del obj["scales"]["war"]
    (d / "table.json").write_text(json.dumps(obj))
    with pytest.raises(ValueError, match="scales"):
        load_content(d)
    (d / "table.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"table\.json"):
        load_content(d)
