"""Rules fidelity round (issue 13, Stellar Expedition items 1-9): each test builds the
situation a rulebook line describes and failed on the engine before the fix."""

from __future__ import annotations

from skydeck.core import Event
from skydeck.games.expedition import command, flow
from skydeck.games.expedition.state import ExpeditionState
from tests.games.expedition.helpers import (
    act,
    at_command,
    empty_neighbour,
    fx,
    loc,
    put,
    run_fx,
    texts,
)


def edda_at_command(seat: int = 0) -> ExpeditionState:
    """Round 1, Command phase; seat 0 plays the Sky-Lords of Edda."""
    return at_command(2, seat=seat, factions=["edda", "unec"])


def stand_on(st: ExpeditionState, seat: int, name: str) -> int:
    """Put Location ``name`` next to the seat's ship and the ship on it."""
    cell = put(st, loc(name), empty_neighbour(st, st.ship[seat]))
    st.ship[seat] = cell
    return cell


# --- 1. the third Embassy doubles from the next round -------------------------------------
def third_embassy_built(round_: int = 4) -> ExpeditionState:
    st = at_command()
    st.round = round_
    stand_on(st, 0, "deepwell")  # produces 2 RM + 1 Crystal
    dw = loc("deepwell")
    st.owner[dw] = 0
    st.emb[0][dw] = 2
    st.tokens[0] = [dw]
    st.rm[0], st.cr[0] = 10, 0
    act(st, "build", 0)  # the third: 6 RM
    assert st.emb[0][dw] == 3
    return st


def test_third_embassy_does_not_double_collecting_in_the_same_round() -> None:
    st = third_embassy_built()
    events = act(st, "collect", 0)
    got = next(e for e in events if e.kind == "collected").data
    assert (got["rm"], got["crystal"]) == (2, 1)  # printed, not doubled yet
    assert (st.rm[0], st.cr[0]) == (4 + 2, 1)


def test_third_embassy_does_not_double_a_remote_collection_that_round() -> None:
    st = third_embassy_built()
    st.ship[0] = st.grid.gate  # away from Deepwell: Subspace gateway / collect_remote
    run_fx(st, 0, fx("collect_remote"))
    act(st, "collect_at deepwell", 0)
    assert (st.rm[0], st.cr[0]) == (4 + 2, 1)


def test_third_embassy_doubles_in_the_next_round() -> None:
    st = third_embassy_built()
    st.rm[0], st.cr[0] = 0, 0
    st.round = 5
    events: list[Event] = []
    flow.start_round(st, events)  # Production: the ship is on Deepwell
    produced = next(e for e in events if e.kind == "produced" and e.data["seat"] == 0).data
    # the Starting Location's printed production, Deepwell doubled: 4 RM + 2 Crystal
    home = st.content.locations[st.start_of(0)].produce
    assert (st.rm[0], st.cr[0]) == (home.rm + 4, home.crystal + 2)
    assert (produced["rm"], produced["crystal"]) == (home.rm + 4, home.crystal + 2)


# --- 2. no Collection token on a Location that produces nothing ------------------------
def test_collection_tokens_are_not_offered_for_legendary_or_artifact_locations() -> None:
    st = at_command(2, modules=["legendary", "artifacts"])
    content = st.content
    recruits = [i for i, x in enumerate(content.locations) if x.kind == "recruit" and x.level > 0][
        :5
    ]
    barren = [
        next(i for i, x in enumerate(content.locations) if x.kind == kind)
        for kind in ("legendary", "artifact")
    ]
    for i in recruits + barren:
        st.emb[0][i] = 1
    st.round = 2
    frame = flow.produce(st, 0)  # 5 producing Locations for 4 tokens: a choice
    assert frame is not None
    st.pending = [frame]
    offered = {str(a.args[0]) for a in st.legal_actions(0)}
    assert offered == {content.locations[i].id for i in recruits}


# --- 3. the player decides which Embassy gets which discount ---------------------------
def test_terraform_is_not_spent_when_the_exploration_discount_pays_everything() -> None:
    st = edda_at_command()
    stand_on(st, 0, "port_meridian")  # 3 RM; round 1 exploration discount 3
    st.build_bonus[0] = 2  # Terraform used
    st.rm[0] = 5
    assert "build exploration" not in texts(st, 0)  # `build` already keeps Terraform
    act(st, "build", 0)
    assert st.rm[0] == 5 and st.disc_used[0] == 1
    assert st.build_bonus[0] == 2  # kept for a later Embassy this round


def test_terraform_and_the_exploration_discount_can_go_to_different_embassies() -> None:
    st = edda_at_command()
    stand_on(st, 0, "halo_station")  # 4 RM; discount 3 leaves 1, Terraform takes 2
    st.build_bonus[0] = 2
    st.rm[0] = 10
    offered = texts(st, 0)
    assert {"build", "build exploration", "build bonus", "build full"} <= set(offered)
    act(st, "build bonus", 0)  # Terraform here, the exploration discount kept
    assert st.rm[0] == 8 and st.build_bonus[0] == 0 and st.disc_used[0] == 0
    st.ship[0] = st.grid.gate
    stand_on(st, 0, "gearspire")  # 3 RM, the exploration discount now
    act(st, "build", 0)
    assert st.rm[0] == 8 and st.disc_used[0] == 1


def test_build_exploration_keeps_terraform() -> None:
    st = edda_at_command()
    stand_on(st, 0, "halo_station")
    st.build_bonus[0] = 2
    st.rm[0] = 10
    act(st, "build exploration", 0)
    assert st.rm[0] == 9 and st.build_bonus[0] == 2 and st.disc_used[0] == 1


# --- 4. Subspace gateway offers only what can happen -----------------------------------
def test_subspace_gateway_offers_no_teleport_without_collection_tokens() -> None:
    st = edda_at_command()
    assert st.tokens[0] == []
    run_fx(st, 0, *st.t.specials[st.factions[0]][0])  # Subspace gateway
    assert texts(st, 0) == ["option 1"]  # 1 Influence; teleport has nothing to move
    st2 = edda_at_command()
    st2.tokens[0] = [st2.start_of(0)]
    run_fx(st2, 0, *st2.t.specials[st2.factions[0]][0])
    assert texts(st2, 0) == ["option 0", "option 1"]


# --- 9. Production is logged ---------------------------------------------------------------
def test_production_logs_what_each_player_produced() -> None:
    st = at_command()
    st.round = 2
    events: list[Event] = []
    flow.start_round(st, events)
    produced = [e.data for e in events if e.kind == "produced"]
    assert [p["seat"] for p in produced] == [0, 1]
    for p in produced:
        home = st.content.locations[st.start_of(p["seat"])].produce
        assert (p["rm"], p["crystal"]) == (home.rm, home.crystal)
        assert p["locations"] == [st.t.loc_ids[st.start_of(p["seat"])]]


# --- 5. a special action is used once during the round, when the player chooses ---------
def rolled(face: str, factions: list[str] | None = None) -> ExpeditionState:
    """Seat 0's Sensor turn with ``face`` and a blank showing."""
    st = at_command(2, factions=factions or ["unec", "tognath"])
    st.phase = "sensor"
    st.pending = [{"k": "sensor", "s": 0, "d": (face, "blank"), "fu": 0}]
    return st


def test_a_rolled_special_action_waits_for_the_players_moment() -> None:
    st = rolled("special1")  # UNEC: Afterburner
    moves = st.movement(0)
    act(st, "reward special1", 0)
    assert st.movement(0) == moves  # nothing happens by itself
    assert texts(st, 0) == ["special 1", "pass"]  # now, or later this round
    act(st, "pass", 0)
    assert st.ready[0] == [1]
    st.pending, st.phase, st.acted = [], "command", 0
    assert "special 1" in texts(st, 0)
    events = act(st, "special 1", 0)
    assert st.movement(0) == moves + 2 and st.ready[0] == []
    assert "special 1" not in texts(st, 0)  # once
    assert any(e.kind == "special_used" for e in events)


def test_an_unused_special_action_ends_with_the_round() -> None:
    st = rolled("special2")  # UNEC: Long range scan
    act(st, "reward special2", 0)
    act(st, "pass", 0)
    assert st.ready[0] == [2]
    st.round = 2
    flow.start_round(st, [])
    assert st.ready[0] == []


def test_a_special_action_can_be_used_in_an_opponents_command_phase() -> None:
    st = at_command(2, seat=0, factions=["unec", "maheri"])
    st.ready[1] = [1]  # Raiding party rolled by Player 2
    st.rm[0], st.cr[0] = 8, 0  # no Crystals: Player 1 cannot react with a Solo mission
    st.phase, st.acted = "sensor", st.turns  # the last Sensor turn is over
    flow.settle(st, [])  # Player 1's Command phase begins: Player 2 may act in it
    assert st.phase == "command" and st.to_move == (1,)
    assert texts(st, 1) == ["special 1", "pass"]
    act(st, "special 1", 1)
    act(st, "target 0", 1)
    assert st.rm[0] == 6 and st.ready[1] == []
    assert st.to_move == (0,) and not st.pending


# --- 8. Upgrade abilities in the opponents' Command phase ------------------------------
def test_upgrade_abilities_are_offered_in_an_opponents_command_phase() -> None:
    st = at_command(2, seat=0)
    u = st.content.upgrade_index["upgrade_02"]  # ability: extra moves
    st.slots[0] = [u]
    act(st, "end", 0)  # Player 2's Command phase begins
    assert st.to_move == (0,)  # Player 1 may discard an Upgrade for its ability now
    assert texts(st, 0) == ["ability upgrade_02", "pass"]
    assert st.view(1)["pending"] == {"kind": "window", "seat": 0, "during": "command", "of": 1}
    act(st, "ability upgrade_02", 0)
    assert st.slots[0] == [] and u in st.upg_discard
    assert st.to_move == (1,) and not st.pending  # nothing left to use: the window closes


def test_passing_the_window_keeps_the_upgrade() -> None:
    st = at_command(2, seat=0)
    u = st.content.upgrade_index["upgrade_02"]
    st.slots[0] = [u]
    act(st, "end", 0)
    act(st, "pass", 0)
    assert st.slots[0] == [u] and st.to_move == (1,)
    assert "ability upgrade_02" not in texts(st, 1)  # not Player 2's Upgrade


def test_the_terminal_names_special_actions_and_windows() -> None:
    from skydeck.core import Action
    from skydeck.games.expedition.terminal import describe_pending

    st = rolled("special1")
    act(st, "reward special1", 0)
    view = st.view(0)
    describe = st.game.describe
    assert describe(Action("special", (1,)), view) == "use special action 1: Afterburner"
    assert describe(Action("special", (1,))) == "use special action 1"  # a log: no view
    assert "keep it for later" in describe_pending(view["pending"])
    assert describe(Action("pass"), view) == "pass (keep it for later)"
    assert "exploration discount only" in describe(Action("build", ("exploration",)), view)


# --- 6. ships move through empty space --------------------------------------------------
def gap_map() -> tuple[ExpeditionState, int, int]:
    """An empty map but for the gate and two Locations in a line with an empty cell
    between them: A (ship of Player 1) - empty - B. Returns (state, gap, B)."""
    st = at_command()
    g = st.grid
    st.board = [-1] * g.size
    st.board[g.gate] = st.gate_tile
    a, gap, b = (g.index[(0, r)] for r in (2, 3, 4))
    put(st, loc("port_meridian"), a)
    put(st, loc("gearspire"), b)
    st.ship = [a, g.gate]
    return st, gap, b


def test_a_ship_crosses_empty_space_one_movement_per_cell() -> None:
    st, gap, b = gap_map()
    st.moves[0], st.rm[0], st.cr[0] = 1, 0, 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    assert f"move {b}" not in texts(st, 0)  # two cells away: one movement is not enough
    assert f"move {st.grid.gate}" not in texts(st, 0)
    st.moves[0] = 2  # e.g. Afterburner
    st.base_moves[0] = 0  # all the free movement in ``moves``
    assert f"move {b}" in texts(st, 0)
    assert f"move {gap}" not in texts(st, 0)  # a move never ends in empty space
    events = act(st, f"move {b}", 0)
    assert st.ship[0] == b and st.movement(0) == 0
    assert next(e for e in events if e.kind == "moved").data["steps"] == 2


def test_a_warp_jump_pays_for_the_missing_movement() -> None:
    st, _, b = gap_map()
    st.moves[0], st.rm[0], st.cr[0] = 1, 3, 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    offered = texts(st, 0)
    assert f"warp {b} rm" in offered  # one free movement + one Jump for 2 RM
    assert f"warp {b} crystal" not in offered
    act(st, f"warp {b} rm", 0)
    assert st.ship[0] == b and st.rm[0] == 1 and st.movement(0) == 0


def test_warp_jumps_may_be_paid_with_raw_materials_and_crystals_together() -> None:
    """Issue 54, item 10: Warp Jumps are paid "as long as you have enough Raw Materials
    and/or Crystals": two Jumps with 3 RM and 1 Crystal (2 RM for one, the Crystal for
    the other), which neither resource alone pays."""
    st, _, b = gap_map()
    st.moves[0], st.base_moves[0], st.rm[0], st.cr[0] = 0, 0, 3, 1
    offered = texts(st, 0)
    assert f"warp {b} rm" not in offered and f"warp {b} crystal" not in offered
    assert f"warp {b} mixed 1" in offered
    act(st, f"warp {b} mixed 1", 0)
    assert st.ship[0] == b and (st.rm[0], st.cr[0]) == (1, 0)
    st, _, b = gap_map()
    st.moves[0], st.base_moves[0], st.rm[0], st.cr[0] = 0, 0, 2, 5
    offered = texts(st, 0)  # every split the purse allows, none it does not
    assert {f"warp {b} crystal", f"warp {b} mixed 1"} <= set(offered)
    assert f"warp {b} rm" not in offered and f"warp {b} mixed 2" not in offered


def test_asteroid_belts_still_block_a_path_through_space() -> None:
    st, gap, b = gap_map()
    put(st, st.n_locations + [x.kind for x in st.content.anomalies].index("asteroid"), gap)
    st.moves[0], st.rm[0], st.cr[0] = 2, 0, 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    assert f"move {b}" not in texts(st, 0)  # around the belt it is 3 cells
    st.moves[0] = 3
    st.base_moves[0] = 0  # all the free movement in ``moves``
    assert f"move {b}" in texts(st, 0)


# --- 7. each player places their Starting tile next to the gate --------------------------
def test_players_place_their_starting_tiles_one_by_one_where_they_choose() -> None:
    from tests.games.expedition.helpers import game

    st = game(2).new(4)
    g = st.grid
    ring = set(g.neighbours[g.gate])
    assert st.phase == "start" and st.to_move == (0,)
    offered = [int(a.args[0]) for a in st.legal_actions(0)]  # type: ignore[arg-type]
    assert set(offered) == ring and len(offered) == 6
    assert st.legal_actions(1) == []  # one by one
    choice = offered[-1]  # not the usual layout's cell
    assert "your Starting tile" in st.game.describe(st.legal_actions(0)[0], st.view(0))
    events = act(st, f"start {choice}", 0)
    assert st.ship[0] == choice and st.board[choice] == st.start_of(0)
    assert any(e.kind == "start_tile" for e in events)
    assert st.to_move == (1,)
    assert f"start {choice}" not in texts(st, 1)  # the cell is taken
    other = next(c for c in sorted(ring) if c != choice)
    act(st, f"start {other}", 1)
    assert st.ship[1] == other and st.board[other] == st.start_of(1)
    assert st.phase == "draft"


def test_the_solo_player_also_places_the_drones_starting_tile() -> None:
    from tests.games.expedition.helpers import game

    st = game(1, solo_rank="commander").new(2)
    g = st.grid
    cells = sorted(g.neighbours[g.gate])
    act(st, f"start {cells[2]}", 0)
    assert st.phase == "start" and st.to_move == (0,)  # now the drone's tile
    act(st, f"start {cells[3]}", 0)
    assert st.d_ship == cells[3] and st.board[cells[3]] == st.owner.index(1)
    assert st.phase == "draft"


def test_moves_along_random_games_end_on_tiles_and_cost_their_cells() -> None:
    """Every move ends on a passable tile, spends one movement per cell of the shortest
    path, and a warp pays exactly the Jumps beyond the free movement."""
    from skydeck.core import Rng
    from tests.games.expedition.helpers import fresh

    for seed in range(3):
        st = fresh(2 + seed, seed)
        rng = Rng(seed)
        while not st.is_over:
            s = rng.choice(st.to_move)
            a = rng.choice(st.legal_actions(s))
            if a.kind in ("move", "warp"):
                cell = int(a.args[0])  # type: ignore[arg-type]
                d = command.reach(st, s, st.grid.size)[cell]
                free, rm, cr = st.movement(s), st.rm[s], st.cr[s]
                st.apply(a, s)
                assert st.ship[s] == cell and st.passable(cell)
                if a.kind == "move":  # (the base game: no Hazard rolls on landing)
                    assert d <= free and st.movement(s) == free - d
                    assert (st.rm[s], st.cr[s]) == (rm, cr)
                else:
                    paid = (rm - st.rm[s]) / 2 + (cr - st.cr[s])  # 2 RM or 1 Crystal a Jump
                    assert d > free and paid == d - free and st.movement(s) == 0
                    if a.args[1] == "mixed":
                        assert cr - st.cr[s] == a.args[2] and st.rm[s] < rm
            else:
                st.apply(a, s)
