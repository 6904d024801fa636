"""Module 2 (end-game Objectives) and module 6 (Galactic events)."""

from __future__ import annotations

from skydeck.core import Event
from skydeck.games.expedition import galactic, modules
from skydeck.games.expedition.modules_content import default_modules
from tests.games.expedition.helpers import act, at_command, drafted, loc

OBJ = {"modules": ["objectives"]}
EV = {"modules": ["events"]}
MF = default_modules()


def _objective(st, oid: str) -> int:  # type: ignore[no-untyped-def]
    return [o.id for o in MF.objectives.cards].index(oid)


def _event(oid: str) -> int:
    return [e.id for e in MF.events.events].index(oid)


def test_objectives_revealed_at_the_start_of_rounds_two_four_six() -> None:
    st = drafted(2, 1, **OBJ)
    assert st.objs == [] and len(st.obj_deck) == len(MF.objectives.cards)
    seen = []
    for rnd in range(2, 9):
        st.round = rnd
        top = st.obj_deck[-1]
        events: list[Event] = []
        modules.module_round_start(st, events)
        if rnd in (2, 4, 6):
            assert st.objs[-1] == top and any(e.kind == "objective" for e in events)
            seen.append(top)
        assert st.objs == seen
    assert len(st.objs) == 3
    assert [o for o in st.view(0)["modules"]["objectives"]] == [
        MF.objectives.cards[x].id for x in seen
    ]


def _embassies(st, seat: int, n: int) -> None:  # type: ignore[no-untyped-def]
    st.emb[seat] = [0] * len(st.emb[seat])
    for i in range(n):
        st.emb[seat][i] = 1


def test_objective_places_ties_share_and_skip_the_next_place() -> None:
    st = at_command(4, 0, **OBJ)
    st.objs = [_objective(st, "obj_ambassador")]  # Embassies, min 5, 4/2/1 points
    for seat, n in enumerate((7, 7, 6, 5)):
        _embassies(st, seat, n)
    assert [modules.objective_points(st, s) for s in range(4)] == [[4], [4], [1], [0]]
    _embassies(st, 3, 8)
    assert [modules.objective_points(st, s) for s in range(4)] == [[2], [2], [0], [4]]


def test_no_objective_points_without_the_requirement() -> None:
    st = at_command(2, 0, **OBJ)
    st.objs = [_objective(st, "obj_ambassador")]
    _embassies(st, 0, 4)  # the most, but under the minimum of 5
    _embassies(st, 1, 3)
    assert modules.objective_points(st, 0) == [0] and modules.objective_points(st, 1) == [0]


def test_objectives_score_only_at_the_end_of_the_game() -> None:
    st = at_command(2, 0, **OBJ)
    st.objs = [_objective(st, "obj_hoarder")]  # RM + Crystal, min 8
    st.rm[0], st.cr[0] = 12, 3
    before = modules.points(st, 0)
    st.phase = "over"
    assert modules.points(st, 0) == before + 3
    assert st.view(0)["players"][0]["objective_points"] == [3]


def test_galactic_events_revealed_at_the_start_of_rounds_three_and_five() -> None:
    st = drafted(2, 1, **EV)
    for rnd in range(2, 9):
        st.round = rnd
        modules.module_round_start(st, [])
    assert len(st.gevents) == 2
    assert st.ev_pts == [[0, 0], [0, 0]]
    assert len(st.view(1)["modules"]["events"]) == 2


def test_event_points_for_every_player_up_to_the_cap() -> None:
    st = at_command(2, 0, **EV)
    st.gevents = [_event("ev_summit")]  # 1 point per Embassy built, max 3
    st.ev_pts = [[0], [0]]
    start = st.start_of(0)
    here = st.board[st.ship[0]]
    assert here == start
    base_points = modules.points(st, 0)
    for _ in range(2):
        st.rm[0] = 20
        act(st, "build", 0)
    assert st.ev_pts[0] == [2] and modules.points(st, 0) == base_points + 2 + 1  # + 3 Embassies
    galactic.trigger(st, 0, "embassy", "space")
    galactic.trigger(st, 0, "embassy", "space")
    assert st.ev_pts[0] == [3]  # capped
    galactic.trigger(st, 1, "embassy", "fire")
    assert st.ev_pts[1] == [1]  # every player can earn them


def test_event_filters_by_location_type_and_tier() -> None:
    st = at_command(2, 0, **EV)
    st.gevents = [_event("ev_fire_colonies"), _event("ev_gold_rush")]
    st.ev_pts = [[0, 0], [0, 0]]
    galactic.trigger(st, 0, "embassy", "water")
    galactic.trigger(st, 0, "expedition", "silver")
    assert st.ev_pts[0] == [0, 0]
    galactic.trigger(st, 0, "embassy", "fire")
    galactic.trigger(st, 0, "expedition", "gold")
    assert st.ev_pts[0] == [2, 2]


def test_events_count_only_once_revealed() -> None:
    st = at_command(2, 0, **EV)
    assert st.gevents == []
    st.rm[0] = 20
    act(st, "build", 0)
    assert st.ev_pts[0] == [] and modules.points(st, 0) == 0


def test_discovering_a_tile_triggers_cartography() -> None:
    st = at_command(2, 0, **EV)
    st.gevents = [_event("ev_cartography")]
    st.ev_pts = [[0], [0]]
    tile = loc("port_meridian")
    if tile in st.stack:
        st.stack.remove(tile)
    st.stack.append(tile)
    st.inf[0] = 3
    act(st, "scan", 0)
    cell = st.legal_actions(0)[0].args[1]
    act(st, f"place port_meridian {cell}", 0)
    assert st.ev_pts[0] == [1]


def test_arms_race_counts_bought_upgrades_not_free_ones() -> None:
    st = at_command(2, 0, **EV)
    st.gevents = [_event("ev_arms_race")]
    st.ev_pts = [[0], [0]]
    st.rm[0] = 10
    buy = next(a for a in st.legal_actions(0) if a.kind == "buy")
    act(st, str(buy), 0)
    assert st.ev_pts[0] == [1]
    st.pending = [{"k": "take_upgrade", "s": 0}]
    take = next(a for a in st.legal_actions(0) if a.kind == "take")
    act(st, str(take), 0)
    assert st.ev_pts[0] == [1]


def test_sensor_storm_counts_overcome_encounters_only() -> None:
    st = at_command(2, 0, **EV)
    st.gevents = [_event("ev_sensor_storm")]
    st.ev_pts = [[0], [0]]
    card = st.content.encounter_index["enc_01"]  # Officer test
    st.phase = "sensor"
    st.pending = [{"k": "enc", "s": 0, "e": card, "alt": "", "sel": (), "su": ()}]
    act(st, "fail", 0)
    assert st.ev_pts[0] == [0]
    officer = st.content.crew_index["captain_vance"]  # officer, navigator
    if officer not in st.hand[0]:
        st.hand[0].append(officer)
    st.pending = [{"k": "enc", "s": 0, "e": card, "alt": "", "sel": (), "su": ()}]
    act(st, "play captain_vance", 0)
    act(st, "resolve", 0)
    assert st.ev_pts[0] == [1]


def test_reveals_are_announced_after_the_round_event() -> None:
    from skydeck.core import Rng

    st = drafted(2, 3, modules=["objectives", "events"])
    rng = Rng(3)
    kinds: list[str] = []
    while st.round < 6:
        s = rng.choice(st.to_move)
        kinds += [e.kind for e in st.apply(rng.choice(st.legal_actions(s)), s)]
    assert kinds.count("objective") == 3 and kinds.count("galactic_event") == 2  # 2,4,6 / 3,5
    first_obj = kinds.index("objective")
    assert kinds[first_obj - 1] == "round"
