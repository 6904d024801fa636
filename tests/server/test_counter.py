"""The boardgame.io anchor's counter as a Skydeck game (``skydeck bench server
--match-game counter``): the anchor's rules, the engine contract, and a bench on it."""

from __future__ import annotations

import pytest

from skydeck import conformance as checks
from skydeck.core import Action, IllegalAction
from skydeck.registry import game_ids
from skydeck.server.counter import INC, MOVES, CounterGame, bench_games


@pytest.mark.parametrize(
    "check",
    [*checks.CONTRACT, checks.check_snapshot_independent, checks.check_public_views],
)
def test_counter_honours_the_engine_contract(check) -> None:
    check(CounterGame(moves=12), 2)


def test_each_move_adds_one_and_passes_the_turn_until_200() -> None:
    s = CounterGame().new(0)
    for k in range(200):
        seat = k % 2
        assert s.to_move == (seat,) and s.legal_actions(1 - seat) == []
        s.apply(INC, seat)
        assert s.view(None)["n"] == k + 1
    assert s.is_over and s.to_move == () and s.winners == ()
    with pytest.raises(IllegalAction):
        s.apply(INC, 0)


def test_a_bad_move_count_is_named() -> None:
    with pytest.raises(ValueError, match="counter: moves must be a whole number of at least 1"):
        CounterGame(moves=0)
    with pytest.raises(IllegalAction):
        CounterGame().new(0).apply(Action("dec"), 0)


def test_only_the_bench_server_knows_the_counter() -> None:
    games, listed = bench_games()
    assert "counter" not in game_ids()  # never in the lobby
    assert "counter" in listed() and games("counter") is CounterGame
    assert set(game_ids()) <= set(listed())


def test_bench_server_plays_the_counter() -> None:
    from skydeck.server.bench import run_bench

    result = run_bench("counter", matches=2, seconds=4)
    assert result["game"] == "counter" and result["moves"] > 0 and result["errors"] == 0
    with pytest.raises(ValueError, match="single bench server"):
        run_bench("counter", workers=2)


def test_bench_once_times_every_move_of_each_match_and_no_set_up() -> None:
    """``--once`` (the anchor's method): each match is created and connected before the
    clock starts and is played to its end exactly once, so the moves timed are exactly
    the matches' moves (the anchor's 200 each) and every match finishes."""
    from skydeck.server.bench import run_bench

    result = run_bench("counter", matches=3, seconds=60, once=True)
    assert result["method"].startswith("once")
    assert result["moves"] == 3 * MOVES and result["finished_games"] == 3
    assert result["errors"] == 0 and 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["server_cpu_ms_per_move"] > 0
    continuous = run_bench("counter", matches=1, seconds=2)
    assert continuous["method"].startswith("continuous")
