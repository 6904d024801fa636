"""Completing Expeditions: skills, level hexagons, level sums, Locations, Embassies,
bonus rewards, playing crew to Transit, Upgrade skills and Secret Expeditions."""

from __future__ import annotations

from skydeck.games.expedition import effects, flow, modules
from tests.games.expedition.helpers import (
    C,
    act,
    at_command,
    crew,
    empty_neighbour,
    exp,
    loc,
    put,
    texts,
    upg,
)


def ready(hand: list[str], exps: list[str], seat: int = 0):  # type: ignore[no-untyped-def]
    st = at_command(2)
    st.hand[seat] = [crew(h) for h in hand]
    st.exps[seat] = [exp(e) for e in exps]
    return st


def test_skill_expedition_plays_crew_to_transit_and_scores() -> None:
    st = ready(["captain_vance", "archon_miri", "ensign_okoro"], ["bronze_01"])
    act(st, "expedition bronze_01", 0)
    assert "complete" not in texts(st, 0)
    act(st, "play captain_vance", 0)
    act(st, "play archon_miri", 0)
    act(st, "complete", 0)
    assert st.done[0] == [exp("bronze_01")] and modules.points(st, 0) == 1
    assert st.transit[0] == [crew("captain_vance"), crew("archon_miri")]
    assert st.hand[0] == [crew("ensign_okoro")]
    assert st.rm[0] == 5  # bonus needs a Soldier: not met


def test_bonus_reward_when_its_requirement_is_met_too() -> None:
    st = ready(["captain_vance", "archon_miri", "blademaster_vor"], ["bronze_01"])
    act(st, "expedition bronze_01", 0)
    for c in ("captain_vance", "archon_miri", "blademaster_vor"):
        act(st, f"play {c}", 0)
    act(st, "complete", 0)
    assert st.rm[0] == 7


def test_expedition_not_offered_without_the_skills() -> None:
    st = ready(["captain_vance", "ensign_okoro"], ["bronze_01"])
    assert "expedition bronze_01" not in texts(st, 0)


def test_cancel_returns_the_selection() -> None:
    st = ready(["captain_vance", "archon_miri"], ["bronze_01"])
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "cancel", 0)
    assert sorted(st.hand[0]) == sorted([crew("captain_vance"), crew("archon_miri")])
    assert st.done[0] == []


def test_played_crew_cannot_serve_another_expedition_this_round() -> None:
    st = ready(["captain_vance", "archon_miri"], ["bronze_01", "bronze_01"][:1])
    st.exps[0].append(exp("silver_01"))  # officer, scientist, navigator
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "play archon_miri", 0)
    act(st, "complete", 0)
    assert "expedition silver_01" not in texts(st, 0)


def test_level_hexagons_need_exact_levels() -> None:
    st = ready(["ensign_okoro", "dr_lindqvist"], ["bronze_03"])  # two level-1 crew
    assert "expedition bronze_03" not in texts(st, 0)
    st.hand[0].append(crew("raider_hesh"))
    assert "expedition bronze_03" in texts(st, 0)


def test_level_sum_hexagon() -> None:
    # bronze_06: a Psychic and levels adding up to 5
    st = ready(["archon_miri", "captain_vance"], ["bronze_06"])  # 3 + 0
    assert "expedition bronze_06" not in texts(st, 0)
    st.hand[0].append(crew("dr_lindqvist"))  # + 2
    act(st, "expedition bronze_06", 0)
    act(st, "play archon_miri", 0)
    assert "complete" not in texts(st, 0)
    act(st, "play dr_lindqvist", 0)
    act(st, "complete", 0)
    assert modules.points(st, 0) == 2


def test_location_expedition_needs_the_ship_there() -> None:
    # bronze_04: a Soldier at a Tech Location
    st = ready(["blademaster_vor"], ["bronze_04"])
    assert "expedition bronze_04" not in texts(st, 0)
    tech = next(i for i, x in enumerate(C.locations) if x.type == "tech")
    st.ship[0] = put(st, tech, empty_neighbour(st, st.ship[0]))
    assert "expedition bronze_04" in texts(st, 0)


def test_embassy_expedition_counts_embassies_on_one_location_of_the_type() -> None:
    st = ready([], ["bronze_05"])  # 2 Embassies on a Space Location
    assert "expedition bronze_05" not in texts(st, 0)
    st.emb[0][loc("terra_nova")] = 2
    act(st, "expedition bronze_05", 0)
    act(st, "complete", 0)
    assert modules.points(st, 0) == 2


def test_upgrade_skill_counts_once_per_round_and_temporary_is_discarded() -> None:
    st = ready(["captain_vance"], ["bronze_01"])
    st.slots[0] = [upg("upgrade_06")]  # Psi Amplifier: psychic
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "use upgrade_06", 0)
    act(st, "complete", 0)
    assert st.used_upg[0] == [upg("upgrade_06")] and st.slots[0] == [upg("upgrade_06")]
    # temporary: gone after one use
    st2 = ready(["captain_vance"], ["bronze_01"])
    st2.hand[0].append(crew("archon_miri"))
    st2.exps[0] = [exp("silver_01")]  # officer, scientist, navigator
    st2.slots[0] = [upg("temp_04")]  # scientist, temporary
    act(st2, "expedition silver_01", 0)
    act(st2, "play captain_vance", 0)
    act(st2, "use temp_04", 0)
    act(st2, "complete", 0)
    assert st2.slots[0] == [] and upg("temp_04") in st2.upg_discard


def test_reprogrammed_robot_adds_its_skill() -> None:
    st = ready(["captain_vance", "tunneler_vrr"], ["bronze_01"])  # needs officer + psychic
    assert "expedition bronze_01" not in texts(st, 0)
    act(st, "reprogram tunneler_vrr psychic", 0)
    assert "expedition bronze_01" in texts(st, 0)


def test_secret_expedition_is_not_replaced() -> None:
    st = ready(["captain_vance", "archon_miri"], ["silver_01", "gold_01", "gold_02"])
    st.secret[0] = [exp("bronze_01")]
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "play archon_miri", 0)
    act(st, "complete", 0)
    assert st.secret[0] == [] and modules.points(st, 0) == 1
    st.pending, st.phase, st.step = [], "end", 1
    flow.settle(st, [])
    assert not any(f["k"] == "new_exp" and f["s"] == 0 for f in st.pending)


def test_upgrade_skill_is_not_offered_twice_in_a_round() -> None:
    st = ready(["captain_vance", "archon_miri"], ["bronze_01", "silver_01"])
    st.slots[0] = [upg("upgrade_05")]  # Research Lab: scientist
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "use upgrade_05", 0)
    act(st, "play archon_miri", 0)
    act(st, "complete", 0)
    assert effects.usable_upgrades(st, 0) == []
    st.hand[0] += [crew("cmdr_reyes"), crew("warchief_karuk")]  # navigator, officer
    assert "expedition silver_01" not in texts(st, 0)  # the Scientist skill is spent
    st.used_upg[0] = []
    assert "expedition silver_01" in texts(st, 0)


def test_several_expeditions_in_one_round_with_different_crew() -> None:
    st = ready(
        ["captain_vance", "archon_miri", "ensign_okoro", "raider_hesh"], ["bronze_01", "bronze_03"]
    )
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    act(st, "play archon_miri", 0)
    act(st, "complete", 0)
    act(st, "expedition bronze_03", 0)  # two level-1 crew
    act(st, "play ensign_okoro", 0)
    act(st, "play raider_hesh", 0)
    act(st, "complete", 0)
    assert modules.points(st, 0) == 2 and st.hand[0] == []


def test_reprogrammed_robot_keeps_its_robot_skill() -> None:
    from skydeck.games.expedition.tables import SKILL_INDEX

    st = ready(["tunneler_vrr"], [])
    act(st, "reprogram tunneler_vrr psychic", 0)

    def need(*names: str) -> tuple:
        counts = tuple(1 if s in {SKILL_INDEX[n] for n in names} else 0 for s in range(13))
        return counts, (0, 0, 0, 0), 0, -1, 0, -1

    robot = (crew("tunneler_vrr"),)
    for names in (("robot",), ("psychic",), ("robot", "psychic", "archaeologist")):
        assert effects.meets(st, 0, need(*names), robot, ())
    assert not effects.meets(st, 0, need("pilot"), robot, ())
