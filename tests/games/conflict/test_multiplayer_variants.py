"""Three and four players (kill piles by damage), the Meteor and Stolen Goods variants."""

from __future__ import annotations

from skydeck.games.conflict.state import BATTLE
from tests.games.conflict.helpers import battle, fire, kinds, on_table

RACES3 = {"races": ["wiss", "vak", "hexai"]}


def test_wreck_goes_to_the_player_who_did_most_damage() -> None:
    st = battle(
        [
            ("vak.needle_1", 1, 100, 100, 0),  # initiative 2: 1 damage for seat 1
            ("wiss.tempest_1", 2, 300, 300, 0),  # the target, 3 hull
            ("vak.raider_1", 0, 300, 100, 0),  # initiative 3: 2 damage for seat 0
        ],
        players=3,
        **RACES3,
    )
    st.cards[0][2:5] = [100, 300, 270]  # the Needle turned to fire right at the Tempest
    fire(st)
    events = fire(st)
    assert kinds(events, "destroyed") == [{"card": 1, "kill_pile": 0}]
    assert st.kills == [[1], [], []]
    assert st.scores[0] == 3


def _two_needles(owner_a: int, owner_b: int):
    # two Needles (initiative 2, 1 damage each) hit a Lancer of seat 2 (2 hull) at once
    return battle(
        [
            ("wiss.lancer_1", 2, 300, 300, 90),  # fires left, at nothing
            ("vak.needle_1", owner_a, 300, 100, 0),
            ("vak.needle_2", owner_b, 300, 500, 180),
        ],
        players=3,
        **RACES3,
    )


def test_a_tie_between_other_players_vaporises_the_wreck() -> None:
    st = _two_needles(0, 1)
    events = fire(st)
    assert kinds(events, "destroyed") == [{"card": 0, "kill_pile": None}]
    assert st.kills == [[], [], []] and st.scores == [0, 0, 0]


def test_the_owner_wins_a_tie_and_scores_its_own_ship_negative() -> None:
    st = _two_needles(0, 2)
    fire(st)
    assert st.kills == [[], [], [0]]
    assert st.scores == [0, 0, -2]


def test_own_ship_destroyed_by_own_fire_counts_against_its_owner() -> None:
    st = battle(
        [("vak.raider_1", 3, 100, 100, 0), ("wiss.lancer_1", 3, 100, 300, 0)],
        players=4,
        races=["wiss", "vak", "tetrakori", "hexai"],
    )
    fire(st)
    assert st.kills[3] == [1] and st.scores[3] == -2


def test_two_player_wrecks_always_go_to_the_opponent() -> None:
    # even when the owner's own fire did all the damage
    st = battle([("vak.raider_1", 1, 100, 100, 0), ("vak.needle_1", 1, 100, 300, 0)])
    while st.phase == BATTLE:
        fire(st)
    assert st.kills == [[1], []] and st.scores == [1, 0]


# --- Meteor ------------------------------------------------------------------------


def test_meteors_are_neutral_sources_anyone_can_steal_from() -> None:
    st = battle(
        [
            ("meteor.ice", -1, 300, 300, 0, 5),
            ("wiss.lancer_1", 0, 300, 100, 0),
            ("vak.raider_1", 1, 300, 500, 180),
        ],
        variants=["meteor"],
    )
    fire(st)
    assert [c[6] for c in st.cards] == [1, 2, 2]
    assert on_table(st, 0)
    assert st.scores == [2, 2]  # the cube left on the Meteor is nobody's


def test_a_depleted_meteor_leaves_the_table() -> None:
    st = battle(
        [
            ("meteor.ice", -1, 300, 300, 0, 1),
            ("wiss.lancer_1", 0, 300, 100, 0),
            ("vak.spear_1", 1, 300, 500, 180),  # initiative 4: fires through the gap
        ],
        variants=["meteor"],
    )
    fire(st)
    assert not on_table(st, 0) and st.cards[1][6] == 1
    events = fire(st)
    assert kinds(events, "laser")[0]["target"] == 1  # straight to the Lancer


# --- Stolen Goods ----------------------------------------------------------------------


def test_stolen_goods_pass_to_the_ship_that_struck_the_final_blow() -> None:
    st = battle(
        [("wiss.tempest_1", 0, 100, 100, 0), ("vak.raider_1", 1, 100, 300, 180, 3)],
        variants=["stolen_goods"],
    )
    fire(st)
    events = fire(st)
    assert kinds(events, "cubes")[-1] == {
        "from_card": 1,
        "to_card": 0,
        "cubes": 3,
        "why": "final_blow",
    }
    assert st.cards[0][6] == 3 and st.vaporised == 0


def test_stolen_goods_vaporise_when_several_ships_strike_at_once() -> None:
    st = battle(
        [
            ("wiss.tempest_1", 0, 100, 100, 0),
            ("vak.raider_1", 1, 100, 300, 180, 3),
            ("wiss.tempest_2", 0, 300, 300, 90),  # also initiative 4, from the right
        ],
        variants=["stolen_goods"],
    )
    while st.phase == BATTLE and on_table(st, 1):
        fire(st)
    assert st.vaporised == 3 and st.cards[0][6] == 0 and st.cards[2][6] == 0


def _brood_between_two_tempests(second: str, x: int, angle: int):
    """A Hexai Brood holding 3 stolen cubes, its shielded back to the right. The Wiss
    Tempest on its left (initiative 4, strength 3) destroys it through its open front;
    ``second`` (also initiative 4) hits it in the same step from the right."""
    return battle(
        [
            ("wiss.tempest_1", 0, 200, 300, 270),  # fires to the right
            ("hexai.brood_1", 1, 450, 300, 90, 3),  # front to the left, shield on its back
            (second, 0, x, 300, angle),
        ],
        races=["wiss", "hexai"],
        variants=["stolen_goods"],
    )


def test_stolen_goods_vaporise_when_a_second_ship_hits_a_shield_at_once() -> None:
    """Issue 13, item 11: a laser that hits a shield does no damage but is still a hit,
    so two ships hit the Brood at the same time: its cubes are vaporised."""
    st = _brood_between_two_tempests("wiss.tempest_2", 700, 90)  # fires to the left
    fire(st)  # the Brood (3) hits the first Tempest for 2 of 3
    events = fire(st)
    shots = {e["from_card"]: e["result"] for e in kinds(events, "laser")}
    assert shots == {0: "damage", 2: "shield"}
    assert not on_table(st, 1) and on_table(st, 0) and on_table(st, 2)
    assert st.cards[0][6] == 0 and st.cards[2][6] == 0 and st.vaporised == 3
    assert kinds(events, "cubes")[-1]["why"] == "destroyed"


def test_stolen_goods_vaporise_when_a_second_ship_hits_with_an_ion_laser() -> None:
    """An ion laser's hit does no damage either (the Brood has already fired), but it
    is a hit: the Wiss Flagship's side ion meets the Brood in the step it dies."""
    st = battle(
        [
            ("wiss.eclipse_1", 0, 200, 300, 270),  # initiative 5, strength 3 forward
            ("hexai.brood_1", 1, 450, 300, 90, 3),
            ("wiss.flagship", 0, 485, 520, 90),  # initiative 5; its ion fires downward, past
            # the Brood's side shield (the middle half of its long edge)
        ],
        races=["wiss", "hexai"],
        variants=["stolen_goods"],
    )
    events = []
    while on_table(st, 1):
        events = fire(st)
    shots = {(e["from_card"], e["target"]): e["result"] for e in kinds(events, "laser")}
    assert shots[(0, 1)] == "damage" and shots[(2, 1)] == "ion_no_effect"
    assert st.cards[0][6] == 0 and st.vaporised == 3


def test_stolen_goods_pass_when_the_only_other_laser_misses() -> None:
    st = _brood_between_two_tempests("wiss.tempest_2", 700, 270)  # fires away, off the table
    fire(st)
    fire(st)
    assert not on_table(st, 1) and st.cards[0][6] == 3 and st.vaporised == 0


def test_without_stolen_goods_the_cubes_vaporise() -> None:
    st = battle([("wiss.tempest_1", 0, 100, 100, 0), ("vak.raider_1", 1, 100, 300, 180, 3)])
    fire(st)
    fire(st)
    assert st.cards[0][6] == 0 and st.vaporised == 3


def test_stolen_goods_vaporise_when_the_striker_dies_in_the_same_step() -> None:
    st = battle(
        [("wiss.lancer_1", 0, 100, 100, 0, 0), ("vak.raider_1", 1, 100, 300, 180, 3)],
        variants=["stolen_goods"],
    )
    fire(st)  # both initiative 3: each destroys the other
    assert not on_table(st, 0) and not on_table(st, 1)
    assert st.vaporised == 3
