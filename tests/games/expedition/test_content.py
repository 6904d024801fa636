"""Content: component counts, coverage of the vocabulary, and clear errors on bad data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skydeck.games.expedition.content import (
    DATA_DIR,
    EFFECT_OPS,
    LOCATION_TYPES,
    SKILLS,
    load_content,
)
from tests.games.expedition.helpers import C


def test_component_counts_match_the_rulebook() -> None:
    assert len(C.crew) == 88
    assert len(C.locations) == 28
    assert len(C.anomalies) == 8
    assert len(C.expeditions) == 54
    assert len(C.upgrades) == 26
    assert len(C.encounters) == 45
    assert len(C.damage) == 6
    assert len(C.dashboards) == 4
    assert [len(d) for d in C.dice] == [6, 6]


def test_crew_make_up() -> None:
    captains = [c for c in C.crew if c.level == 0]
    assert len(captains) == 4
    starts = [x for x in C.locations if x.level == 0]
    recruiting = [x for x in C.locations if x.level > 0]
    assert len(starts) == 4 and len(recruiting) == 24
    assert sorted({x.level for x in recruiting}) == [1, 2, 3, 4, 5, 6]
    assert {x.type for x in C.locations} == set(LOCATION_TYPES)
    assert {s for c in C.crew for s in c.skills} == set(SKILLS)
    assert all(1 <= len(c.skills) <= 3 for c in C.crew)
    for c in C.crew:
        home = C.locations[C.location_index[c.home]]
        if c.level in (0, 3):
            assert c.solo is not None
        elif c.level == 2 and c.solo is not None:
            assert home.level >= 5
        else:
            assert c.solo is None
    assert any(c.level == 2 and c.solo for c in C.crew)


def test_expedition_tiers_and_kinds() -> None:
    for tier, lo, hi in (("bronze", 1, 2), ("silver", 3, 4), ("gold", 5, 6)):
        cards = [e for e in C.expeditions if e.tier == tier]
        assert len(cards) == 18
        assert all(lo <= e.points <= hi for e in cards)
        assert {e.kind for e in cards} == {"skill", "embassy", "location"}
    assert any(e.requires.levels for e in C.expeditions)
    assert any(e.requires.level_sum for e in C.expeditions)
    assert all(e.bonus is not None for e in C.expeditions)


def test_anomalies_encounters_upgrades_cover_their_kinds() -> None:
    assert {a.kind for a in C.anomalies} == {"wormhole", "mining", "ghost", "asteroid"}
    assert {e.kind for e in C.encounters} == {"test", "chance", "boon"}
    assert any(e.chance and e.chance.helper == "doctor" for e in C.encounters)
    assert any(u.temporary for u in C.upgrades) and any(not u.temporary for u in C.upgrades)
    assert {f for d in C.dice for f in d} == {
        "rm2",
        "crystal",
        "upgrade",
        "special1",
        "special2",
        "encounter",
        "blank",
    }


def _all_effects(obj: object) -> list[dict]:
    out: list[dict] = []
    if isinstance(obj, dict):
        if "op" in obj:
            out.append(obj)
        for v in obj.values():
            out += _all_effects(v)
    elif isinstance(obj, list):
        for v in obj:
            out += _all_effects(v)
    return out


def test_every_effect_op_is_used_by_the_data() -> None:
    used = {e["op"] for e in _all_effects(C.raw.model_dump())}
    assert used == set(EFFECT_OPS)


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


def _edit(folder: Path, name: str, fn) -> None:  # type: ignore[no-untyped-def]
    path = folder / f"{name}.json"
    obj = json.loads(path.read_text())
    fn(obj)
    path.write_text(json.dumps(obj))


def test_copy_of_data_loads(data_copy: Path) -> None:
    assert len(load_content(data_copy).crew) == 88


def test_unknown_skill_names_file_and_field(data_copy: Path) -> None:
    _edit(data_copy, "crew", lambda o: o[5].__setitem__("skills", ["juggler"]))
    with pytest.raises(ValueError, match=r"crew\.json: crew\.5\.skills\.0"):
        load_content(data_copy)


def test_unknown_effect_op_is_refused(data_copy: Path) -> None:
    _edit(data_copy, "upgrades", lambda o: o[0].__setitem__("ability", [{"op": "teleport"}]))
    with pytest.raises(ValueError, match=r"upgrades\.json: upgrades\.0\.ability\.0"):
        load_content(data_copy)


def test_free_text_fields_are_refused(data_copy: Path) -> None:
    _edit(data_copy, "encounters", lambda o: o[0].__setitem__("text", "do something"))
    with pytest.raises(ValueError, match=r"encounters\.json: encounters\.0\.text"):
        load_content(data_copy)


def test_wrong_count_is_refused(data_copy: Path) -> None:
    _edit(data_copy, "upgrades", lambda o: o.pop())
    with pytest.raises(ValueError, match="upgrades: the game has 26"):
        load_content(data_copy)


def test_bad_reference_is_refused(data_copy: Path) -> None:
    _edit(data_copy, "locations", lambda o: o[6]["crew"].__setitem__(0, "nobody"))
    with pytest.raises(ValueError, match="unknown crew 'nobody'"):
        load_content(data_copy)


def test_points_outside_tier_are_refused(data_copy: Path) -> None:
    _edit(data_copy, "expeditions", lambda o: o[0].__setitem__("points", 6))
    with pytest.raises(ValueError, match="bronze Expedition is worth 1-2"):
        load_content(data_copy)


def test_missing_and_invalid_files(data_copy: Path) -> None:
    (data_copy / "dice.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"dice\.json is not valid JSON"):
        load_content(data_copy)
    (data_copy / "dice.json").unlink()
    with pytest.raises(ValueError, match="missing data file"):
        load_content(data_copy)


def test_solo_mission_on_a_low_level_crew_is_refused(data_copy: Path) -> None:
    def edit(o: list) -> None:
        first = next(c for c in o if c["level"] == 1)
        first["solo"] = [{"op": "gain", "rm": 1}]

    _edit(data_copy, "crew", edit)
    with pytest.raises(ValueError, match="Solo missions"):
        load_content(data_copy)


def test_bonus_at_another_location_is_refused(data_copy: Path) -> None:
    def edit(o: list) -> None:
        card = next(e for e in o if e["kind"] == "location")
        other = next(t for t in LOCATION_TYPES if t != card["requires"]["location"])
        card["bonus"]["requires"] = {"location": other}

    _edit(data_copy, "expeditions", edit)
    with pytest.raises(ValueError, match="a ship is only in one place"):
        load_content(data_copy)


def test_every_bonus_can_be_met_with_its_expedition() -> None:
    for e in C.expeditions:
        assert e.bonus is not None
        b = e.bonus.requires
        assert not (b.location and e.requires.location and b.location != e.requires.location)
