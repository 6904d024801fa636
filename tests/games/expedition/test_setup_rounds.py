"""Set-up, the Expedition draft, Production, Discovery and the end of a round."""

from __future__ import annotations

import pytest

from skydeck.games.expedition import effects, flow
from tests.games.expedition.helpers import (
    C,
    act,
    anomaly,
    at_command,
    crew,
    drafted,
    empty_neighbour,
    fresh,
    game,
    loc,
    put,
    texts,
)


def test_setup_gives_resources_ship_embassy_and_hand() -> None:
    st = fresh(3)
    gate = st.grid.gate
    for seat in range(3):
        assert (st.rm[seat], st.cr[seat], st.inf[seat]) == (5, 2, 1)
        start = st.start_of(seat)
        assert st.board[st.ship[seat]] == start
        assert st.ship[seat] in st.grid.neighbours[gate]
        assert st.emb[seat][start] == 1 and st.emb_left[seat] == 11
        d = C.dashboards[st.factions[seat]]
        lvl1 = C.locations[start].crew[0]
        assert sorted(st.hand[seat]) == sorted([crew(d.captain), crew(lvl1)])
        assert st.loc_cards[seat] == [start]
    assert st.board[gate] == st.gate_tile
    assert len([u for u in st.store if u >= 0]) == 6
    assert st.round == 1 and st.first == 0 and st.phase == "draft"
    assert len(st.stack) == 24 + 8


def test_factions_option() -> None:
    st = fresh(2, factions=["edda", "maheri"])
    assert [C.dashboards[f].faction for f in st.factions] == ["edda", "maheri"]
    for bad in (["edda"], ["edda", "edda"], ["edda", "klingon"], "edda"):
        with pytest.raises(ValueError, match="faction"):
            game(2, factions=bad)


def test_draft_passes_left_and_ends_with_one_of_each_tier() -> None:
    st = fresh(3, seed=4)
    packs0 = [sorted(p) for p in st.packs]
    for seat in range(3):
        act(st, texts(st, seat)[0], seat)
    # each pack moved one seat to the left (seat s now holds seat s-1's pack)
    for seat in range(3):
        assert set(st.packs[seat]) < set(packs0[(seat - 1) % 3])
    while st.phase == "draft":
        s = st.to_move[0]
        act(st, texts(st, s)[0], s)
    for seat in range(3):
        tiers = sorted(C.expeditions[x].tier for x in st.exps[seat])
        assert tiers == ["bronze", "gold", "silver"]
    assert all(not p for p in st.packs)
    assert sum(len(d) for d in st.exp_decks) == 54 - 9


def test_draft_only_offers_tiers_not_yet_kept() -> None:
    st = fresh(2, seed=1)
    x = st.packs[0][0]
    act(st, f"draft {C.expeditions[x].id}", 0)
    act(st, texts(st, 1)[0], 1)
    tier = C.expeditions[x].tier
    offered = [C.expeditions[C.expedition_index[a.split()[1]]].tier for a in texts(st, 0)]
    assert tier not in offered


def test_draft_pass_when_no_needed_tier_and_fill_from_deck() -> None:
    st = fresh(2, seed=1)
    bronze = [x for x in st.packs[0] if C.expeditions[x].tier == "bronze"]
    st.kept[0] = [bronze[0]]
    st.packs[0] = [x for x in st.packs[0] if C.expeditions[x].tier == "bronze" and x != bronze[0]]
    assert texts(st, 0) == ["draft_pass"]
    act(st, "draft_pass", 0)
    assert st.picked[0] == 1 and st.kept[0] == [bronze[0]]


def test_draft_is_hidden_from_the_other_seats() -> None:
    st = fresh(2, seed=2)
    v1 = st.view(1)
    mine = set(v1["draft"]["pack"])
    other = {C.expeditions[x].id for x in st.packs[0]}
    assert not (other & mine)
    assert str(sorted(other)[0]) not in str(v1)


def test_round_one_skips_production() -> None:
    st = drafted(2)
    assert st.round == 1
    assert (st.rm[0], st.cr[0]) == (5, 2)


def _next_round(st):  # type: ignore[no-untyped-def]
    st.pending = []
    st.phase, st.step, st.acted = "end", 2, 0
    events: list = []
    flow.settle(st, events)
    return st


def test_production_start_current_and_tokens() -> None:
    st = at_command(2)
    a, b = loc("port_meridian"), loc("cinder_reach")
    cell_a = put(st, a, empty_neighbour(st, st.ship[0]))
    put(st, b, empty_neighbour(st, cell_a))
    st.emb[0][a] = 1
    st.emb[0][b] = 3
    st.ship[0] = cell_a
    st.rm[0], st.cr[0] = 0, 0
    _next_round(st)
    pa, home = C.locations[a].produce, C.locations[st.start_of(0)].produce
    assert st.rm[0] == home.rm + pa.rm and st.cr[0] == home.crystal + pa.crystal
    assert st.tokens[0] == [b]
    assert st.collected[0] == [st.start_of(0), a]


def test_start_location_with_three_embassies_doubles() -> None:
    st = at_command(2)
    st.emb[0][st.start_of(0)] = 3
    st.rm[0], st.cr[0] = 0, 0
    _next_round(st)
    home = C.locations[st.start_of(0)].produce
    assert (st.rm[0], st.cr[0]) == (2 * home.rm, 2 * home.crystal)


def test_more_embassy_locations_than_tokens_is_a_choice() -> None:
    st = at_command(2)
    lv1 = [i for i, x in enumerate(C.locations) if x.level == 1 or x.level == 2][:5]
    for i in lv1:
        st.emb[0][i] = 1
    _next_round(st)
    assert st.pending[-1]["k"] == "tokens" and st.to_move == (0,)
    for _ in range(4):
        act(st, texts(st, 0)[0], 0)
    assert len(st.tokens[0]) == 4
    assert not any(f["k"] == "tokens" and f["s"] == 0 for f in st.pending)


def test_discovery_draws_up_to_three_with_two_players_and_two_otherwise() -> None:
    for players, k in ((2, 3), (3, 2)):
        st = drafted(players)
        f = st.pending[-1]
        assert f["k"] == "place" and len(f["tiles"]) == k


def test_discovery_places_only_next_to_current_location() -> None:
    st = drafted(2)
    seat = st.to_move[0]
    allowed = {c for c in st.grid.neighbours[st.ship[seat]] if st.board[c] < 0}
    for a in texts(st):
        assert int(a.split()[2]) in allowed


def test_discovery_limited_by_empty_spaces() -> None:
    st = at_command(2)
    around = [c for c in st.grid.neighbours[st.ship[0]] if st.board[c] < 0]
    for c in around[:-1]:
        put(st, st.stack[0], c)
    st.pending, events = [], []
    effects.open_placement(st, 0, 3, False, False, events)
    assert len(st.pending[-1]["tiles"]) == 1
    st.pending = []
    put(st, st.stack[0], around[-1])
    effects.open_placement(st, 0, 3, False, False, events)
    assert st.pending == []


def test_empty_stack_draws_nothing() -> None:
    st = at_command(2)
    st.stack = []
    events: list = []
    effects.open_placement(st, 0, 3, False, False, events)
    assert st.pending == []


@pytest.mark.parametrize(
    ("name", "field", "amount"), [("wormhole_1", "cr", 1), ("mining_1", "rm", 1)]
)
def test_anomaly_discovery_reward(name: str, field: str, amount: int) -> None:
    st = at_command(2)
    tile = anomaly(name)
    st.stack.remove(tile)
    st.pending = [{"k": "place", "s": 0, "tiles": (tile,), "any": 0, "rw": 0, "near": st.ship[0]}]
    before = getattr(st, field)[0]
    act(st, f"place {name} {empty_neighbour(st, st.ship[0])}", 0)
    assert getattr(st, field)[0] == before + amount


def test_ghost_ship_discovery_gives_an_upgrade_choice() -> None:
    st = at_command(2)
    tile = anomaly("ghost_1")
    st.stack.remove(tile)
    st.pending = [{"k": "place", "s": 0, "tiles": (tile,), "any": 0, "rw": 0, "near": st.ship[0]}]
    act(st, f"place ghost_1 {empty_neighbour(st, st.ship[0])}", 0)
    assert st.pending[-1]["k"] == "take_upgrade"
    first = texts(st, 0)[0]
    act(st, first, 0)
    assert C.upgrade_index[first.split()[1]] in st.slots[0]
    assert st.rm[0] == 5  # free


def test_round_end_on_anomaly_gives_its_reward() -> None:
    st = at_command(2)
    cell = put(st, anomaly("mining_1"), empty_neighbour(st, st.ship[0]))
    st.ship[0] = cell
    st.rm[0] = 0
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    assert st.rm[0] >= 1 and st.round == 2


@pytest.mark.parametrize("name", ["wormhole_2", "ghost_2"])
def test_round_end_on_wormhole_or_ghost_ship(name: str) -> None:
    st = at_command(2)
    st.ship[0] = put(st, anomaly(name), empty_neighbour(st, st.ship[0]))
    st.cr[0] = 0
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    if name.startswith("wormhole"):
        home = C.locations[st.start_of(0)].produce
        # the Wormhole's Crystal, then round 2's production at the Starting Location
        assert st.cr[0] == 1 + home.crystal
    else:
        assert st.pending[-1]["k"] == "take_upgrade" and st.to_move == (0,)
        act(st, texts(st, 0)[0], 0)
        assert len(st.slots[0]) == 1


def test_end_of_round_moves_cards_and_passes_first_player() -> None:
    st = at_command(3)
    a, b, c = crew("dr_lindqvist"), crew("cmdr_reyes"), crew("ensign_okoro")
    st.transit[0] = [a]
    st.sickbay[0] = [b]
    st.solo[0] = [c]
    st.hand[0] = [x for x in st.hand[0] if x not in (a, b, c)]
    st.tokens[0] = [loc("port_meridian")]
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    while st.pending and st.pending[-1]["k"] == "new_exp":
        act(st, texts(st)[0])
    assert a in st.hand[0] and st.transit[0] == [b, c]
    assert st.first == 1 and st.round == 2
    assert loc("port_meridian") not in st.tokens[0]  # Collection tokens came back
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    while st.pending and st.pending[-1]["k"] in ("new_exp", "tokens"):
        act(st, texts(st)[0])
    assert b in st.hand[0] and c in st.hand[0]


def test_completed_expeditions_are_replaced_at_end_of_round_any_tier() -> None:
    st = at_command(2)
    gone = st.exps[0].pop()
    st.done[0].append(gone)
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    assert st.pending[-1]["k"] == "new_exp" and st.to_move == (0,)
    assert texts(st, 0) == ["draw bronze", "draw silver", "draw gold"]
    act(st, "draw gold", 0)
    assert len(st.exps[0]) == 3 and C.expeditions[st.exps[0][-1]].tier == "gold"


def test_game_ends_after_round_eight() -> None:
    st = at_command(2)
    st.round = 8
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    assert st.is_over and st.to_move == ()
    assert st.legal_actions(0) == []


def test_draft_pick_events_are_private() -> None:
    from skydeck.core import filter_events

    st = fresh(2, seed=3)
    pick = texts(st, 0)[0]
    events = act(st, pick, 0)
    name = pick.split()[1]
    assert name in str(filter_events(events, 0))
    assert name not in str(filter_events(events, 1))
    assert name not in str(filter_events(events, None))


def test_turn_order_through_a_round() -> None:
    st = drafted(3)
    seen: list[tuple[str, int]] = []
    while st.round == 1:
        seat = st.to_move[0]
        if not seen or seen[-1] != (st.phase, seat):
            seen.append((st.phase, seat))
        acts = st.legal_actions(seat)
        end = [a for a in acts if a.kind in ("end", "pass", "decline", "accept", "fail", "roll")]
        st.apply(end[0] if end else acts[0], seat)
    order = [(p, s) for p, s in seen if p in ("discovery", "sensor", "command")]
    phases = [p for p, _ in order]
    assert phases.index("sensor") > max(i for i, p in enumerate(phases) if p == "discovery")
    for phase in ("discovery", "command"):
        seats = [s for p, s in order if p == phase]
        assert seats == sorted(seats) and seats[0] == 0
    assert st.first == 1


def test_no_expedition_left_skips_the_replacement() -> None:
    st = at_command(2)
    st.exps[0].pop()
    st.exps[1].pop()
    for d in st.exp_decks:
        st.exp_discard.extend(d)
        d.clear()
    st.exp_decks[2].append(st.exp_discard.pop())  # a single card left in the game
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    act(st, "draw gold", st.to_move[0])
    assert not any(f["k"] == "new_exp" for f in st.pending)
    assert sorted(len(e) for e in st.exps) == [2, 3]
