"""Every op of the effect vocabulary, reactions to harm, faction specials, and every
effect printed in the data executed once."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.games.expedition import modules
from tests.games.expedition.helpers import (
    C,
    act,
    anomaly,
    at_command,
    crew,
    empty_neighbour,
    fx,
    loc,
    put,
    run_fx,
    texts,
    upg,
)


def test_gain_and_lose() -> None:
    st = at_command(2)
    run_fx(st, 0, fx("gain", rm=2, crystal=1, influence=3))
    assert (st.rm[0], st.cr[0], st.inf[0]) == (7, 3, 4)
    run_fx(st, 0, fx("lose", rm=9, crystal=1, influence=1))
    assert (st.rm[0], st.cr[0], st.inf[0]) == (0, 2, 3)


def test_moves_repair_heal_points_trade_exchange_discount() -> None:
    st = at_command(2)
    st.take_damage(0)
    st.take_damage(0)
    st.dmg_cards[0] = [0, 1]  # two plain Damage cards (engine Damage would cost moves)
    a = st.hand[0].pop()
    st.sickbay[0] = [a]
    run_fx(
        st,
        0,
        fx("moves", n=2),
        fx("repair", n=1),
        fx("heal", n=1),
        fx("points", n=2),
        fx("trade"),
        fx("exchange"),
        fx("build_discount", n=3),
    )
    assert st.movement(0) == 3 and st.dmg[0] == 1 and a in st.hand[0] and st.sickbay[0] == []
    assert st.bonus_pts[0] == 2 and modules.points(st, 0) == 2
    assert st.trades[0] == 1 and st.exchange[0] == 1 and st.build_bonus[0] == 3


def test_take_upgrade_opens_a_free_choice() -> None:
    st = at_command(2)
    run_fx(st, 0, fx("take_upgrade"))
    assert st.pending[-1]["k"] == "take_upgrade" and "decline" in texts(st, 0)
    act(st, "decline", 0)
    assert st.pending == [] and st.slots[0] == []


def test_injury_and_damage_without_reaction() -> None:
    st = at_command(2)
    st.cr[0] = 0
    n = len(st.hand[0])
    run_fx(st, 0, fx("injury", n=1), fx("damage", n=2))
    assert len(st.hand[0]) == n - 1 and len(st.sickbay[0]) == 1 and st.dmg[0] == 2


def test_injury_with_empty_hand_does_nothing() -> None:
    st = at_command(2)
    st.hand[0] = []
    run_fx(st, 0, fx("injury", n=1))
    assert st.sickbay[0] == []


def test_solo_mission_reaction_can_prevent_harm() -> None:
    st = at_command(2)
    st.hand[0].append(crew("warchief_karuk"))  # Solo: prevent + repair 1 + 2 RM
    run_fx(st, 0, fx("injury", n=1))
    assert st.to_move == (0,) and st.pending[-1]["k"] == "react"
    assert "react_solo warchief_karuk" in texts(st, 0) and "accept" in texts(st, 0)
    act(st, "react_solo warchief_karuk", 0)
    assert st.sickbay[0] == [] and st.cr[0] == 0 and st.solo[0] == [crew("warchief_karuk")]


def test_accepting_harm_applies_it() -> None:
    st = at_command(2)
    run_fx(st, 0, fx("damage", n=1))
    act(st, "accept", 0)
    assert st.dmg[0] == 1


def test_non_preventing_solo_reaction_still_takes_the_harm() -> None:
    st = at_command(2)  # Captain Vance: moves 2 + 1 Crystal
    run_fx(st, 0, fx("damage", n=1))
    act(st, "react_solo captain_vance", 0)
    assert st.dmg[0] == 1 and st.movement(0) == 3


def test_upgrade_reaction_prevents_and_is_discarded() -> None:
    st = at_command(2)
    st.cr[0] = 0
    st.slots[0] = [upg("upgrade_04")]  # soldier; discard: prevent
    run_fx(st, 0, fx("damage", n=1))
    act(st, "react_upgrade upgrade_04", 0)
    assert st.dmg[0] == 0 and st.slots[0] == []


def test_steal_targets_an_opponent_who_may_react() -> None:
    st = at_command(3)
    st.cr[1] = 0
    st.rm[1] = 1
    run_fx(st, 0, fx("steal", rm=2))
    assert texts(st, 0) == ["target 1", "target 2"]
    act(st, "target 1", 0)
    assert (st.rm[0], st.rm[1]) == (6, 0)


def test_attack_damages_the_chosen_ship_reaction_by_the_victim() -> None:
    st = at_command(2)
    run_fx(st, 0, fx("attack", harm="damage"))
    act(st, "target 1", 0)
    assert st.to_move == (1,) and st.pending[-1]["k"] == "react"  # Tognath's Captain
    act(st, "accept", 1)
    assert st.dmg[1] == 1


def test_place_tiles_anywhere_with_recruiting_reward() -> None:
    st = at_command(2)
    st.stack = [anomaly("mining_1"), loc("port_meridian")]
    run_fx(st, 0, fx("place_tiles", n=2, anywhere=True, recruit_reward=True))
    far = [int(t.split()[2]) for t in texts(st, 0) if t.startswith("place port_meridian")]
    assert any(c not in st.grid.neighbours[st.ship[0]] for c in far)
    act(st, f"place port_meridian {far[-1]}", 0)
    assert texts(st, 0) == ["option 0", "option 1"]
    act(st, "option 1", 0)
    assert st.cr[0] == 3
    act(st, texts(st, 0)[0], 0)  # the Mining planetoid: +1 RM on discovery
    assert st.rm[0] == 6 and st.pending == []


def test_local_production_ignores_embassies() -> None:
    st = at_command(2)
    pm = loc("port_meridian")
    st.ship[0] = put(st, pm, empty_neighbour(st, st.ship[0]))
    run_fx(st, 0, fx("local_production"))
    assert st.rm[0] == 5 + C.locations[pm].produce.rm


def test_collect_remote_uses_a_token() -> None:
    st = at_command(2)
    pm = loc("port_meridian")
    st.emb[0][pm] = 3
    st.tokens[0] = [pm]
    run_fx(st, 0, fx("collect_remote"))
    act(st, "collect_at port_meridian", 0)
    assert st.rm[0] == 5 + 2 * C.locations[pm].produce.rm and st.tokens[0] == []


def test_secret_expedition_effect() -> None:
    st = at_command(2)
    run_fx(st, 0, fx("secret_expedition"))
    act(st, "secret_free gold", 0)
    assert len(st.secret[0]) == 1 and C.expeditions[st.secret[0][0]].tier == "gold"


def test_choose_one_option() -> None:
    st = at_command(2)
    run_fx(st, 0, {"op": "choose", "options": ((fx("gain", rm=5),), (fx("gain", crystal=1),))})
    act(st, "option 0", 0)
    assert st.rm[0] == 10 and st.cr[0] == 2


def test_prevent_outside_a_reaction_is_harmless() -> None:
    st = at_command(2)
    before = st.to_json()
    run_fx(st, 0, fx("prevent"))
    assert st.to_json() == before


def test_trade_action_from_the_galactic_trader() -> None:
    st = at_command(2)
    st.trades[0] = 1
    act(st, "trade rm influence", 0)
    assert (st.rm[0], st.inf[0], st.trades[0]) == (3, 2, 0)
    assert not [t for t in texts(st, 0) if t.startswith("trade")]


@pytest.mark.parametrize("faction", range(4))
@pytest.mark.parametrize("which", [0, 1])
def test_every_faction_special_executes(faction: int, which: int) -> None:
    st = at_command(2)
    st.factions[0] = faction
    st.tokens[0] = [loc("terra_nova")]
    effects = st.t.specials[faction][which]
    before = st.to_json()
    _resolve(st, 0, effects)
    assert st.to_json() != before


def _resolve(st: Any, seat: int, effects: tuple) -> None:
    run_fx(st, seat, *effects)
    guard = 0
    while st.pending:
        s = st.to_move[0]
        act(st, texts(st, s)[0], s)
        guard += 1
        assert guard < 50


def _printed_effect_lists() -> list[tuple[str, tuple]]:
    from skydeck.games.expedition.tables import tables

    t = tables(C)
    out: list[tuple[str, tuple]] = []
    out += [(f"solo:{t.crew_ids[i]}", fx_) for i, fx_ in enumerate(t.crew_solo) if fx_]
    out += [(f"ability:{t.upg_ids[i]}", fx_) for i, fx_ in enumerate(t.upg_ability)]
    out += [(f"fail:{t.enc_ids[i]}", fx_) for i, fx_ in enumerate(t.enc_fail) if fx_]
    out += [(f"bonus:{t.enc_ids[i]}", fx_) for i, fx_ in enumerate(t.enc_bonus) if fx_]
    out += [(f"reward:{t.exp_ids[i]}", fx_) for i, fx_ in enumerate(t.exp_bonus)]
    out += [(f"anomaly:{i}", fx_) for i, fx_ in enumerate(t.anomaly_discover) if fx_]
    out += [(f"anomaly_end:{i}", fx_) for i, fx_ in enumerate(t.anomaly_round_end) if fx_]
    return out


def test_every_printed_effect_executes() -> None:
    lists = _printed_effect_lists()
    assert len(lists) > 150
    for name, effects in lists:
        st = at_command(3)
        st.tokens[0] = [loc("terra_nova")]
        st.take_damage(0)
        st.sickbay[0] = [st.hand[0].pop()]
        try:
            _resolve(st, 0, effects)
        except Exception as exc:  # pragma: no cover - report which card broke
            raise AssertionError(f"{name}: {exc}") from exc


def test_any_upgrade_ability_may_be_used_off_turn_when_harmed() -> None:
    st = at_command(2)
    st.cr[1] = 0
    st.slots[1] = [upg("upgrade_01")]  # discard: +3 RM
    run_fx(st, 0, fx("attack", harm="damage"))
    act(st, "target 1", 0)
    assert st.to_move == (1,) and "react_upgrade upgrade_01" in texts(st, 1)
    act(st, "react_upgrade upgrade_01", 1)
    drawn = C.damage[st.dmg_cards[1][0]]  # a Fuel Leak costs RM as it is taken
    leak = sum(e.rm for e in drawn.effects if e.op == "lose")
    assert st.rm[1] == 8 - leak and st.dmg[1] == 1 and st.to_move == (0,)


def test_destroy_discards_a_random_upgrade_after_a_reaction_window() -> None:
    st = at_command(2)
    st.cr[0] = 0
    st.slots[0] = [upg("upgrade_01"), upg("upgrade_02")]
    run_fx(st, 0, fx("destroy", n=1))
    assert st.pending[-1]["k"] == "react" and st.pending[-1]["h"] == "destroy"
    act(st, "accept", 0)
    assert len(st.slots[0]) == 1 and len(st.upg_discard) == 1
    st.slots[0] = []
    run_fx(st, 0, fx("destroy", n=1))  # nothing to destroy, nothing to react with
    assert st.pending == [] and st.slots[0] == []


def test_using_an_upgrade_in_reaction_saves_its_ability() -> None:
    st = at_command(2)
    st.cr[0] = 0
    st.slots[0] = [upg("upgrade_01")]  # discard: +3 RM
    run_fx(st, 0, fx("destroy", n=1))
    act(st, "react_upgrade upgrade_01", 0)
    assert st.rm[0] == 8 and st.slots[0] == []
