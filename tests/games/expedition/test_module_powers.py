"""Module 1: randomized player powers replace the faction special actions."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from tests.games.expedition.helpers import act, at_command, fresh, texts

MODS = {"modules": ["player_powers"]}


def test_each_player_draws_three_different_powers_of_sixteen_tiles() -> None:
    for seed in range(6):
        st = fresh(4, seed, **MODS)
        assert st.phase == "powers"
        for seat in range(4):
            assert len(set(st.powers[seat])) == 3
        dealt = [p for seat in range(4) for p in st.powers[seat]]
        assert all(dealt.count(p) <= 2 for p in dealt)  # two tiles of each power


def test_powers_are_chosen_in_seat_order_keeping_two() -> None:
    st = fresh(3, 2, **MODS)
    assert st.to_move == (0,)
    assert st.legal_actions(1) == []
    dealt = list(st.powers[0])
    ids = st.t.power_ids
    act(st, f"power_drop {ids[dealt[1]]}", 0)
    assert st.powers[0] == [dealt[0], dealt[2]]
    assert st.to_move == (1,)
    with pytest.raises(IllegalAction):
        act(st, f"power_drop {ids[st.powers[1][0]]}", 2)
    act(st, texts(st, 1)[0], 1)
    act(st, texts(st, 2)[2], 2)
    assert st.phase == "draft"
    assert [len(p) for p in st.powers] == [2, 2, 2]
    assert "powers" in st.view(0)["players"][1]


@pytest.mark.parametrize("face", ["special1", "special2"])
def test_special_faces_use_the_kept_powers_not_the_dashboard(face: str) -> None:
    st = at_command(2, 0, **MODS)
    ids = list(st.t.power_ids)
    st.powers[0] = [ids.index("mining_drones"), ids.index("crystal_resonator")]
    st.phase = "sensor"
    st.pending = [{"k": "sensor", "s": 0, "d": (face, "blank"), "fu": 0}]
    rm, cr, moves = st.rm[0], st.cr[0], st.movement(0)
    act(st, f"reward {face}", 0)
    act(st, f"special {face[-1]}", 0)  # used at once (it could wait for later this round)
    # Mining Drones gains RM only, Crystal Resonator Crystal only (data/powers.json)
    (gain,) = st.t.powers[st.powers[0][0 if face == "special1" else 1]]
    assert gain["op"] == "gain"
    if face == "special1":
        assert gain["rm"] > 0 and (st.rm[0], st.cr[0]) == (rm + gain["rm"], cr)
    else:
        assert gain["crystal"] > 0 and (st.rm[0], st.cr[0]) == (rm, cr + gain["crystal"])
    assert st.movement(0) == moves  # UNEC's Afterburner is not used


def test_without_the_module_the_dashboard_specials_stay() -> None:
    st = at_command(2, 0)
    st.phase = "sensor"
    st.pending = [{"k": "sensor", "s": 0, "d": ("special1", "blank"), "fu": 0}]
    moves = st.movement(0)
    act(st, "reward special1", 0)
    act(st, "special 1", 0)
    assert st.movement(0) == moves + 2  # Afterburner


def test_expedition_packs_are_dealt_and_shown_during_the_power_choice() -> None:
    st = fresh(2, 1, **MODS)
    draft = st.view(0)["draft"]
    assert len(draft["pack"]) == 6 and draft["pack_sizes"] == [6, 6]
    assert "pack" not in st.view(None)["draft"]
