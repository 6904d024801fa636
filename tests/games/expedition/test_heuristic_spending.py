"""The heuristic spends only when it pays: each test builds a situation where a Warp Jump,
an Influence re-roll, an Expedition replacement, the 2:1 exchange or Robot
reprogramming pays (the heuristic takes it) and one where it does not (it leaves it)."""

from __future__ import annotations

from typing import Any

from skydeck.core import Action
from skydeck.games.expedition.ai.heuristic import HeuristicAgent
from tests.games.expedition.helpers import (
    at_command,
    crew,
    empty_neighbour,
    exp,
    game,
    loc,
    put,
)


def pick(st: Any, seat: int = 0) -> Action:
    agent = HeuristicAgent(game(st.n), seed=1)
    return agent.choose(st.view(seat), st.legal_actions(seat), seat)


def bare(st: Any, seat: int = 0) -> Any:
    """Nothing else tempting: no crew in hand, no Expeditions, no Influence to spend, no
    Upgrade for sale, and the Starting Location full (no Embassy to build at home)."""
    st.emb[seat][st.start_of(seat)] = 3
    st.hand[seat] = []
    st.exps[seat] = []
    st.inf[seat] = 0
    st.cr[seat] = 0
    st.store = [-1] * len(st.store)
    return st


# --- Warp Jumps ----------------------------------------------------------------------------


def test_no_warp_jump_when_nothing_waits_at_the_other_end() -> None:
    """The old shuttle: Jumping onto an own Location with an Embassy still to build,
    without the Crystal the third one needs."""
    st = bare(at_command(2))
    st.moves[0] = 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    st.rm[0] = 8
    cell = put(st, loc("ashfall"), empty_neighbour(st, st.ship[0]))
    st.emb[0][loc("ashfall")] = 2  # the third costs 6 RM and 1 Crystal
    st.owner[loc("ashfall")] = 0
    assert any(a.kind == "warp" and a.args[0] == cell for a in st.legal_actions(0))
    assert pick(st).kind == "end"


def test_warp_jump_to_collect_waiting_resources() -> None:
    st = bare(at_command(2))
    st.moves[0] = 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    st.rm[0] = 4
    cell = put(st, loc("grand_exchange"), empty_neighbour(st, st.ship[0]))
    st.emb[0][loc("grand_exchange")] = 1
    st.owner[loc("grand_exchange")] = 0
    st.tokens[0] = [loc("grand_exchange")]  # 4 RM + 2 Crystals waiting
    a = pick(st)
    assert a.kind == "warp" and a.args[0] == cell


def test_warp_jump_to_build_an_embassy_it_can_afford() -> None:
    st = bare(at_command(2))
    st.moves[0] = 0
    st.base_moves[0] = 0  # all the free movement in ``moves``
    st.round, st.disc_used[0] = 4, 0  # no exploration discount
    cell = put(st, loc("port_meridian"), empty_neighbour(st, st.ship[0]))  # 3 RM
    st.rm[0] = 5
    a = pick(st)
    assert a.kind == "warp" and a.args[0] == cell
    st.rm[0] = 4  # after paying 2 for the Jump, 2 left: the Embassy is out of reach
    assert pick(st).kind == "end"


# --- Influence re-rolls ----------------------------------------------------------------------


def sensor(st: Any, a: str, b: str, seat: int = 0) -> Any:
    st.phase, st.acted, st.step = "sensor", seat, 1
    st.pending = [{"k": "sensor", "s": seat, "d": (a, b), "fu": 0}]
    return st


def test_influence_reroll_of_an_unwanted_encounter() -> None:
    st = sensor(bare(at_command(2)), "blank", "encounter")
    st.inf[0] = 2
    assert str(pick(st)) == "reroll 1"


def test_no_influence_reroll_of_good_dice() -> None:
    st = sensor(bare(at_command(2)), "upgrade", "crystal")
    st.inf[0] = 2
    assert pick(st).kind == "reward"


# --- replacing an Expedition -----------------------------------------------------------------


def test_replace_an_expedition_the_crew_cannot_complete() -> None:
    st = bare(at_command(2))
    st.round = 4
    st.inf[0] = 2
    # Deep Excavation: Archaeologist x2, Psychic x2, Navigator; the crew has none
    st.exps[0] = [exp("gold_13")]
    st.hand[0] = [crew("ensign_okoro"), crew("captain_vance")]
    a = pick(st)
    assert a.kind == "replace" and a.args[0] == "gold_13"


def test_keep_an_expedition_the_crew_can_work_towards() -> None:
    st = bare(at_command(2))
    st.round = 4
    st.inf[0] = 2
    st.exps[0] = [exp("bronze_02")]  # Communications x2, Psychic
    st.hand[0] = [crew("cmdr_reyes"), crew("verdant_hollow_1")]  # two of the three
    assert pick(st).kind != "replace"


# --- the 2:1 exchange ------------------------------------------------------------------------


def test_exchange_crystals_to_afford_an_embassy_here() -> None:
    st = bare(at_command(2))
    st.round = 4  # no exploration discount
    cell = put(st, loc("halo_station"), empty_neighbour(st, st.ship[0]))  # 4 RM
    st.ship[0] = cell
    st.rm[0], st.cr[0], st.inf[0] = 3, 4, 1
    assert pick(st).kind == "exchange"
    st.apply(Action("exchange"), 0)
    assert str(pick(st)) == "convert crystal rm"
    st.apply(Action("convert", ("crystal", "rm")), 0)
    assert pick(st).kind == "build"


def test_no_exchange_when_it_buys_nothing() -> None:
    st = bare(at_command(2))
    st.rm[0], st.cr[0], st.inf[0] = 3, 4, 1  # at home, where no Embassy is left to build
    assert "exchange" in [a.kind for a in st.legal_actions(0)]
    assert pick(st).kind != "exchange"


# --- reprogramming a Robot -------------------------------------------------------------------


def test_reprogram_a_robot_to_complete_an_expedition() -> None:
    st = bare(at_command(2))
    st.cr[0] = 2
    st.exps[0] = [exp("bronze_02")]  # Communications x2, Psychic
    st.hand[0] = [crew("cmdr_reyes"), crew("verdant_hollow_1"), crew("gearspire_1")]
    assert str(pick(st)) == "reprogram gearspire_1 communications"
    st.apply(Action("reprogram", ("gearspire_1", "communications")), 0)
    agent = HeuristicAgent(game(2), seed=1)
    for _ in range(5):  # the attempt: the reprogrammed Robot is played for its new skill
        st.apply(agent.choose(st.view(0), st.legal_actions(0), 0), 0)
        if not st.pending:
            break
    assert st.done[0] == [exp("bronze_02")]


def test_no_reprogram_when_no_expedition_needs_it() -> None:
    st = bare(at_command(2))
    st.cr[0] = 2
    st.exps[0] = [exp("bronze_03")]  # two level 1 crew: no skill would help
    st.hand[0] = [crew("gearspire_1")]
    assert pick(st).kind != "reprogram"


# --- over whole games ------------------------------------------------------------------------


def warp_trips(seed: int, players: int = 2) -> tuple[int, int]:
    """Warp Jumps made in a self-play game, and those of trips after which the ship did
    nothing where it stopped (no Embassy, collection or Expedition before its next move
    or the end of its turn)."""
    g = game(players)
    st = g.new(seed)
    agents = [HeuristicAgent(g, seed=seed * 10 + s) for s in range(players)]
    warps = pointless = 0
    trip = [0] * players
    while not st.is_over:
        s = st.to_move[0]
        a = agents[s].choose(st.view(s), st.legal_actions(s), s)
        if a.kind == "warp":
            warps += 1
            trip[s] = max(trip[s], 0) + 1
        elif a.kind in ("move", "wormhole"):
            trip[s] = max(trip[s], 0)
        elif a.kind in ("build", "collect", "expedition"):
            trip[s] = -1
        elif a.kind == "end":
            pointless += max(trip[s], 0)
            trip[s] = 0
        st.apply(a, s)
    return warps, pointless


def test_self_play_makes_few_warp_jumps_and_none_for_nothing() -> None:
    """Before: about 50 Warp Jumps a 2-player game, 35 of them for nothing."""
    for seed in (1, 2, 3):
        warps, pointless = warp_trips(seed)
        assert warps <= 30 and pointless <= 2, (seed, warps, pointless)
