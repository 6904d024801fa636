"""Solo mode: the drone, its rank table and Action decks, and the solo set-up."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.core import Event, Rng
from skydeck.games.expedition import drone, effects, flow, modules, pending
from skydeck.games.expedition.modules_content import default_modules
from skydeck.games.expedition.state import ExpeditionState
from tests.games.expedition.helpers import act, drafted, fresh, loc, put, texts

MF = default_modules()
RANKS = ("commander", "captain", "admiral")


def solo_command(rank: str = "commander", seed: int = 0, **opts: Any) -> ExpeditionState:
    """Round 1, the player's Command turn, nothing pending."""
    st = drafted(1, seed, solo_rank=rank, **opts)
    st.pending = []
    st.phase, st.first, st.acted, st.step = "command", 0, 0, 0
    return st


def card_index(deck: int, cid: str) -> int:
    return [c.id for c in MF.drone.decks[deck]].index(cid)


def drone_turn(st: ExpeditionState) -> list[Event]:
    """Run the drone's Command turn (the player has just ended theirs)."""
    events: list[Event] = []
    st.phase, st.first, st.acted, st.step = "command", 0, 1, 0
    st.pending = []
    flow.settle(st, events)
    return events


# --- set-up --------------------------------------------------------------------------------


def test_solo_setup_as_for_two_players_with_a_drone() -> None:
    st = fresh(1, 3, solo_rank="captain")
    c = st.content
    assert st.n == 1 and st.turns == 2 and st.is_solo
    dstart = c.location_index[c.dashboards[st.drone_faction].start]
    assert st.board[st.d_ship] == dstart and st.d_ship == st.grid.toward(3)
    assert st.ship[0] == st.grid.toward(0)
    assert st.owner[dstart] == 1 and st.d_emb[dstart] == 1 and st.d_left == 11
    assert st.d_pts == 0 and st.d_done == []
    assert [len(d) for d in st.d_decks] == [len(d) for d in MF.drone.decks]
    view = st.view(0)["modules"]["drone"]
    assert view["rank"] == "captain" and view["faction"] == "tognath"


def test_solo_player_keeps_one_expedition_of_each_tier_from_two() -> None:
    st = fresh(1, 5)
    tiers = sorted(st.t.exp_tier[x] for x in st.packs[0])
    assert tiers == [0, 0, 1, 1, 2, 2]
    while st.phase == "draft":
        act(st, texts(st, 0)[-1], 0)
    assert sorted(st.t.exp_tier[x] for x in st.exps[0]) == [0, 1, 2]
    assert st.phase != "draft"


def test_crossed_out_cards_leave_the_solo_game() -> None:
    st = fresh(1, 0, nothing_bad_happens=True)
    smuggler = st.content.encounter_index["plus_06"]
    assert st.t.enc_no_solo[smuggler] and smuggler not in st.enc_deck
    assert smuggler in fresh(2, 0, nothing_bad_happens=True).enc_deck


# --- Discovery and Sensor ------------------------------------------------------------------


def test_player_places_three_tiles_for_the_drone_next_to_it_without_reward() -> None:
    st = drafted(1, 2)
    assert st.phase == "discovery" and st.pending[-1]["s"] == 0
    while not st.pending[-1].get("dr"):
        act(st, texts(st, 0)[0], 0)
    f = st.pending[-1]
    assert f["near"] == st.d_ship and len(f["tiles"]) == 3
    assert st.view(0)["pending"]["for_drone"] is True
    cells = set(st.grid.neighbours[st.d_ship])
    assert all(a.args[1] in cells for a in st.legal_actions(0))
    res = (st.rm[0], st.cr[0], st.inf[0])
    for _ in range(3):
        act(st, texts(st, 0)[0], 0)
    assert (st.rm[0], st.cr[0], st.inf[0]) == res  # no discovery reward for anybody
    assert st.phase == "sensor" and st.pending[-1]["k"] == "sensor"


def test_drone_skips_the_sensor_phase() -> None:
    st = drafted(1, 2)
    events: list[Event] = []
    while st.phase != "command":
        events += act(st, texts(st, 0)[-1], 0)
    rolls = [e for e in events if e.kind == "sensor_roll"]
    assert rolls and all(e.data["seat"] == 0 for e in rolls)
    assert st.turn == 0  # round 1: the player's Command phase comes first


# --- the drone's Command phase -------------------------------------------------------------


@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("rnd", [1, 2, 5, 8])
def test_rank_table_gives_moves_and_action_cards(rank: str, rnd: int) -> None:
    st = solo_command(rank, rnd)
    st.round = rnd
    deck = drone.current_deck(st)
    assert deck == (rnd - 1) // 2
    events = drone_turn(st)
    while st.pending and st.round == rnd:  # the player places the drone's tiles, reacts
        events += act(st, texts(st, 0)[0], 0)
    events = events[: next((i for i, e in enumerate(events) if e.kind == "round"), None)]
    r = MF.drone.ranks[rank]
    first_card = next(i for i, e in enumerate(events) if e.kind == "drone_card")
    assert sum(1 for e in events[:first_card] if e.kind == "drone_moved") == r.moves[rnd - 1]
    cards = [e for e in events if e.kind == "drone_card" and not e.data["extra"]]
    assert len(cards) == r.actions[rnd - 1]
    deck_ids = {c.id for c in MF.drone.decks[deck]}
    assert all(e.data["card"] in deck_ids for e in cards)
    assert not any(e.kind == "command_done" for e in events)  # all of it the drone's turn


def test_next_action_is_visible_on_the_back_of_the_top_card() -> None:
    st = solo_command("commander", 4)
    deck = st.d_decks[0]
    top = deck[-1]
    shown = st.view(0)["modules"]["drone"]["decks"][0]["next"]
    assert shown == MF.drone.decks[0][top].actions[0].model_dump()
    assert drone.draw_drone_card(st, 0) == top


def test_empty_deck_is_flipped_not_shuffled() -> None:
    st = solo_command("commander", 1)
    st.d_used[0] = [2, 0, 4]
    st.d_decks[0] = []
    assert drone.draw_drone_card(st, 0) == 2  # the first card played is on top again
    assert st.d_decks[0] == [4, 0] and st.d_known[0] == 1
    view = st.view(0)["modules"]["drone"]["decks"][0]
    assert view["known"] and view["order"] == [MF.drone.decks[0][i].id for i in (4, 0)]


def test_extra_action_shuffles_the_named_deck_and_does_not_chain() -> None:
    st = solo_command("commander", 0)
    st.round = 3  # deck 3/4; 'previous' is deck 1/2
    events: list[Event] = []
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_extra", "deck": "previous"},), "x": 0}]
    before = len(st.d_decks[0])
    pending.run_pending(st, events)
    played = [e for e in events if e.kind == "drone_card"]
    assert played and played[0].data["extra"] is True
    assert len(st.d_used[0]) == 1 and len(st.d_decks[0]) == before - 1
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_extra", "deck": "current"},), "x": 1}]
    events = []
    pending.run_pending(st, events)
    assert not any(e.kind == "drone_card" for e in events)


@pytest.mark.parametrize("seed", range(4))
def test_drone_upgrade_action_removes_the_rolled_store_card(seed: int) -> None:
    st = solo_command("commander", seed)
    roll = st.rng.copy().randint(1, 6)
    target = st.store[roll - 1]
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_upgrade"},), "x": 0}]
    pending.run_pending(st, [])
    assert st.upg_out == [target] and target not in st.store
    assert all(u >= 0 for u in st.store)  # refilled: always 6 for sale
    assert st.view(0)["modules"]["upgrades_removed"] == [st.t.upg_ids[target]]


def _drone_on(st: ExpeditionState, name: str) -> int:
    cell = next(c for c in st.grid.neighbours[st.d_ship] if st.board[c] < 0)
    put(st, loc(name), cell)
    st.d_ship = cell
    return loc(name)


def test_drone_embassy_blocks_recruitment_there() -> None:
    st = solo_command("commander", 0)
    pm = _drone_on(st, "port_meridian")
    drone.drone_embassy(st, [])
    assert st.owner[pm] == 1 and st.d_emb[pm] == 1 and st.d_left == 10
    drone.drone_embassy(st, [])
    assert st.d_emb[pm] == 2
    st.ship[0] = st.d_ship
    st.rm[0] = 20
    hand, cards = sorted(st.hand[0]), list(st.loc_cards[0])
    act(st, "build", 0)  # one Embassy, as on another player's Location
    assert st.transit[0] == [] and st.loc_cards[0] == cards and sorted(st.hand[0]) == hand
    assert "build" not in texts(st, 0)


def test_drone_embassy_follows_the_placement_rules() -> None:
    st = solo_command("commander", 0)
    pm = _drone_on(st, "port_meridian")
    st.ship[0] = st.d_ship  # the player's ship blocks an empty Location
    drone.drone_embassy(st, [])
    assert st.d_emb[pm] == 0 and st.owner[pm] == -1
    st.d_ship = st.ship[0] = next(c for c in range(len(st.board)) if st.board[c] == st.start_of(0))
    drone.drone_embassy(st, [])
    assert st.d_emb[st.start_of(0)] == 0  # never on the player's Starting Location


def test_drone_ship_blocks_an_empty_location_for_the_player() -> None:
    st = solo_command("commander", 0)
    _drone_on(st, "port_meridian")
    st.ship[0] = st.d_ship
    st.rm[0] = 20
    assert "build" not in texts(st, 0)


def test_drone_moves_by_die_and_movement_card() -> None:
    st = solo_command("commander", 2)
    roll = st.rng.copy().randint(1, 6)
    d = MF.drone.movement[roll - 1]
    q, r = st.grid.coords[st.d_ship]
    from skydeck.games.expedition.board import DIRECTIONS

    want = None
    for k in range(6):
        dq, dr = DIRECTIONS[(d + k) % 6]
        cell = st.grid.index.get((q + dq, r + dr))
        if cell is not None and st.passable(cell):
            want = cell
            break
    drone.drone_move(st, [])
    assert st.d_ship == want


def test_drone_attack_lets_the_player_react() -> None:
    st = solo_command("commander", 0)
    st.hand[0].append(st.content.crew_index["captain_vance"])
    st.cr[0] = 4
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_attack", "harm": "damage"},), "x": 0}]
    pending.run_pending(st, [])
    assert st.pending[-1]["k"] == "react" and st.to_move == (0,)
    act(st, "accept", 0)
    assert st.dmg[0] == 1


def test_attacks_on_other_ships_do_nothing_in_solo() -> None:
    st = solo_command("commander", 0, factions=["maheri"])
    st.pending = [{"k": "fx", "s": 0, "fx": ({"op": "attack", "harm": "damage"},)}]
    pending.run_pending(st, [])
    assert st.pending == []


def test_drone_completes_expeditions_and_scores() -> None:
    st = solo_command("commander", 0)
    top = st.exp_decks[2][-1]
    st.pending = [
        {
            "k": "dfx",
            "s": 0,
            "fx": ({"op": "d_expedition", "tier": "gold"}, {"op": "d_points", "n": 2}),
            "x": 0,
        }
    ]
    pending.run_pending(st, [])
    assert st.d_done == [top]
    assert drone.drone_points(st) == st.content.expeditions[top].points + 2
    dstart = st.content.location_index[st.content.dashboards[st.drone_faction].start]
    st.d_emb[dstart] = 3
    assert drone.drone_points(st) == st.content.expeditions[top].points + 3


@pytest.mark.parametrize("rank", RANKS)
def test_first_player_alternates_and_the_drone_opens_round_eight(rank: str) -> None:
    game_rng = Rng(7)
    st = drafted(1, 3, solo_rank=rank)
    firsts = {st.round: st.first}
    steps = 0
    while not st.is_over and steps < 3000:
        legal = st.legal_actions(0)
        st.apply(legal[game_rng.below(len(legal))], 0)
        firsts.setdefault(st.round, st.first)
        steps += 1
    assert st.is_over
    assert [firsts[r] for r in range(1, 9)] == [0, 1, 0, 1, 0, 1, 0, 1]
    assert drone.drone_points(st) > 0


def test_solo_final_scoring_ties_go_to_the_player() -> None:
    st = solo_command("commander", 0)
    st.phase = "over"
    st.d_pts = modules.points(st, 0)
    assert st.winners == (0,)
    st.d_pts += 1
    assert st.winners == ()
    assert st.scores == [float(modules.points(st, 0))]


def test_drone_turn_frames_wait_for_the_player_to_place_tiles() -> None:
    st = solo_command("commander", 0)
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_discover", "n": 1},), "x": 0}]
    pending.run_pending(st, [])
    f = st.pending[-1]
    assert f["k"] == "place" and f.get("dr") == 1 and f["near"] == st.d_ship


def test_drone_on_legendary_and_artifact_locations() -> None:
    st = solo_command("commander", 0, modules=["legendary", "artifacts"])
    cell = next(c for c in st.grid.neighbours[st.d_ship] if st.board[c] < 0)
    leg = put(st, effects.tile_by_name(st, "leg_titan_forge"), cell)
    st.d_ship = leg
    drone.drone_embassy(st, [])
    here = st.location_at(leg)
    assert st.d_emb[here] == 1 and st.owner[here] == 1
    drone.drone_embassy(st, [])
    assert st.d_emb[here] == 1  # one Embassy in all
    assert st.content.crew_index["leg_brakka"] not in st.transit[0]
    cell = next(c for c in st.grid.neighbours[st.d_ship] if st.board[c] < 0)
    art = put(st, effects.tile_by_name(st, "art_relic_field"), cell)
    st.d_ship = art
    drone.drone_embassy(st, [])
    drone.drone_embassy(st, [])
    a = st.location_at(art)
    assert st.d_emb[a] == 1 and len(st.art_deck) == 6  # the drone takes no Artifact
    st.ship[0] = art
    st.rm[0] = st.cr[0] = 10
    act(st, "build", 0)  # the player may still build there, and pick an Artifact
    assert st.pending[-1]["k"] == "artifact"


def test_previous_deck_in_rounds_one_and_two_is_the_current_one() -> None:
    st = solo_command("commander", 0)
    st.round = 2
    events: list[Event] = []
    st.pending = [{"k": "dfx", "s": 0, "fx": ({"op": "d_extra", "deck": "previous"},), "x": 0}]
    pending.run_pending(st, events)
    while st.pending:
        events += act(st, texts(st, 0)[0], 0)
    ids = {c.id for c in MF.drone.decks[0]}
    assert [e.data["card"] in ids for e in events if e.kind == "drone_card"] == [True]


def test_drone_competes_for_objectives_on_its_own_measures() -> None:
    st = solo_command("commander", 0, modules=["objectives"])
    ids = [o.id for o in MF.objectives.cards]
    st.objs = [ids.index("obj_ambassador"), ids.index("obj_hoarder")]
    st.emb[0] = [0] * len(st.emb[0])
    for i in range(5):
        st.emb[0][i] = 1
    st.d_emb = [0] * len(st.d_emb)
    for i in range(6):
        st.d_emb[i + 5] = 1
    st.rm[0], st.cr[0] = 10, 0
    assert modules.objective_points(st, 1) == [4, 0]  # the drone has no resources
    assert modules.objective_points(st, 0) == [2, 3]
    st.phase = "over"
    assert drone.drone_points(st) == 4 + st.d_pts + sum(
        st.content.expeditions[x].points for x in st.d_done
    )


def test_a_drone_cube_on_the_players_location_stops_recruiting_there() -> None:
    st = solo_command("commander", 0)
    pm = _drone_on(st, "port_meridian")
    cell = st.d_ship
    st.ship[0], st.d_ship = cell, st.grid.gate  # the drone's ship would block it
    st.rm[0] = 20
    act(st, "build", 0)
    st.d_ship = cell
    assert st.owner[pm] == 0 and st.transit[0] == [st.content.crew_index["port_meridian_1"]]
    st.ship[0] = st.grid.gate
    drone.drone_embassy(st, [])
    assert st.d_emb[pm] == 1  # one cube on the player's Location
    st.ship[0] = st.d_ship
    act(st, "build", 0)
    assert st.emb[0][pm] == 2 and len(st.transit[0]) == 1  # no level 2 crew


def test_spectator_view_rebuilds_the_hand_after_stopped_recruiting() -> None:
    from skydeck.games.expedition.belief import from_view

    st = drafted(1, 0)
    while st.pending:  # a consistent state: the tiles drawn are placed
        act(st, texts(st, 0)[0], 0)
    pm = _drone_on(st, "port_meridian")
    st.emb[0][pm], st.owner[pm], st.d_emb[pm] = 2, 0, 1
    st.hand[0].append(st.content.crew_index["port_meridian_1"])  # level 2 never came
    view = st.view(None)
    rebuilt = from_view(st.game, view, None, Rng(1))
    assert rebuilt.view(None) == view
    assert sorted(rebuilt.hand[0]) == sorted(st.hand[0])
