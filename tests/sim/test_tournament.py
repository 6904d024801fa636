"""Tournaments end to end (on Goofspiel, a test game outside the registry) and the CLI."""

from __future__ import annotations

import argparse
import json

import pytest

from skydeck.agents import commands
from skydeck.sim import run_tournament
from skydeck.sim.report import render

GOOF = "tests.agents.goofspiel:Goofspiel"
FAST = "mcts:iterations=40:seconds=0"


def test_tournament_rotates_seats_and_shares_deals() -> None:
    rep = run_tournament(GOOF, [FAST, "random"], 6, seed=3)
    assert [m.seats for m in rep.matches] == [[FAST, "random"], ["random", FAST]] * 3
    assert [m.seed for m in rep.matches] == [3, 3, 4, 4, 5, 5]
    assert sum(s.seats for s in rep.standings) == 12
    for m in rep.matches:
        assert all(t.decisions > 0 for t in m.thinking)


def test_tournament_is_reproducible_and_jobs_do_not_change_results() -> None:
    one = run_tournament(GOOF, [FAST, "random"], 6, seed=1, jobs=1)
    two = run_tournament(GOOF, [FAST, "random"], 6, seed=1, jobs=2)
    strip = [(m.seats, m.scores, m.winners, m.steps) for m in one.matches]
    assert strip == [(m.seats, m.scores, m.winners, m.steps) for m in two.matches]


def test_tournament_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        run_tournament(GOOF, ["nobody"], 2)
    with pytest.raises(ValueError, match="at least 1"):
        run_tournament(GOOF, ["random"], 0)
    with pytest.raises(ValueError, match="cannot load game"):
        run_tournament("no.such.module:Game", ["random"], 1)


def test_report_renders() -> None:
    rep = run_tournament(GOOF, ["random", "random"], 2)
    table = render(rep)
    assert table.row_count == 1  # the same spec twice is one agent


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command", required=True)
    commands.register(sub)
    return p


def test_cli_agents_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["agents", "--json"])
    assert args.func(args) == 0
    rows = json.loads(capsys.readouterr().out)
    specs = [r["spec"] for r in rows]
    assert specs[:2] == ["random", "heuristic"] and "mcts:hard" in specs


def test_cli_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(
        ["tournament", "x", "--agents", f"{FAST},random", "--games", "4", "--json"]
    )
    args.game = GOOF  # the CLI offers registered games only; use the test game here
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and [s["agent"] for s in out["standings"]] == [FAST, "random"]
    assert all(0 <= s["ci95"][0] <= s["win_rate"] <= s["ci95"][1] <= 1 for s in out["standings"])


def test_cli_tournament_bad_agent_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["tournament", "x", "--agents", "wizard", "--games", "1"])
    args.game = GOOF
    assert args.func(args) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_cli_set_reads_lists_as_simulate_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set modules=[player_powers]`` is the spelling docs/journal/2026-12-01-balance.md
    uses with ``skydeck simulate``; the tournament reads it the same way (it used to pass the text
    ``[player_powers]`` to the game, which refused it)."""
    args = parser().parse_args(
        ["tournament", "expedition", "--agents", "random", "--games", "1", "--json",
         "--set", "modules=[player_powers]"]
    )  # fmt: skip
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    args = parser().parse_args(["tournament", "expedition", "--agents", "random", "--set", "bad"])
    assert args.func(args) == 2
    assert "--set expects KEY=VALUE, got 'bad'" in capsys.readouterr().err
