"""Every mechanism the rulebook describes appears in the base content and works: each
test finds the card(s) that carry it and resolves one in the situation it needs.

Rulebook lines exercised: Expeditions needing a skill twice ("Communications,
Communications and Psychic"), a Location Expedition met by a visit, an Embassy
Expedition needing one Embassy, Encounters with level hexagons and with theft, Damage
cards with effects (Afterburner "is not affected by negative effects from ... Damage"),
and base Upgrades and Encounters with the solo game's crossed-out icon.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from skydeck.core import Event, Rng
from skydeck.games.expedition import flow, modules, sensor
from skydeck.games.expedition.belief import from_view
from skydeck.games.expedition.content import DATA_DIR, load_content
from tests.games.expedition.helpers import (
    C,
    act,
    at_command,
    crew,
    drafted,
    empty_neighbour,
    enc,
    exp,
    fx,
    game,
    loc,
    put,
    run_fx,
    texts,
    upg,
)


def damage_card(name: str) -> int:
    return next(i for i, d in enumerate(C.damage) if d.id == name)


def repeated(skills: list[str]) -> bool:
    return any(n > 1 for n in Counter(skills).values())


def start_encounter(st: Any, seat: int, name: str) -> list[Event]:
    events: list[Event] = []
    sensor.start_encounter(st, seat, enc(name), "", events)
    return events


# --- what the content holds ----------------------------------------------------------------


def test_every_mechanism_is_in_the_base_content() -> None:
    exps, encs = C.expeditions, C.encounters
    for tier in ("bronze", "silver", "gold"):
        assert any(e.tier == tier and repeated(e.requires.skills) for e in exps), tier
    first_contact = C.expeditions[exp("bronze_02")].requires.skills
    assert sorted(first_contact) == ["communications", "communications", "psychic"]
    assert any(e.requires.skills and repeated(e.requires.skills) for e in encs if e.requires)
    visits = [
        e
        for e in exps
        if e.kind == "location"
        and not (e.requires.skills or e.requires.levels or e.requires.level_sum)
    ]
    assert visits
    assert any(e.kind == "embassy" and e.requires.embassies == 1 for e in exps)
    assert any(e.requires and e.requires.levels for e in encs)
    assert any(f.op == "theft" for e in encs for f in e.fail)
    assert any(d.movement for d in C.damage) and any(d.effects for d in C.damage)
    assert any(u.no_solo for u in C.upgrades) and any(e.no_solo for e in encs)
    unec = next(d for d in C.dashboards if d.faction == "unec")
    afterburner = unec.specials[0]
    assert afterburner.name == "Afterburner" and all(
        getattr(e, "immune", False) for e in afterburner.effects
    )


def test_every_visit_or_one_embassy_expedition_names_a_type_no_start_has() -> None:
    """Else a player would score it at home in round 1 without doing anything."""
    start_types = {x.type for x in C.locations if x.level == 0}
    for e in C.expeditions:
        r = e.requires
        if e.kind == "location" and not (r.skills or r.levels or r.level_sum):
            assert r.location not in start_types, e.id
        if e.kind == "embassy" and r.embassies == 1:
            assert r.embassy_type not in start_types, e.id


# --- the same skill twice ------------------------------------------------------------------


def test_expedition_needs_the_same_skill_twice() -> None:
    """The rulebook's example: Communications, Communications and Psychic."""
    st = at_command(2)
    st.exps[0] = [exp("bronze_02")]
    st.hand[0] = [crew("cmdr_reyes"), crew("verdant_hollow_1")]  # one Communications
    assert "expedition bronze_02" not in texts(st, 0)
    st.hand[0].append(crew("port_meridian_2"))  # a second Communications
    act(st, "expedition bronze_02", 0)
    act(st, "play cmdr_reyes", 0)
    act(st, "play verdant_hollow_1", 0)
    assert "complete" not in texts(st, 0)
    act(st, "play port_meridian_2", 0)
    act(st, "complete", 0)
    assert st.done[0] == [exp("bronze_02")] and modules.points(st, 0) == 2


def test_reprogrammed_robot_supplies_the_second_skill() -> None:
    st = at_command(2)
    st.exps[0] = [exp("bronze_02")]
    st.hand[0] = [crew("cmdr_reyes"), crew("verdant_hollow_1"), crew("gearspire_1")]
    assert "expedition bronze_02" not in texts(st, 0)
    act(st, "reprogram gearspire_1 communications", 0)
    assert "expedition bronze_02" in texts(st, 0)


def test_encounter_needs_the_same_skill_twice() -> None:
    st = at_command(2)
    st.hand[0] = [crew("ashfall_1"), crew("ensign_okoro")]
    start_encounter(st, 0, "enc_09")  # Solar Flare: Soldier, Soldier
    act(st, "play ashfall_1", 0)
    assert "resolve" not in texts(st, 0)
    st.hand[0].append(crew("magma_forge_1"))
    act(st, "play magma_forge_1", 0)
    act(st, "resolve", 0)
    assert st.rm[0] == 7 and st.transit[0] == [crew("ashfall_1"), crew("magma_forge_1")]


# --- Location and Embassy Expeditions --------------------------------------------------------


def test_location_expedition_is_met_by_a_visit() -> None:
    st = at_command(2)
    st.exps[0] = [exp("bronze_10")]  # visit an Arcane Location
    st.hand[0] = []
    assert "expedition bronze_10" not in texts(st, 0)
    cell = put(st, loc("whisper_vale"), empty_neighbour(st, st.ship[0]))
    act(st, f"move {cell}", 0)
    act(st, "expedition bronze_10", 0)
    act(st, "complete", 0)  # no crew to play: being there is the requirement
    assert st.done[0] == [exp("bronze_10")] and modules.points(st, 0) == 1


def test_embassy_expedition_needs_one_embassy() -> None:
    st = at_command(2)
    st.exps[0] = [exp("bronze_11")]  # one Embassy on a Tech Location
    cell = put(st, loc("gearspire"), empty_neighbour(st, st.ship[0]))
    act(st, f"move {cell}", 0)
    assert "expedition bronze_11" not in texts(st, 0)
    act(st, "build", 0)
    act(st, "expedition bronze_11", 0)
    act(st, "complete", 0)
    assert st.emb[0][loc("gearspire")] == 1 and modules.points(st, 0) == 1


# --- Encounters: level hexagons and theft ------------------------------------------------


def test_encounter_with_a_level_hexagon() -> None:
    st = at_command(2)
    st.hand[0] = [crew("ensign_okoro"), crew("port_meridian_2")]  # levels 1 and 2
    start_encounter(st, 0, "enc_16")  # Space Kraken: a level 2 crew member
    act(st, "play ensign_okoro", 0)
    assert "resolve" not in texts(st, 0)
    act(st, "play port_meridian_2", 0)
    act(st, "resolve", 0)
    assert st.rm[0] == 6  # bonus: repair (nothing to repair) and 1 RM


def test_encounter_with_two_level_one_hexagons() -> None:
    st = at_command(2)
    st.hand[0] = [crew("ensign_okoro"), crew("port_meridian_2")]
    start_encounter(st, 0, "enc_24")  # Sabotage: two level 1 crew
    act(st, "play ensign_okoro", 0)
    act(st, "play port_meridian_2", 0)
    assert "resolve" not in texts(st, 0)


def test_encounter_theft_takes_raw_materials_from_the_ship() -> None:
    st = at_command(2)
    st.cr[0] = 0  # no Solo mission to react with
    start_encounter(st, 0, "enc_13")  # Pirate Raiders: fail -> 3 RM stolen
    events: list[Event] = act(st, "fail", 0)
    assert st.rm[0] == 2 and st.rm[1] == 5  # nobody at the table gains them
    assert any(e.kind == "stolen" and e.data["by"] is None for e in events)
    describe = game(2).describe_event  # the log names no seat for the thief
    line = next(describe(e.for_seat(0) or {}, ["Ann", "Bob"]) for e in events if e.kind == "stolen")
    assert line.startswith("A thief takes 3 RM") and "Bob" not in line


def test_encounter_theft_can_be_prevented_by_a_reaction() -> None:
    """Solo missions and Upgrades answer "any ... theft during your Sensor Phase"."""
    st = at_command(2)
    st.cr[0] = 0
    st.slots[0] = [upg("upgrade_04")]  # Marine Barracks: prevent
    start_encounter(st, 0, "enc_13")
    act(st, "fail", 0)
    assert st.pending[-1]["k"] == "react" and st.pending[-1]["h"] == "steal"
    act(st, "react_upgrade upgrade_04", 0)
    assert st.rm[0] == 5 and st.slots[0] == [] and not st.pending


# --- the solo crossed-out icon ---------------------------------------------------------------


def test_crossed_out_encounter_steals_from_another_ship() -> None:
    st = at_command(2)
    st.cr[1] = 0
    st.hand[0] = [crew("raider_hesh")]
    start_encounter(st, 0, "enc_21")  # Corsair Contact: bonus, steal 2 RM
    act(st, "play raider_hesh", 0)
    act(st, "resolve", 0)
    act(st, "target 1", 0)
    assert (st.rm[0], st.rm[1]) == (7, 3)


def test_crossed_out_upgrade_steals_from_another_ship() -> None:
    st = at_command(2)
    st.cr[1] = 0
    st.slots[0] = [upg("upgrade_11")]  # Signal Hijacker: discard to steal 2 RM
    act(st, "ability upgrade_11", 0)
    act(st, "target 1", 0)
    assert (st.rm[0], st.rm[1]) == (7, 3)


def test_crossed_out_base_cards_leave_the_solo_game_only() -> None:
    marked_u = [upg(u.id) for u in C.upgrades if u.no_solo]
    marked_e = [enc(e.id) for e in C.encounters if e.no_solo]
    assert marked_u and marked_e
    solo = drafted(1, 3)
    assert not set(marked_u) & {*solo.upg_deck, *solo.store}
    assert not set(marked_e) & set(solo.enc_deck)
    duo = drafted(2, 3)
    assert set(marked_u) <= {*duo.upg_deck, *duo.store}
    assert set(marked_e) <= set(duo.enc_deck)


# --- Damage cards with effects ---------------------------------------------------------------


def hold(st: Any, seat: int, *names: str) -> None:
    """Put these Damage cards on a Dashboard (taken from the supply)."""
    for name in names:
        st.dmg_cards[seat].append(damage_card(name))
        st.dmg[seat] += 1
        st.dmg_supply -= 1


def test_engine_damage_costs_the_rounds_movement() -> None:
    st = at_command(2)
    hold(st, 0, "damage_3")  # Engine Fire
    flow.start_round(st)
    assert [st.movement(0), st.movement(1)] == [0, 1]
    st.repair(0)
    flow.start_round(st)
    assert [st.movement(0), st.movement(1)] == [1, 1]


def test_engine_damage_slows_the_ship_while_the_card_is_on_the_dashboard() -> None:
    """Issue 54, item 8: an engine card costs movement "while the card is on your
    Dashboard" (data/README.md): taken in the Command phase it slows that round's
    movement at once, and repaired the same round it gives the movement back."""
    st = at_command(2)
    flow.start_round(st)
    st.phase, st.acted, st.pending = "command", 0, []
    cell = put(st, loc("gearspire"), empty_neighbour(st, st.ship[0]))
    assert st.movement(0) == 1 and f"move {cell}" in texts(st, 0)
    hold(st, 0, "damage_3")  # Engine Fire, taken mid-round (an Encounter, a Hazard ...)
    assert st.movement(0) == 0 and f"move {cell}" not in texts(st, 0)
    assert st.view(1)["players"][0]["moves"] == 0
    st.rm[0] = 3
    act(st, "repair", 0)
    assert st.movement(0) == 1 and f"move {cell}" in texts(st, 0)
    act(st, f"move {cell}", 0)
    assert st.movement(0) == 0 and st.ship[0] == cell
    hold(st, 0, "damage_4")  # movement already used: nothing more to lose
    st.repair(0)
    assert st.movement(0) == 0


def test_engine_damage_shortens_move_effects_but_not_afterburner() -> None:
    st = at_command(2)
    hold(st, 0, "damage_4")  # Cracked Drive Coil
    st.moves[0], st.base_moves[0] = 0, 0
    run_fx(st, 0, fx("moves", n=2))  # e.g. Fabrication Bay's ability
    assert st.movement(0) == 1
    unec = next(i for i, d in enumerate(C.dashboards) if d.faction == "unec")
    run_fx(st, 0, *st.t.specials[unec][0])  # Afterburner: 2 extra moves, immune
    assert st.movement(0) == 3


def test_two_engine_cards_stop_the_ship_but_warp_jumps_still_fly() -> None:
    st = at_command(2)
    hold(st, 0, "damage_3", "damage_4")
    flow.start_round(st)
    st.phase, st.acted, st.pending = "command", 0, []
    cell = put(st, loc("gearspire"), empty_neighbour(st, st.ship[0]))
    assert f"move {cell}" not in texts(st, 0) and f"warp {cell} rm" in texts(st, 0)


def test_repair_fixes_the_engine_first() -> None:
    st = at_command(2)
    hold(st, 0, "damage_1", "damage_3")
    st.rm[0] = 3
    act(st, "repair", 0)
    assert st.dmg_cards[0] == [damage_card("damage_1")] and st.slowdown(0) == 0


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("damage_5", lambda st: st.rm[0] == 3),  # Fuel Leak: 2 RM lost
        ("damage_6", lambda st: len(st.sickbay[0]) == 1),  # Crew Quarters Hit: Injury
    ],
)
def test_damage_card_effect_resolves_when_taken(name: str, check: Any) -> None:
    st = at_command(2)
    st.cr[0] = 0
    others = [d.id for d in C.damage if d.id != name]
    hold(st, 1, *others)  # the only card left in the supply is ``name``
    events = run_fx(st, 0, fx("damage", n=1))
    assert st.dmg_cards[0] == [damage_card(name)]
    assert any(e.kind == "damaged" and e.data["card"] == name for e in events)
    assert check(st)


def test_damage_cards_are_drawn_at_random_from_the_supply() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        st = at_command(2, seed=seed % 4)
        st.rng = Rng(seed)
        st.take_damage(0)
        st.take_damage(1)
        a, b = st.dmg_cards[0][0], st.dmg_cards[1][0]
        assert a != b and st.dmg_supply == len(C.damage) - 2
        seen[C.damage[a].id] += 1
    assert set(seen) == {d.id for d in C.damage}


def test_damage_cards_are_public_and_survive_a_rebuild_from_the_view() -> None:
    g = game(2)
    st = at_command(2)
    hold(st, 1, "damage_3", "damage_1")
    view = st.view(0)
    assert view["players"][1]["damage_cards"] == ["damage_3", "damage_1"]
    rebuilt = from_view(g, view, 0, Rng(1))
    assert rebuilt.dmg_cards == st.dmg_cards
    assert rebuilt.view(0)["players"] == view["players"]
    assert rebuilt.slowdown(1) == 1


def test_a_state_saved_without_damage_cards_loads() -> None:
    g = game(2)
    st = at_command(2)
    obj = st.to_json()
    del obj["dmg_cards"]
    again = g.restore(obj)
    assert again.dmg_cards == [[], []]
    assert again.take_damage(0) and len(again.dmg_cards[0]) == 1


def test_a_damage_card_that_deals_damage_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "damage.json"
    cards = json.loads(path.read_text())
    cards[0]["effects"] = [{"op": "damage", "n": 1}]
    path.write_text(json.dumps(cards))
    with pytest.raises(ValueError, match=r"damage\.damage_1\.effects"):
        load_content(data)


def test_a_damage_card_without_a_name_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "damage.json"
    cards = json.loads(path.read_text())
    del cards[2]["name"]
    path.write_text(json.dumps(cards))
    with pytest.raises(ValueError, match=r"damage\.json: damage\.2\.name"):
        load_content(data)


@pytest.mark.parametrize("players", [2, 4])
def test_damage_cards_stay_consistent_along_random_games(players: int) -> None:
    """Each Damage card is in exactly one place: a Dashboard (one per Damage counted
    there) or the supply."""
    g = game(players)
    most = 0
    for seed in range(3):
        st = g.new(seed)
        rng = Rng(seed)
        while not st.is_over:
            held = [d for cards in st.dmg_cards for d in cards]
            assert len(held) == len(set(held)) == sum(st.dmg)
            assert [len(c) for c in st.dmg_cards] == st.dmg
            assert st.dmg_supply + len(held) == len(C.damage)
            most = max(most, len(held))
            s = rng.choice(st.to_move)
            st.apply(rng.choice(st.legal_actions(s)), s)
    assert most >= 2  # the games did take (and repair) Damage
