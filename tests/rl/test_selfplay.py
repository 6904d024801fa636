"""`skydeck train GAME --self-play` on budgets of seconds: the pipeline (not the strength),
resume, the league's draws, the same run on processes and on Ray, and bad input."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import skydeck
from skydeck.agents import make
from skydeck.agents.policy import PolicyAgent
from skydeck.cli import main
from skydeck.rl import selfplay
from skydeck.rl.league import League, LeagueEnv, label
from skydeck.rl.selfplay import SelfPlayConfig, league_env, league_folder, self_play
from skydeck.rl.train import read_meta
from skydeck.rl.workers import blocks


def tiny(**changes: Any) -> SelfPlayConfig:
    """Rollouts of 64 steps (2 environments x 32), a 16-wide network, cheap agents."""
    fields: dict[str, Any] = {
        "game": "stellium", "steps": 128, "envs": 2, "n_steps": 32, "batch_size": 64,
        "epochs": 1, "net": (16,), "seed": 5, "anchors": ("greedy",), "anchor_share": 0.3,
        "eval_games": 2, "eval_opponents": ("random",), "options": {"players": 2},
    }
    return SelfPlayConfig(**{**fields, **changes})


def weights(path: Path) -> dict[str, np.ndarray]:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    return {k: v.numpy() for k, v in model.policy.state_dict().items()}


def plays_legal_moves(path: Path) -> None:
    game = skydeck.load("stellium", players=2)
    agent = make(f"policy:{path}", game, seed=0)
    state = game.new(3)
    for _ in range(30):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = agent.choose(state.view(seat), legal, seat)
        assert action in legal
        state.apply(action, seat)


def test_cli_self_play_writes_model_league_and_rating_curve(tmp_path: Path) -> None:
    out = tmp_path / "sp.zip"
    code = main([
        "train", "stellium", "--self-play", "--steps", "256", "--envs", "2", "--n-steps", "32",
        "--net", "16", "--checkpoint", "128", "--anchors", "greedy", "--eval-games", "2",
        "--eval-opponents", "random,greedy", "--out", str(out), "--quiet", "--seed", "2",
    ])
    assert code == 0
    meta = read_meta(out)
    assert meta["game"] == "stellium" and meta["trained_steps"] == 256
    snapshots = sorted(p.name for p in league_folder(out).iterdir())
    assert snapshots == ["step_000000000.zip", "step_000000128.zip", "step_000000256.zip"]
    record = json.loads(out.with_suffix(".json").read_text())
    assert [e["step"] for e in record["evaluations"]] == [0, 128, 256]
    for e in record["evaluations"]:
        assert set(e["against"]) == {"random", "greedy"}
        for rating in e["against"].values():
            assert rating["games"] == 2 and rating["low"] <= rating["rate"] <= rating["high"]
    assert len(record["episodes"]) == meta["episodes"] >= 1
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plays_legal_moves(out)


def test_an_interrupted_run_resumes_to_the_same_steps_and_a_loadable_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole.zip"
    self_play(tiny(steps=256), whole, progress=False, checkpoint=64)
    cut = tmp_path / "cut.zip"
    real_plot = selfplay.plot_rating

    def crash_after_the_checkpoint_at_128(record: dict[str, Any], *args: Any) -> None:
        real_plot(record, *args)
        if record["evaluations"][-1]["step"] >= 128:
            raise KeyboardInterrupt  # killed right after the model and record were saved

    monkeypatch.setattr(selfplay, "plot_rating", crash_after_the_checkpoint_at_128)
    with pytest.raises(KeyboardInterrupt):
        self_play(tiny(steps=256), cut, progress=False, checkpoint=64)
    assert read_meta(cut)["trained_steps"] == 128
    monkeypatch.setattr(selfplay, "plot_rating", real_plot)
    meta = self_play(tiny(steps=256), cut, progress=False, checkpoint=64, resume=True)
    assert meta["trained_steps"] == read_meta(whole)["trained_steps"] == 256
    record = json.loads(cut.with_suffix(".json").read_text())
    assert [e["step"] for e in record["evaluations"]] == [0, 64, 128, 192, 256]
    assert len(record["league"]) == 5 and all(Path(p).is_file() for p in record["league"])
    assert meta["episodes"] == len(record["episodes"])
    plays_legal_moves(cut)


def test_league_draws_anchors_at_their_share_and_only_the_last_snapshots() -> None:
    league = League(["greedy", "heuristic"], anchor_share=0.25, window=2)
    rng = np.random.default_rng(0)
    assert {league.draw(rng) for _ in range(20)} <= {"greedy", "heuristic"}  # no snapshot yet
    league.snapshots = ["/m/step_000000000.zip", "/m/step_000000064.zip", "/m/step_000000128.zip"]
    draws = [league.draw(rng) for _ in range(4000)]
    assert set(draws) == {
        "greedy", "heuristic", "policy:/m/step_000000064.zip", "policy:/m/step_000000128.zip"
    }
    share = sum(d in ("greedy", "heuristic") for d in draws) / len(draws)
    assert 0.22 < share < 0.28
    assert label("policy:/m/step_000000064.zip") == "self@64" and label("greedy") == "greedy"


def test_snapshot_opponents_play_from_their_own_seats_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "snap.zip"
    self_play(tiny(steps=64), out, progress=False, checkpoint=64)
    snapshot = str(league_folder(out) / "step_000000064.zip")
    env = league_env({**vars(tiny(anchor_share=0.0)), "start": 0}, 0)
    assert isinstance(env, LeagueEnv)
    env.set_league([snapshot])
    seen: list[tuple[int, int]] = []
    real_choose = PolicyAgent.choose

    def spy(agent: PolicyAgent, view: Any, legal: Any, seat: int) -> Any:
        state = env.inner.match.live
        assert seat != env.inner.seat  # an opponent's seat, never the learner's
        assert isinstance(view, dict) and view == state.view(seat)  # that seat's view only
        assert legal == state.legal_actions(seat)
        seen.append((seat, len(legal)))
        return real_choose(agent, view, legal, seat)

    monkeypatch.setattr(PolicyAgent, "choose", spy)
    seats = set()
    for episode in range(4):
        env.reset(seed=episode)
        seats.add(env.inner.seat)
        assert env.opponents == {1 - env.inner.seat: f"policy:{snapshot}"}
        agent = env.inner._agents[1 - env.inner.seat]
        assert isinstance(agent, PolicyAgent) and agent.path == snapshot
        done, info = False, {}
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, done, _, info = env.step(int(legal[0]))
        assert info["opponents"] == ["self@64"]
    assert seen and seats == {0, 1}  # the learner plays both seats


def test_blocks_split_the_environments_evenly() -> None:
    assert blocks(5, 2) == [[0, 1, 2], [3, 4]]
    assert blocks(2, 4) == [[0], [1]]
    assert blocks(3, 1) == [[0, 1, 2]]


def run_record(out: Path) -> tuple[Any, ...]:
    record = json.loads(out.with_suffix(".json").read_text())
    evaluations = [(e["step"], e["against"]) for e in record["evaluations"]]
    return read_meta(out)["trained_steps"], record["episodes"], evaluations


@pytest.mark.usefixtures("ray_runtime")
def test_ray_actors_give_the_same_run_as_local_processes(tmp_path: Path) -> None:
    runs = {}
    for name, changes in {"jobs": {"jobs": 2}, "ray": {"jobs": 2, "ray": True},
                          "one": {"jobs": 1}}.items():
        out = tmp_path / name / "m.zip"
        self_play(tiny(**changes), out, progress=False, checkpoint=64)
        runs[name] = out
    assert run_record(runs["jobs"]) == run_record(runs["ray"]) == run_record(runs["one"])
    a, b = weights(runs["jobs"]), weights(runs["ray"])
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    with zipfile.ZipFile(runs["one"]) as z:
        assert "policy.pth" in z.namelist()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "chess", "--self-play"], "unknown game 'chess'"),
        (["train", "stellarion", "--self-play"], "stellarion with 1 player(s) is solo"),
        (["train", "stellarion", "--self-play", "--set", "players=2"],
         "stellarion with 2 player(s) is co-operative"),
        (["train", "stellium", "--jobs", "2"], "--jobs and --ray run self-play's workers"),
        (["train", "stellium", "--self-play", "--checkpoint", "0"],
         "--checkpoint must be positive"),
        (["train", "stellium", "--self-play", "--anchors", "grandmaster"], "grandmaster"),
        (["train", "stellium", "--self-play", "--anchor-share", "1.5"], "--anchor-share"),
    ],
)
def test_bad_self_play_input_is_refused_by_name_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out = tmp_path / "m.zip"
    assert main([*argv, "--out", str(out), "--quiet"]) == 2
    assert message in " ".join(capsys.readouterr().err.split())
    assert list(tmp_path.iterdir()) == []


class _Probe(gymnasium.Env):
    """A one-number environment for the VecEnv's attribute and method calls."""

    observation_space = gymnasium.spaces.Box(0.0, 1.0, (1,), np.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, index: int) -> None:
        self.level = index

    def scaled(self, x: int, factor: int = 1) -> int:
        return self.level * x * factor

    def action_masks(self) -> np.ndarray:
        return np.ones(2, dtype=bool)


def _probe(fields: dict[str, Any], index: int) -> _Probe:
    return _Probe(index)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_workers_vec_env_sets_and_calls_on_chosen_environments(jobs: int) -> None:
    from skydeck.rl.workers import make_vec_env

    vec = make_vec_env(_probe, {}, envs=5, jobs=jobs)
    try:
        assert vec.env_method("scaled", 2) == [0, 2, 4, 6, 8]
        assert vec.env_method("scaled", 2, indices=[4, 1], factor=10) == [80, 20]
        vec.set_attr("level", 7, indices=[0, 3])
        assert vec.get_attr("level") == [7, 1, 2, 7, 4]
        vec.set_attr("level", 1)
        assert vec.env_method("scaled", 3, indices=[2]) == [3]
    finally:
        vec.close()
