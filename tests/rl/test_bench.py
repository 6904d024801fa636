"""``skydeck bench rl GAME`` is wired and prints both figures (a pipeline check; the
figures themselves are in docs/rl.md)."""

from __future__ import annotations

import json

import pytest

from skydeck.cli import main


def test_bench_rl_prints_env_and_engine_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rl", "stellarion", "--seconds", "0.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "stellarion"
    for key in ("engine_us", "env_step_us", "env_observe_us"):
        assert out[key] > 0
    assert out["step_ratio"] == pytest.approx(out["env_step_us"] / out["engine_us"], abs=0.01)


def test_bench_rl_names_a_missing_or_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rl", "chess", "--seconds", "0.1"]) == 2
    assert "bench rl needs a game" in capsys.readouterr().out
    assert main(["bench", "rl", "stellium", "--set", "colour=red", "--seconds", "0.1"]) == 2
    assert "unknown option" in capsys.readouterr().out


def test_bench_rl_reads_set_as_simulate_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``--set modules=[a,b]`` (simulate's spelling) is a list here too; it read as the
    string '[a,b]' and the error line lost it to rich's markup ("got ''")."""
    mods = "modules=[player_powers,objectives]"
    argv = ["bench", "rl", "expedition", "--set", mods, "--seconds", "0.2", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["options"]["modules"] == [
        "player_powers",
        "objectives",
    ]
    bad = ["bench", "rl", "expedition", "--set", "modules=[nowhere]", "--seconds", "0.1"]
    assert main(bad) == 2
    assert "nowhere" in capsys.readouterr().out
    assert main(["bench", "rl", "expedition", "--set", "modules", "--seconds", "0.1"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().out
