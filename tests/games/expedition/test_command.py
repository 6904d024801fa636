"""The Command phase: movement, Embassies and recruiting, collecting, spending."""

from __future__ import annotations

import pytest

from skydeck.core import Action, IllegalAction
from skydeck.games.expedition import command, effects, flow, modules
from tests.games.expedition.helpers import (
    C,
    act,
    anomaly,
    at_command,
    crew,
    empty_neighbour,
    loc,
    put,
    texts,
    upg,
)


def _beside(st, tile, cell=None):  # type: ignore[no-untyped-def]
    return put(st, tile, empty_neighbour(st, st.ship[0] if cell is None else cell))


# --- movement ------------------------------------------------------------------------------


def test_one_free_move_then_warp_jumps_cost_rm_or_crystal() -> None:
    st = at_command(2)
    a = _beside(st, loc("port_meridian"))
    b = _beside(st, loc("cinder_reach"), a)
    act(st, f"move {a}", 0)
    assert st.movement(0) == 0 and st.ship[0] == a
    assert f"move {b}" not in texts(st, 0)
    act(st, f"warp {b} rm", 0)
    assert st.rm[0] == 3
    act(st, f"warp {a} crystal", 0)
    assert st.cr[0] == 1
    st.rm[0], st.cr[0] = 1, 0
    assert not [t for t in texts(st, 0) if t.startswith("warp")]


def test_ships_cannot_enter_asteroid_belts_or_empty_space_but_can_the_gate() -> None:
    st = at_command(2)
    rock = _beside(st, anomaly("asteroid_belt"))
    empty = empty_neighbour(st, st.ship[0])
    moves = texts(st, 0)
    assert f"move {rock}" not in moves and f"move {empty}" not in moves
    assert f"move {st.grid.gate}" in moves


def test_wormhole_travel_is_free_after_landing() -> None:
    st = at_command(2)
    w1 = _beside(st, anomaly("wormhole_1"))
    far = st.grid.index.get((0, -4), 0)
    w2 = put(st, anomaly("wormhole_2"), far)
    act(st, f"move {w1}", 0)
    assert f"wormhole {w2}" in texts(st, 0)
    act(st, f"wormhole {w2}", 0)
    assert st.ship[0] == w2 and st.movement(0) == 0 and st.rm[0] == 5 and st.cr[0] == 2
    assert not [t for t in texts(st, 0) if t.startswith("wormhole")]


def test_a_single_wormhole_goes_nowhere() -> None:
    st = at_command(2)
    w1 = _beside(st, anomaly("wormhole_1"))
    act(st, f"move {w1}", 0)
    assert not [t for t in texts(st, 0) if t.startswith("wormhole")]


# --- Embassies and recruiting ---------------------------------------------------------------


def test_first_embassy_with_exploration_discount_recruits_level_one() -> None:
    st = at_command(2)
    pm = loc("port_meridian")  # level I: 3 RM
    act(st, f"move {_beside(st, pm)}", 0)
    act(st, "build", 0)
    assert st.rm[0] == 5  # 3 RM - round-1 discount of 3
    assert st.inf[0] == 2 and st.emb[0][pm] == 1 and st.emb_left[0] == 10
    assert st.owner[pm] == 0 and pm in st.loc_cards[0]
    assert st.transit[0] == [crew("port_meridian_1")]
    act(st, "build", 0)  # second: 4 RM, no discount, level 2 joins
    assert st.rm[0] == 1 and st.transit[0][-1] == crew("port_meridian_2")
    st.rm[0] = 5
    act(st, "build", 0)  # third: 5 RM, level 3 joins
    assert st.rm[0] == 0 and st.transit[0][-1] == crew("port_meridian_3")
    assert st.emb[0][pm] == 3 and modules.points(st, 0) == 1
    st.rm[0] = 20
    assert "build" not in texts(st, 0)  # max 3 per Location


@pytest.mark.parametrize(("rnd", "paid"), [(1, 0), (2, 1), (3, 2), (4, 3)])
def test_exploration_discount_by_round(rnd: int, paid: int) -> None:
    st = at_command(2)
    st.round = rnd
    act(st, f"move {_beside(st, loc('port_meridian'))}", 0)
    act(st, "build", 0)
    assert st.rm[0] == 5 - paid


def test_exploration_discount_once_per_round() -> None:
    st = at_command(2)
    a = _beside(st, loc("port_meridian"))
    b = _beside(st, loc("cinder_reach"), a)
    act(st, f"move {a}", 0)
    act(st, "build", 0)
    act(st, f"warp {b} crystal", 0)
    act(st, "build", 0)
    assert st.rm[0] == 2  # full 3 RM the second time


def test_no_discount_where_you_already_have_an_embassy() -> None:
    st = at_command(2)
    act(st, "build", 0)  # second Embassy on the Starting Location: 4 RM
    assert st.rm[0] == 1 and st.disc_used[0] == 0
    assert st.transit[0] == [crew(C.locations[st.start_of(0)].crew[1])]


def test_one_embassy_on_another_players_location_without_cards() -> None:
    st = at_command(2)
    pm = loc("port_meridian")
    cell = _beside(st, pm)
    st.owner[pm] = 1
    st.emb[1][pm] = 1
    st.ship[0] = cell
    act(st, "build", 0)
    assert st.emb[0][pm] == 1 and st.transit[0] == [] and pm not in st.loc_cards[0]
    st.rm[0] = 20
    assert "build" not in texts(st, 0)


def test_no_embassy_on_another_players_starting_location() -> None:
    st = at_command(2)
    st.ship[0] = st.ship[1]
    st.rm[0] = 20
    assert "build" not in texts(st, 0)


def test_a_ship_blocks_an_empty_location_but_not_a_settled_one() -> None:
    st = at_command(2)
    pm = loc("port_meridian")
    cell = _beside(st, pm)
    st.ship[0] = st.ship[1] = cell
    assert "build" not in texts(st, 0)
    st.owner[pm] = 1
    st.emb[1][pm] = 1
    assert "build" in texts(st, 0)


def test_anomalies_and_gate_take_no_embassy() -> None:
    st = at_command(2)
    st.ship[0] = _beside(st, anomaly("mining_1"))
    st.rm[0] = 20
    assert "build" not in texts(st, 0)
    st.ship[0] = st.grid.gate
    assert "build" not in texts(st, 0)


def test_twelve_embassies_only() -> None:
    st = at_command(2)
    st.ship[0] = _beside(st, loc("port_meridian"))
    st.emb_left[0] = 0
    assert "build" not in texts(st, 0)


def test_terraform_split_between_raw_materials_and_crystals_is_the_players() -> None:
    """Issue 54, item 9: Terraform builds "for 2 less Resources (Raw Materials and/or
    Crystals)": the player chooses the split. A level VI Location costs 7 RM and 2
    Crystals in round 4; with Terraform the price is 5 RM + 2 Crystals (the default,
    RM first), 6 RM + 1 Crystal or 7 RM and no Crystal."""
    st = at_command(2)
    hv = next(i for i, x in enumerate(C.locations) if x.level == 6)
    st.ship[0] = _beside(st, hv)
    st.round = 4
    st.rm[0], st.cr[0] = 7, 2
    st.build_bonus[0] = 2
    offered = texts(st, 0)
    assert {"build", "build all 1", "build all 2"} <= set(offered)
    before = st.clone()
    act(st, "build all 2", 0)
    assert (st.rm[0], st.cr[0]) == (0, 2) and st.build_bonus[0] == 0
    st = before.clone()
    act(st, "build all 1", 0)
    assert (st.rm[0], st.cr[0]) == (1, 1)
    st = before
    st.rm[0] = 6  # 7 RM cannot be paid: only the splits that take RM off remain
    offered = texts(st, 0)
    assert "build" in offered and "build all 1" in offered and "build all 2" not in offered


def test_terraform_discount_takes_rm_then_crystal() -> None:
    st = at_command(2)
    hv = next(i for i, x in enumerate(C.locations) if x.level == 6)  # 7 RM + 2 Crystal
    st.ship[0] = _beside(st, hv)
    st.round = 4
    st.rm[0], st.cr[0] = 5, 2
    assert "build" not in texts(st, 0)
    st.build_bonus[0] = 2
    act(st, "build", 0)
    assert (st.rm[0], st.cr[0]) == (0, 0) and st.build_bonus[0] == 0


# --- collecting ----------------------------------------------------------------------------


def test_collect_with_a_token_once_per_round() -> None:
    st = at_command(2)
    pm = loc("port_meridian")
    st.ship[0] = _beside(st, pm)
    st.emb[0][pm] = 1
    assert "collect" not in texts(st, 0)
    st.tokens[0] = [pm]
    act(st, "collect", 0)
    assert st.rm[0] == 5 + C.locations[pm].produce.rm
    assert st.tokens[0] == [] and "collect" not in texts(st, 0)


# --- Upgrades and Damage ---------------------------------------------------------------------


def test_buy_upgrade_into_the_next_slot_and_refill_store() -> None:
    st = at_command(2)
    u = st.store[2]
    deck_top = st.upg_deck[-1]
    act(st, f"buy {C.upgrades[u].id}", 0)
    assert st.rm[0] == 3 and st.slots[0] == [u] and st.store[2] == deck_top


def test_full_slots_need_a_discard() -> None:
    st = at_command(2)
    st.slots[0] = [upg(f"upgrade_{i:02d}") for i in range(1, 7)]
    new = st.store[0]
    opts = [t for t in texts(st, 0) if t.startswith(f"buy {C.upgrades[new].id}")]
    assert len(opts) == 6 and all(len(t.split()) == 3 for t in opts)
    act(st, opts[0], 0)
    assert st.slots[0][-1] == new and upg("upgrade_01") not in st.slots[0]
    assert upg("upgrade_01") in st.upg_discard


def test_store_reshuffles_discard_when_deck_is_empty() -> None:
    st = at_command(2)
    st.upg_discard = st.upg_deck[:]
    st.upg_deck = []
    u = st.store[0]
    act(st, f"buy {C.upgrades[u].id}", 0)
    assert st.store[0] >= 0 and st.upg_discard == []


def test_damage_fills_slots_in_order_and_disables() -> None:
    st = at_command(2)
    a, b = upg("upgrade_01"), upg("upgrade_02")
    st.slots[0] = [a, b]
    assert st.take_damage(0)
    assert st.enabled_upgrades(0) == [b]
    assert f"ability {C.upgrades[a].id}" not in texts(st, 0)
    act(st, "repair", 0)
    assert st.rm[0] == 2 and st.enabled_upgrades(0) == [a, b] and st.dmg_supply == 6


def test_upgrade_after_damage_goes_beside_it_and_slides_back() -> None:
    st = at_command(2)
    st.take_damage(0)
    u = st.store[0]
    act(st, f"buy {C.upgrades[u].id}", 0)
    assert st.slots[0] == [-1, u] and st.enabled_upgrades(0) == [u]
    st.repair(0)
    assert st.slots[0] == [u]


def test_six_damage_cards_only() -> None:
    st = at_command(3)
    for _ in range(6):
        assert st.take_damage(0)
    assert not st.take_damage(0) and not st.take_damage(1)


def test_discard_upgrade_for_its_ability() -> None:
    st = at_command(2)
    st.slots[0] = [upg("upgrade_01"), upg("upgrade_02")]  # +3 RM ; +2 moves
    act(st, "ability upgrade_01", 0)
    assert st.rm[0] == 8 and st.slots[0] == [upg("upgrade_02")]
    act(st, "ability upgrade_02", 0)
    assert st.movement(0) == 3


# --- Robots, Solo missions ------------------------------------------------------------------


def test_reprogram_a_robot_for_the_round() -> None:
    st = at_command(2)
    robot = crew("tunneler_vrr")  # archaeologist + robot
    st.hand[0].append(robot)
    act(st, "reprogram tunneler_vrr scientist", 0)
    assert st.cr[0] == 0 and st.reprog[0] == [robot, 4]
    assert not [t for t in texts(st, 0) if t.startswith("reprogram")]
    st.pending, st.phase, st.step = [], "end", 1
    flow.settle(st, [])
    assert st.reprog[0] == []


def test_solo_mission_costs_two_crystals_and_leaves_for_two_rounds() -> None:
    st = at_command(2)
    cap = crew("captain_vance")  # moves 2 + 1 Crystal
    okoro = crew("ensign_okoro")
    assert "solo captain_vance" in texts(st, 0)
    assert "solo ensign_okoro" not in texts(st, 0)
    act(st, "solo captain_vance", 0)
    assert st.cr[0] == 1 and st.movement(0) == 3 and st.solo[0] == [cap]
    assert okoro in st.hand[0]
    st.pending, st.phase, st.step = [], "end", 1
    flow.settle(st, [])
    assert st.transit[0] == [cap]


def test_level_two_solo_only_where_printed() -> None:
    with_solo = [c for c in C.crew if c.level == 2 and c.solo]
    assert with_solo and all(C.locations[C.location_index[c.home]].level >= 5 for c in with_solo)
    st = at_command(2)
    st.hand[0].append(crew(with_solo[0].id))
    assert f"solo {with_solo[0].id}" in texts(st, 0)


# --- Influence ------------------------------------------------------------------------------


def test_replace_an_expedition_for_one_influence() -> None:
    st = at_command(2)
    old = st.exps[0][0]
    act(st, f"replace {C.expeditions[old].id} gold", 0)
    assert st.inf[0] == 0 and old not in st.exps[0] and old in st.exp_discard
    assert C.expeditions[st.exps[0][-1]].tier == "gold" and len(st.exps[0]) == 3


def test_influence_tile_next_to_current_location() -> None:
    st = at_command(2)
    act(st, "scan", 0)
    assert st.inf[0] == 0 and st.pending[-1]["k"] == "place"
    assert len(st.pending[-1]["tiles"]) == 1
    for c in st.grid.neighbours[st.ship[0]]:
        st.board[c] = st.board[c] if st.board[c] >= 0 else st.gate_tile
    st.pending = []
    st.inf[0] = 1
    assert "scan" not in texts(st, 0)


def test_exchange_two_for_one_this_round() -> None:
    st = at_command(2)
    assert "convert rm crystal" not in texts(st, 0)
    act(st, "exchange", 0)
    act(st, "convert rm crystal", 0)
    assert (st.rm[0], st.cr[0], st.inf[0]) == (3, 3, 0)
    act(st, "convert crystal rm", 0)
    assert (st.rm[0], st.cr[0]) == (4, 1)


def test_secret_expedition_for_three_influence_max_three() -> None:
    st = at_command(2)
    assert not [t for t in texts(st, 0) if t.startswith("secret")]
    st.inf[0] = 10
    act(st, "secret silver", 0)
    assert st.inf[0] == 7 and len(st.secret[0]) == 1
    v1 = st.view(1)
    assert v1["players"][0]["secret_tiers"] == ["silver"] and "secret" not in v1["players"][0]
    assert C.expeditions[st.secret[0][0]].id not in str(v1)
    act(st, "secret bronze", 0)
    act(st, "secret gold", 0)
    assert not [t for t in texts(st, 0) if t.startswith("secret")]


def test_resource_tracks_are_capped() -> None:
    st = at_command(2)
    st.gain(0, rm=50, crystal=50, influence=50)
    assert (st.rm[0], st.cr[0], st.inf[0]) == (20, 10, 10)


def test_illegal_action_leaves_state_and_names_the_problem() -> None:
    st = at_command(2)
    st.rm[0] = 3  # a second Embassy at the start costs 4 RM
    before = st.to_json()
    with pytest.raises(IllegalAction, match="'build' is not a legal action for Player 1"):
        st.apply(Action("build"), 0)
    assert st.to_json() == before
    with pytest.raises(IllegalAction, match="Player 2 may not act"):
        st.apply(Action("end"), 1)
    assert st.to_json() == before


def test_solo_crew_returns_to_hand_after_the_next_round() -> None:
    st = at_command(2)
    cap = crew("captain_vance")
    act(st, "solo captain_vance", 0)
    for expected in ("transit", "hand"):
        st.pending, st.phase, st.step = [], "end", 1
        flow.settle(st, [])
        where = "transit" if cap in st.transit[0] else "hand" if cap in st.hand[0] else "?"
        assert where == expected


def test_map_edge_limits_placement() -> None:
    st = at_command(2)
    edge = st.grid.index[(4, 0)]
    st.ship[0] = put(st, loc("port_meridian"), edge)
    assert len(effects.placement_cells(st, 0, False, edge)) == 3  # half the neighbours lie off-map


def test_kind_filtered_command_actions_match_the_full_list() -> None:
    from skydeck.core import Rng
    from tests.games.expedition.helpers import fresh

    for seed in range(3):
        st = fresh(2 + seed, seed)
        rng = Rng(seed)
        while not st.is_over:
            if st.phase == "command" and not st.pending:
                full = command.command_actions(st, st.turn)
                for kind in {a.kind for a in full} | {"move", "warp", "build", "trade"}:
                    only = command.command_actions(st, st.turn, kind)
                    assert only == [a for a in full if a.kind == kind]
            s = rng.choice(st.to_move)
            st.apply(rng.choice(st.legal_actions(s)), s)


def test_build_full_keeps_the_exploration_discount_for_later() -> None:
    st = at_command(2)
    a = _beside(st, loc("port_meridian"))  # level I: 3 RM
    hv = next(i for i, x in enumerate(C.locations) if x.level == 4)  # 5 RM + 1 Crystal
    b = _beside(st, hv, a)
    st.rm[0] = 10
    act(st, f"move {a}", 0)
    assert "build full" in texts(st, 0)
    act(st, "build full", 0)
    assert st.rm[0] == 7 and st.disc_used[0] == 0
    act(st, f"warp {b} crystal", 0)
    act(st, "build", 0)  # the discount goes to the expensive one
    assert st.rm[0] == 5 and st.disc_used[0] == 1
    assert "build full" not in texts(st, 0)


def test_no_upgrade_fits_under_six_damage_cards() -> None:
    st = at_command(2)
    st.slots[0] = [upg(f"upgrade_{i:02d}") for i in range(1, 7)]
    for _ in range(6):
        st.take_damage(0)
    st.rm[0] = 20
    assert not [t for t in texts(st, 0) if t.startswith("buy")]
    assert not effects.can_take_upgrade(st, 0)
    act(st, "repair", 0)  # one slot back: discarding makes room again
    assert [t for t in texts(st, 0) if t.startswith("buy")]


def test_the_edge_of_the_board_is_where_the_tiles_end_inside_the_grid() -> None:
    """Issue 54, item 11 (RULINGS 11): "the edge of the board" is where the placed tiles
    end (a ship next to empty space may place the Influence tile there), inside the
    fixed radius-4 hexagon: on the grid's rim, the cells a real table would have beyond
    it are not offered (the recorded departure, measured by ``measure edge``)."""
    from skydeck.games.expedition.measure import edge

    st = at_command(2)
    g = st.grid
    rim = next(c for c in range(g.size) if len(g.neighbours[c]) == 3 and st.board[c] < 0)
    put(st, loc("port_meridian"), rim)
    st.ship[0] = rim
    st.inf[0] = 1
    free = [c for c in g.neighbours[rim] if st.board[c] < 0]
    assert free and "scan" in texts(st, 0)  # empty space beside it: the edge
    for c in free:
        st.board[c] = st.gate_tile
    assert "scan" not in texts(st, 0)  # three cells beyond the rim do not count
    r = edge(2, 1, [])
    assert 0 <= r["rim_took_a_tile"] <= r["on_the_rim"] <= r["placements"] and r["games"] == 1


def test_the_log_tells_the_price_paid_for_a_warp_jump_not_the_rule() -> None:
    """Issue 49: the log said "Warp Jump to X (2 RM for each space beyond the free
    movement)"; it tells the price paid ("moves to X by Warp Jump, paying 2 RM")."""
    st = at_command(2)
    a = _beside(st, loc("port_meridian"))
    b = _beside(st, loc("cinder_reach"), a)
    act(st, f"move {a}", 0)
    rm = st.rm[0]
    events = act(st, f"warp {b} rm", 0)
    names = ["Ada", "Bo"]
    said = [st.game.describe_event({"kind": e.kind, **e.data}, names, st) for e in events]
    assert f"Ada moves to Cinder Reach by Warp Jump, paying {rm - st.rm[0]} RM" in said, said
    assert not [t for t in said if "for each space" in t], said


def _searched(st, start: int, around: bool) -> tuple[tuple[int, int], ...]:  # type: ignore[no-untyped-def]
    """The plain breadth-first search ``command.distances`` stood for before it read
    a cached visiting order (issue 52): what the fast one must still answer."""
    board, nb = st.board, st.grid.neighbours
    seen = {start}
    frontier, out, d = [start], [], 0
    while frontier:
        d += 1
        nxt = []
        for c in frontier:
            for x in nb[c]:
                if x in seen:
                    continue
                seen.add(x)
                tile = board[x]
                if tile < 0:
                    nxt.append(x)
                elif st.tile_passable[tile]:
                    out.append((x, d))
                    if not (around and st.tile_kind[tile] == "hazard"):
                        nxt.append(x)
        frontier = nxt
    return tuple(out)


@pytest.mark.parametrize("modules_on", [(), ("hazards",)])
def test_distances_match_a_plain_search_on_crowded_maps(modules_on) -> None:  # type: ignore[no-untyped-def]
    import random

    st = at_command(modules=list(modules_on))
    rng = random.Random(52)
    tiles = list(range(st.gate_tile))
    for _ in range(40):
        board = [-1] * st.grid.size
        for cell in rng.sample(range(st.grid.size), rng.randrange(5, 45)):
            board[cell] = rng.choice(tiles)
        st.board = board
        around = st.content.mod is not None
        for start in range(0, st.grid.size, 3):
            assert command.distances(st, start) == _searched(st, start, around)
            assert command.distances(st, start, False) == _searched(st, start, False)
