"""The Sensor phase: dice combinations, re-rolls, Encounters, faction special actions."""

from __future__ import annotations

import pytest

from skydeck.games.expedition import flow
from tests.games.expedition.helpers import act, at_command, crew, enc, texts


def sensor(st, a: str, b: str, seat: int = 0):  # type: ignore[no-untyped-def]
    st.phase, st.acted, st.step = "sensor", seat, 1
    st.pending = [{"k": "sensor", "s": seat, "d": (a, b), "fu": 0}]
    return st


def on_top(st, name: str) -> None:  # type: ignore[no-untyped-def]
    e = enc(name)
    if e in st.enc_deck:
        st.enc_deck.remove(e)
    st.enc_deck.append(e)


def test_two_rewards_choose_one() -> None:
    st = sensor(at_command(2), "rm2", "crystal")
    assert set(texts(st, 0)) >= {"reward rm2", "reward crystal", "pass"}
    act(st, "reward crystal", 0)
    assert (st.rm[0], st.cr[0]) == (5, 3)


def test_reward_and_blank_take_the_reward() -> None:
    st = sensor(at_command(2), "blank", "rm2")
    assert [t for t in texts(st, 0) if t.startswith("reward")] == ["reward rm2"]
    act(st, "reward rm2", 0)
    assert st.rm[0] == 7


def test_two_blanks_allow_one_free_reroll() -> None:
    st = sensor(at_command(2), "blank", "blank")
    st.inf[0] = 0
    assert texts(st, 0) == ["reroll_free 0", "reroll_free 1", "pass"]
    draws = st.rng.draws
    act(st, "reroll_free 1", 0)
    assert st.rng.draws == draws + 1
    if st.pending and st.pending[-1]["k"] == "sensor":
        assert not [t for t in texts(st, 0) if t.startswith("reroll_free")]


def test_influence_reroll_once_per_round() -> None:
    st = sensor(at_command(2), "blank", "crystal")
    act(st, "reroll 0", 0)
    assert st.inf[0] == 0 and st.rerolled[0] == 1
    if st.pending and st.pending[-1]["k"] == "sensor":
        st.inf[0] = 5
        assert not [t for t in texts(st, 0) if t.startswith("reroll ")]


def test_one_encounter_must_be_taken() -> None:
    st = sensor(at_command(2), "encounter", "rm2")
    st.inf[0] = 0
    assert texts(st, 0) == ["encounter"]


def test_encounter_success_with_the_other_die_as_alternative() -> None:
    st = sensor(at_command(2), "encounter", "crystal")
    on_top(st, "enc_01")  # needs an Officer; fail: Injury; bonus: 2 RM
    act(st, "encounter", 0)
    assert st.pending[-1]["k"] == "enc" and "resolve" not in texts(st, 0)
    act(st, "play captain_vance", 0)
    act(st, "resolve", 0)
    assert crew("captain_vance") in st.transit[0]
    assert texts(st, 0) == ["bonus", "alt"]
    act(st, "alt", 0)
    assert (st.rm[0], st.cr[0]) == (5, 3)


def test_encounter_bonus_without_alternative() -> None:
    st = sensor(at_command(2), "encounter", "blank")
    on_top(st, "enc_01")
    act(st, "encounter", 0)
    act(st, "play captain_vance", 0)
    act(st, "resolve", 0)
    assert st.rm[0] == 7


def test_failed_encounter_applies_its_effect() -> None:
    st = sensor(at_command(2), "encounter", "blank")
    st.cr[0] = 0  # no Solo mission reaction possible
    on_top(st, "enc_01")
    act(st, "encounter", 0)
    hand = list(st.hand[0])
    act(st, "fail", 0)
    assert len(st.sickbay[0]) == 1 and st.sickbay[0][0] in hand
    assert len(st.hand[0]) == len(hand) - 1
    assert enc("enc_01") in st.enc_discard


def test_two_encounters_choose_one_other_to_bottom() -> None:
    st = sensor(at_command(2), "encounter", "encounter")
    on_top(st, "enc_02")
    on_top(st, "boon_01")
    act(st, "encounter", 0)
    assert sorted(texts(st, 0)) == ["pick boon_01", "pick enc_02"]
    act(st, "pick boon_01", 0)
    assert st.rm[0] == 8  # Friendly Traders: +3 RM
    assert st.enc_deck[0] == enc("enc_02") and st.enc_known == 1
    assert st.view(1)["decks"]["encounter_bottom"] == ["enc_02"]


def test_boon_is_positive_at_once() -> None:
    st = sensor(at_command(2), "encounter", "blank")
    on_top(st, "boon_02")  # +2 Crystal
    act(st, "encounter", 0)
    assert st.cr[0] == 4


@pytest.mark.parametrize("seed", range(6))
def test_chance_encounter_helpers_lower_the_target(seed: int) -> None:
    st = sensor(at_command(2, seed=seed), "encounter", "blank")
    st.cr[0] = 0
    on_top(st, "chance_01")  # 6+, Doctors -2 each; fail: Injury; bonus: Upgrade
    doc = crew("dr_lindqvist")
    st.hand[0].append(doc)
    act(st, "encounter", 0)
    assert "play captain_vance" not in texts(st, 0)  # only helpers may be played
    act(st, "play dr_lindqvist", 0)
    events = act(st, "roll", 0)
    roll = next(e.data for e in events if e.kind == "chance_roll")
    assert roll["need"] == 4 and roll["ok"] == (roll["roll"] >= 4)
    assert doc in st.transit[0]
    if roll["ok"]:
        assert st.pending[-1]["k"] == "take_upgrade"
    else:
        assert len(st.sickbay[0]) == 1


def test_special_action_is_the_factions_own() -> None:
    st = sensor(at_command(2), "special1", "blank")  # UNEC: Afterburner
    act(st, "reward special1", 0)
    act(st, "special 1", 0)
    assert st.movement(0) == 3
    st2 = sensor(at_command(2), "blank", "special2", seat=1)  # Tognath: Galactic trader
    act(st2, "reward special2", 1)
    act(st2, "special 2", 1)
    assert st2.trades[1] == 1


def test_sensor_phase_rolls_for_each_player_in_turn() -> None:
    st = at_command(3)
    st.pending, st.phase, st.acted, st.step = [], "sensor", 0, 0
    flow.settle(st, [])
    assert st.pending[-1]["k"] == "sensor" and st.to_move == (0,)
