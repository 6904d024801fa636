"""Modules 3-5: Hazard tiles (and "nothing bad happens"), Legendary and Artifact
Locations."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.core import Event
from skydeck.games.expedition import command, effects, flow, modules, pending, sensor
from skydeck.games.expedition.content import SKILLS
from tests.games.expedition.helpers import act, at_command, empty_neighbour, put, texts

HZ = {"modules": ["hazards"]}
LG = {"modules": ["legendary"]}
AR = {"modules": ["artifacts"]}


def _beside(st, name: str, cell: int | None = None) -> int:  # type: ignore[no-untyped-def]
    tile = effects.tile_by_name(st, name)
    return put(st, tile, empty_neighbour(st, st.ship[0] if cell is None else cell))


def _land(st, name: str) -> int:  # type: ignore[no-untyped-def]
    cell = _beside(st, name)
    act(st, f"move {cell}", 0)
    return cell


# --- Hazards -------------------------------------------------------------------------------


def test_hazard_tiles_are_shuffled_into_the_stack_only_with_the_module() -> None:
    st = at_command(2, 0, **HZ)
    hz = [effects.tile_by_name(st, f"hazard_{x}") for x in ("ion_storm", "minefield")]
    assert all(h in st.stack for h in hz)
    assert len(st.stack) == len(at_command(2, 0).stack) + 4


@pytest.mark.parametrize("seed", range(6))
def test_landing_on_a_hazard_rolls_the_die_for_danger_or_treasure(seed: int) -> None:
    st = at_command(2, seed, **HZ)
    st.rm[0], st.cr[0] = 10, 3
    roll = st.rng.copy().randint(1, 6)  # the next draw is the hazard die
    before = (st.rm[0], st.cr[0], st.dmg[0])
    cell = _beside(st, "hazard_ion_storm")
    events: list[Event] = act(st, f"move {cell}", 0)
    assert any(e.kind == "hazard_roll" and e.data["roll"] == roll for e in events)
    # Ion Storm: 1-2 Damage, 3 lose 2 RM, 4 +1 Crystal, 5 +2 Crystal, 6 a free Upgrade
    rm, cr, dmg = before
    if roll <= 2:
        if st.pending and st.pending[-1]["k"] == "react":
            act(st, "accept", 0)  # the reaction window opens first
        assert st.dmg[0] == dmg + 1
    elif roll == 3:
        assert st.rm[0] == rm - 2
    elif roll in (4, 5):
        assert st.cr[0] == cr + roll - 3
    else:
        assert st.pending[-1]["k"] == "take_upgrade"


def test_hazards_take_no_embassy_and_do_not_block() -> None:
    st = at_command(2, 0, **HZ)
    cell = _land(st, "hazard_minefield")
    st.pending = []
    st.rm[0] = 20
    assert "build" not in texts(st, 0)
    assert st.passable(cell)


def test_nothing_bad_happens_adds_the_green_plus_encounters() -> None:
    st = at_command(2, 0, nothing_bad_happens=True)
    plus = [e for e in range(len(st.content.encounters)) if st.t.enc_kind[e] == "plus"]
    assert len(plus) == 6 and set(plus) <= set(st.enc_deck)
    assert len(at_command(2, 0).enc_deck) == 45


def _plus_encounter(st, eid: str) -> None:  # type: ignore[no-untyped-def]
    card = st.content.encounter_index[eid]
    st.phase = "sensor"
    st.pending = []
    sensor.start_encounter(st, 0, card, "", [])
    pending.run_pending(st, [])


def test_plus_encounter_gives_its_gift_and_an_optional_bonus() -> None:
    st = at_command(2, 0, nothing_bad_happens=True)
    st.rm[0], st.cr[0] = 5, 0
    _plus_encounter(st, "plus_01")  # gift 2 RM; Communications for 2 Crystals
    assert st.rm[0] == 7 and st.pending[-1]["k"] == "enc"
    assert "fail" in texts(st, 0)  # declining the optional bonus costs nothing
    comms = SKILLS.index("communications")
    radio = next(c for c in range(len(st.content.crew)) if comms in st.t.crew_skills[c])
    if radio not in st.hand[0]:
        st.hand[0].append(radio)
    assert "resolve" not in texts(st, 0)
    act(st, f"play {st.t.crew_ids[radio]}", 0)
    act(st, "resolve", 0)
    assert st.cr[0] == 2 and radio in st.transit[0]


def test_plus_encounter_skipped_bonus_has_no_penalty() -> None:
    st = at_command(2, 0, nothing_bad_happens=True)
    rm, dmg, hand = st.rm[0], st.dmg[0], list(st.hand[0])
    _plus_encounter(st, "plus_01")
    act(st, "fail", 0)
    assert st.rm[0] == rm + 2 and st.dmg[0] == dmg and st.hand[0] == hand


# --- Legendary Locations -------------------------------------------------------------------


def test_fourteen_embassies_with_legendary_or_artifact_locations() -> None:
    assert at_command(2, 0, **LG).emb_left == [13, 13]
    assert at_command(2, 0, **AR).emb_left == [13, 13]
    assert at_command(2, 0).emb_left == [11, 11]


def test_legendary_embassy_recruits_the_legendary_crew_without_a_card() -> None:
    st = at_command(2, 0, **LG)
    lg = effects.tile_by_name(st, "leg_ouroboros")
    _land(st, "leg_ouroboros")
    st.rm[0], st.cr[0] = 10, 1
    cards = list(st.loc_cards[0])
    points = modules.points(st, 0)
    act(st, "build", 0)
    hero = st.content.crew_index["leg_seraphine"]
    assert st.transit[0] == [hero] and st.loc_cards[0] == cards
    assert st.rm[0] == 10 - (6 - 3) and st.cr[0] == 0  # round-1 discount applies
    assert modules.points(st, 0) == points + 1  # the Legendary crew member is worth a point
    assert st.t.crew_level[hero] == 4 and len(st.t.crew_skills[hero]) == 4
    st.rm[0] = st.cr[0] = 10
    assert "build" not in texts(st, 0)  # one Embassy only
    st.ship[1] = st.ship[0]
    assert command.build_cost(st, 1) is None  # for anybody
    assert st.owner[lg] == 0


def test_legendary_location_produces_nothing_and_takes_no_token() -> None:
    st = at_command(2, 0, **LG)
    lg = effects.tile_by_name(st, "leg_worldtree")
    st.emb[0][lg] = 1
    st.owner[lg] = 0
    pm = st.content.location_index["port_meridian"]
    st.emb[0][pm] = 1
    st.collected[0] = []
    assert flow.produce(st, 0) is None
    assert lg not in st.tokens[0] and pm in st.tokens[0]


def test_legendary_solo_mission_needs_no_crystals() -> None:
    st = at_command(2, 0, **LG)
    hero = st.content.crew_index["leg_brakka"]
    st.hand[0].append(hero)
    st.cr[0] = 0
    assert "solo leg_brakka" in texts(st, 0)
    moves = st.movement(0)
    act(st, "solo leg_brakka", 0)
    assert st.cr[0] == 0 and hero in st.solo[0] and st.movement(0) == moves + 3


# --- Artifact Locations --------------------------------------------------------------------


def _artifact_built(**kw: Any):  # type: ignore[no-untyped-def]
    st = at_command(2, 0, **AR, **kw)
    _land(st, "art_sunken_vault")
    st.rm[0], st.cr[0] = 10, 2
    act(st, "build", 0)
    return st


def test_artifact_embassy_lets_you_choose_any_artifact() -> None:
    st = _artifact_built()
    assert st.pending[-1]["k"] == "artifact"
    options = texts(st, 0)
    assert len(options) == 6 + 1  # every Artifact, or decline
    cards = list(st.loc_cards[0])
    act(st, "artifact artifact_compass", 0)
    a = st.content.upgrade_index["artifact_compass"]
    assert st.slots[0] == [a] and st.loc_cards[0] == cards
    assert "artifact_compass" not in st.view(1)["modules"]["artifacts"]
    assert modules.points(st, 0) == 1
    assert st.transit[0] == []  # no crew at an Artifact Location


def test_artifact_is_permanent() -> None:
    st = _artifact_built()
    act(st, "artifact artifact_forge", 0)
    a = st.content.upgrade_index["artifact_forge"]
    assert "ability artifact_forge" not in texts(st, 0)
    effects.harm(st, 0, "destroy", 0, 1, [])
    st.pending = []
    assert a in st.slots[0]
    # a full Dashboard: buying names only real Upgrades as the discard
    st.slots[0] = [a] + [st.content.upgrade_index[f"upgrade_0{i}"] for i in range(1, 6)]
    st.rm[0] = 10
    buys = [x for x in texts(st, 0) if x.startswith("buy")]
    assert buys and all("artifact_forge" not in b for b in buys)


def test_artifact_skill_and_round_ability() -> None:
    st = _artifact_built()
    act(st, "artifact artifact_forge", 0)
    a = st.content.upgrade_index["artifact_forge"]
    assert a in effects.usable_upgrades(st, 0)  # Engineer, once a round
    st.round = 2
    rm = st.rm[0]
    modules.module_round_start(st, [])
    pending.run_pending(st, [])
    assert st.rm[0] == rm + 1


def test_one_artifact_embassy_per_player() -> None:
    st = _artifact_built()
    act(st, "artifact artifact_prism", 0)
    st.rm[0] = st.cr[0] = 10
    assert "build" not in texts(st, 0)
    st.ship[1] = st.ship[0]
    st.rm[1] = st.cr[1] = 10
    assert command.build_cost(st, 1) is not None  # the other player may build there too


def test_artifact_with_full_slots_replaces_an_upgrade() -> None:
    st = at_command(2, 0, **AR)
    _land(st, "art_star_temple")
    st.slots[0] = [st.content.upgrade_index[f"upgrade_0{i}"] for i in range(1, 7)]
    st.rm[0], st.cr[0] = 10, 2
    act(st, "build", 0)
    opts = texts(st, 0)
    assert "artifact artifact_codex upgrade_03" in opts and "decline" in opts
    act(st, "artifact artifact_codex upgrade_03", 0)
    assert st.content.upgrade_index["upgrade_03"] not in st.slots[0]
    assert st.content.upgrade_index["artifact_codex"] in st.slots[0]


def test_damage_covers_an_artifact_until_repaired() -> None:
    st = _artifact_built()
    act(st, "artifact artifact_forge", 0)
    a = st.content.upgrade_index["artifact_forge"]
    st.take_damage(0)
    assert a not in effects.usable_upgrades(st, 0) and a in st.slots[0]
    assert modules.points(st, 0) == 1  # still owned, still a point
    st.repair(0)
    assert a in effects.usable_upgrades(st, 0)


def _line_over_a_hazard() -> tuple[Any, int, int]:
    """Player 1's ship on A, a Hazard next to it, B beyond: A - Hazard - B in a line on
    an otherwise empty map (empty space around them). Returns (state, hazard, B)."""
    st = at_command(2, 0, **HZ)
    g = st.grid
    st.board = [-1] * g.size
    st.board[g.gate] = st.gate_tile
    a, hz, b = (g.index[(0, r)] for r in (2, 3, 4))
    put(st, effects.tile_by_name(st, "port_meridian"), a)
    put(st, effects.tile_by_name(st, "hazard_ion_storm"), hz)
    put(st, effects.tile_by_name(st, "gearspire"), b)
    st.ship = [a, g.gate]
    st.rm[0], st.cr[0] = 0, 0
    return st, hz, b


def test_a_path_over_a_hazard_offers_going_around_or_rolling() -> None:
    """Issue 54, item 12: Hazards are "rather dangerous. So you might want to go around
    them. But, if you take a chance and roll the die ...": B lies two cells away over the
    Hazard, three around it (through empty space). With two movements the ship can only
    fly over and roll; with three it chooses: around (no roll) or over (a roll, one
    movement kept)."""
    st, _, b = _line_over_a_hazard()
    st.moves[0], st.base_moves[0] = 2, 0
    offered = texts(st, 0)
    assert f"move {b}" not in offered and f"move {b} hazard" in offered
    roll = st.rng.copy().randint(1, 6)
    events = act(st, f"move {b} hazard", 0)
    assert st.ship[0] == b and st.movement(0) == 0
    rolls = [e.data for e in events if e.kind == "hazard_roll"]
    assert rolls == [{"seat": 0, "tile": "hazard_ion_storm", "roll": roll}]

    st, _, b = _line_over_a_hazard()
    st.moves[0], st.base_moves[0] = 3, 0
    offered = texts(st, 0)
    assert f"move {b}" in offered and f"move {b} hazard" in offered
    events = act(st, f"move {b}", 0)  # around it: three cells, no die
    assert st.ship[0] == b and st.movement(0) == 0
    assert not [e for e in events if e.kind == "hazard_roll"]


def test_a_hazard_beside_the_path_is_no_choice() -> None:
    """Where going around costs nothing more, no flight over a Hazard is offered, and
    landing on a Hazard still rolls (RULINGS 48)."""
    st, hz, _ = _line_over_a_hazard()
    st.moves[0], st.base_moves[0] = 1, 0
    offered = texts(st, 0)
    assert f"move {hz}" in offered and f"move {hz} hazard" not in offered
    events = act(st, f"move {hz}", 0)
    assert [e.data["tile"] for e in events if e.kind == "hazard_roll"] == ["hazard_ion_storm"]
