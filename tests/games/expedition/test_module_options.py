"""Module and solo options, and the module data: validated on load, every effect runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from skydeck.games.expedition import effects, pending
from skydeck.games.expedition.content import DATA_DIR, default_content
from skydeck.games.expedition.modules_content import (
    DRONE_OPS,
    MODULES,
    content_for,
    default_modules,
    load_modules,
)
from tests.games.expedition.helpers import at_command, game


def test_unknown_modules_are_named() -> None:
    with pytest.raises(ValueError, match="unknown modules 'dragons', 'ufo'"):
        game(2, modules=["hazards", "dragons", "ufo"])
    with pytest.raises(ValueError, match="modules must be a list"):
        game(2, modules="hazards")


def test_modules_any_combination_in_rulebook_order() -> None:
    g = game(3, modules=["events", "player_powers", "events"])
    assert g.options["modules"] == ["player_powers", "events"]
    assert game(2, modules=list(reversed(MODULES))).options["modules"] == list(MODULES)


def test_no_module_keeps_the_base_content_and_default_players() -> None:
    g = game(2)
    assert g.content is default_content()
    assert g.options["modules"] == [] and g.options["solo_rank"] is None
    import skydeck

    assert skydeck.load("expedition").players == 2


def test_solo_options() -> None:
    g = game(1)
    assert g.options["solo_rank"] == "commander"
    assert g.options["drone_faction"] == "tognath"  # the first faction the player lacks
    assert game(1, solo_rank="admiral", factions=["edda"]).options["drone_faction"] == "unec"
    with pytest.raises(ValueError, match="solo_rank needs players=1"):
        game(2, solo_rank="captain")
    with pytest.raises(ValueError, match="solo_rank"):
        game(1, solo_rank="general")
    with pytest.raises(ValueError, match="another faction"):
        game(1, factions=["unec"], drone_faction="unec")
    with pytest.raises(ValueError, match="nothing_bad_happens"):
        game(2, nothing_bad_happens="yes")


def test_module_content_is_appended_after_the_base_ids() -> None:
    base = default_content()
    c = content_for(frozenset(MODULES), True)
    assert c.locations[: len(base.locations)] == base.locations
    assert c.anomalies[: len(base.anomalies)] == base.anomalies
    assert c.crew[: len(base.crew)] == base.crew
    assert len(c.encounters) == len(base.encounters) + 6
    assert c.rules.embassies == 14 and base.rules.embassies == 12
    assert len(content_for(frozenset({"events"})).locations) == len(base.locations)


def _effect_lists(obj: Any) -> list[list[dict[str, Any]]]:
    """Every list of effects anywhere in the module data."""
    out: list[list[dict[str, Any]]] = []
    if isinstance(obj, list):
        ops = [e.get("op") if isinstance(e, dict) else None for e in obj]
        if obj and all(ops) and not str(ops[0]).startswith("d_"):
            out.append(obj)
        for v in obj:
            out += _effect_lists(v)
    elif isinstance(obj, dict):
        for v in obj.values():
            out += _effect_lists(v)
    return out


def test_every_module_effect_executes() -> None:
    mf = default_modules()
    lists = _effect_lists(mf.model_dump())
    assert len(lists) > 40
    from skydeck.games.expedition.content import plain_effects

    for power in mf.powers.powers:
        st = at_command(3, modules=list(MODULES))
        effects.push_fx(st, 0, plain_effects(power.effects))
        pending.run_pending(st, [])  # runs or opens a decision frame, never fails
    for fx in lists:
        st = at_command(3, modules=list(MODULES))
        st.pending.append({"k": "fx", "s": 0, "fx": tuple(fx)})
        pending.run_pending(st, [])


def test_every_drone_op_is_used() -> None:
    used = {a.op for deck in default_modules().drone.decks for card in deck for a in card.actions}
    assert used == set(DRONE_OPS)


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


def _edit(folder: Path, name: str, fn: Any) -> None:
    path = folder / f"{name}.json"
    obj = json.loads(path.read_text())
    fn(obj)
    path.write_text(json.dumps(obj))


def test_module_copy_loads(data_copy: Path) -> None:
    assert len(load_modules(data_copy).powers.powers) == 8


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("hazards", lambda o: o["tiles"][0]["roll"].pop(), "hazard"),
        ("legendary", lambda o: o["crew"][0].update(level=3), "level 4"),
        ("drone", lambda o: o.update(movement=[0, 0, 1, 2, 3, 4]), "6 directions"),
        ("objectives", lambda o: o["cards"][0].update(points=[1, 2, 3]), "go down"),
        ("powers", lambda o: o["powers"][0]["effects"].append({"op": "warp"}), "powers"),
        ("events", lambda o: o["events"][0].update(tier="gold"), "tier filter"),
        ("artifacts", lambda o: o["locations"][0].update(crew=["x"]), "artifact Location"),
        ("plus_encounters", lambda o: o["encounters"][0].update(kind="boon"), "plus"),
    ],
)
def test_broken_module_data_is_refused(data_copy: Path, name: str, edit: Any, message: str) -> None:
    _edit(data_copy, name, edit)
    with pytest.raises(ValueError, match=message):
        load_modules(data_copy)


def test_missing_module_file(data_copy: Path) -> None:
    (data_copy / "drone.json").unlink()
    with pytest.raises(ValueError, match="missing data file"):
        load_modules(data_copy)


def test_module_component_counts() -> None:
    mf = default_modules()
    assert len(mf.powers.powers) * mf.powers.copies == 16  # 8 powers x 2 tiles
    assert len(mf.objectives.cards) >= 3 and mf.objectives.rounds == [2, 4, 6]
    assert mf.events.rounds == [3, 5] and len(mf.events.events) >= 2
    assert len(mf.drone.decks) == 4 and set(mf.drone.ranks) == {"commander", "captain", "admiral"}
    assert all(c.level == 4 and len(c.skills) == 4 for c in mf.legendary.crew)
    assert {e.kind for e in mf.plus_encounters.encounters} == {"plus"}
    assert {t.kind for t in mf.hazards.tiles} == {"hazard"}
    assert mf.legendary.embassies == mf.artifacts.embassies == 14


def test_legendary_level_counts_in_sums_not_in_hexagons() -> None:
    from skydeck.games.expedition.content import Requirement
    from skydeck.games.expedition.tables import compile_req

    st = at_command(2, 0, modules=["legendary"])
    hero = st.content.crew_index["leg_ysolde"]
    assert effects.meets(st, 0, compile_req(Requirement(level_sum=4)), (hero,), ())
    assert not effects.meets(st, 0, compile_req(Requirement(levels=[3])), (hero,), ())
    assert effects.meets(st, 0, compile_req(Requirement(skills=["beast", "doctor"])), (hero,), ())


def test_base_states_saved_before_the_modules_still_load() -> None:
    from skydeck.games.expedition.data_state import MODULE_FIELDS

    st = at_command(2, 3)
    obj = st.to_json()
    old = {k: v for k, v in obj.items() if k not in MODULE_FIELDS}
    # before issue 54 the round's own movement was counted in ``moves``
    old["moves"] = [m + b for m, b in zip(obj["moves"], obj["base_moves"], strict=True)]
    back = st.game.restore(old)

    def seen(state: Any) -> Any:
        view = state.view(0)
        for p in view["players"]:
            p.pop("round_move")
        return view

    assert seen(back) == seen(st) and back.legal_actions(0) == st.legal_actions(0)
    broken = dict(old)
    del broken["hand"]
    with pytest.raises(ValueError, match="missing 'hand'"):
        st.game.restore(broken)
