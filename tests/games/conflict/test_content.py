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


def test_every_ability_is_printed_on_its_card() -> None:
    """Issue 54, item 2: the rulebook prints a ship's special rule on the card, and a
    person learns a ship from its text (the shop, the terminal, the page): every ability
    in data has its sentence in the text, and no text names an ability the data lacks."""
    from skydeck.games.conflict.content import AbilitiesModel, ability_texts

    for ship in default_content().ships:
        if ship.role == "meteor":
            continue
        ab = AbilitiesModel(
            immune_to=sorted(ship.immune_to), regenerate=ship.regenerate, ion_proof=ship.ion_proof
        )
        for sentence in ability_texts(ab):
            assert sentence in ship.text, f"{ship.id}: {sentence!r} not in {ship.text!r}"
        if not ability_texts(ab):
            assert ship.role == "cargo" or ship.text == "", f"{ship.id}: {ship.text!r}"
    spinner = default_content().ships[default_content().by_id["hexai.spinner_1"]]
    assert spinner.regenerate == 1 and spinner.text.startswith("Regenerates")


def _edit_ship(tmp_path: Path, race: str, ship_id: str, **fields: object) -> Path:
    d = _copy(tmp_path)
    path = d / "fleets" / f"{race}.json"
    obj = json.loads(path.read_text())
    ship = next(s for s in obj["ships"] if s["id"] == ship_id)
    ship.update(fields)
    path.write_text(json.dumps(obj))
    return d


def test_a_card_hiding_an_ability_is_refused(tmp_path: Path) -> None:
    d = _edit_ship(tmp_path, "hexai", "hexai.mender_1", text="")
    with pytest.raises(ValueError, match=r"hexai\.mender_1: its text must print every ability"):
        load_content(d)


def test_a_card_claiming_an_ability_it_lacks_is_refused(tmp_path: Path) -> None:
    d = _edit_ship(tmp_path, "hexai", "hexai.guard_1", text="Ion lasers do not delay it.")
    with pytest.raises(ValueError, match=r"hexai\.guard_1: its text says 'Ion lasers do not'"):
        load_content(d)


def test_no_ship_carries_a_regeneration_that_cannot_act(tmp_path: Path) -> None:
    """Issue 54, item 3: a 1-hull ship is destroyed by any damage before the step's
    regeneration, so "Regenerates" on it could never act (RULINGS 12): the Hexai Drones
    have no regeneration, and data giving it to a 1-hull ship is refused."""
    c = default_content()
    for i in c.fleets["hexai"]:
        ship = c.ships[i]
        if ship.regenerate:
            assert ship.hull >= 2, ship.id
    drone = c.ships[c.by_id["hexai.drone_1"]]
    assert drone.hull == 1 and drone.regenerate == 0 and "Regenerates" not in drone.text
    text = "Regenerates: removes 1 damage token at the end of each initiative step it survives."
    d = _edit_ship(
        tmp_path, "hexai", "hexai.cell_1", hull=1, abilities={"regenerate": 1}, text=text
    )
    with pytest.raises(ValueError, match=r"hexai\.cell_1: a ship with 1 hull point can never"):
        load_content(d)


def test_the_rulings_figures_of_the_fleets_hold() -> None:
    """Issue 54, item 4: RULINGS content item 1 gives the fleets' credit totals and what
    a Dispute buys; they must be today's data (they were stale after the balance passes),
    and battle item 26 must name the Stolen Goods exception of item 33."""
    c = default_content()
    rulings = (DATA.parent / "RULINGS.md").read_text()
    totals, most = [], {}
    for race in c.fleets:
        costs = sorted(c.ships[i].cost for i in c.regulars_of(race))
        totals.append(sum(costs))
        n, spent = 0, 0
        while n < len(costs) and spent + costs[n] <= 10:
            spent, n = spent + costs[n], n + 1
        most[race] = n
    flat = " ".join(rulings.split())
    assert f"cost {min(totals)}-{max(totals)} credits in all" in flat
    others = {n for r, n in most.items() if r != "wiss"}
    assert others == {6} and most["wiss"] == 5
    assert "buys at most 5 regular ships for the Wiss and 6 for the other races" in flat
    item26 = flat[flat.index("26. **Stolen cubes**") : flat.index("27. **")]
    assert "Stolen Goods" in item26 and "item 33" in item26
