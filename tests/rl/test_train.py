"""`skydeck train` end to end on a few hundred steps (the pipeline, not the strength), the
``policy:PATH`` agent, the shaping's promise, and the lobby's models folder."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import skydeck
import skydeck.rl
from skydeck.agents import make, parse_spec
from skydeck.agents.model_file import META_NAME, read_meta
from skydeck.cli import main
from skydeck.games.stellarion.ai.heuristic import position_value as stellarion_value
from skydeck.games.stellarion.shaping import progress as stellarion_progress
from skydeck.rl.train import Curve, Shaped, TrainConfig, train


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("train") / "model.zip"
    config = TrainConfig(steps=256, envs=2, n_steps=64, batch_size=64, epochs=1, seed=3)
    meta = train(config, out, progress=False)
    assert meta["trained_steps"] >= 256
    return out


def test_train_writes_a_model_with_its_metadata_and_a_learning_curve(model: Path):
    with zipfile.ZipFile(model) as z:
        names = set(z.namelist())
    assert {"policy.pth", "data", META_NAME} <= names
    meta = read_meta(model)
    game = skydeck.load("stellarion")
    assert meta["game"] == "stellarion" and meta["options"] == game.options
    env = skydeck.rl.gym_env("stellarion")
    assert meta["actions"] == env.action_space.n
    assert meta["observation"] == env.observation_space.shape[0]
    png = model.with_suffix(".png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    curve = json.loads(png.with_suffix(".json").read_text())
    assert len(curve["steps"]) == len(curve["wins"]) == len(curve["progress"]) == meta["episodes"]
    assert meta["episodes"] >= 1  # 256 steps hold at least one ~85-step solo game
    assert all(w in (0, 1) for w in curve["wins"])


def test_policy_agent_plays_only_legal_actions_from_the_view(model: Path):
    game = skydeck.load("stellarion")
    agent = make(f"policy:{model}", game, seed=0)
    state = game.new(11)
    moves = 0
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = agent.choose(state.view(seat), legal, seat)
        assert action in legal
        state.apply(action, seat)
        moves += 1
    assert moves > 10


def test_policy_agent_is_deterministic(model: Path):
    game = skydeck.load("stellarion")
    a, b = make(f"policy:{model}", game, seed=0), make(f"policy:{model}", game, seed=9)
    state = game.new(5)
    for _ in range(15):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        x = a.choose(state.view(seat), legal, seat)
        assert x == b.choose(state.view(seat), legal, seat)
        state.apply(x, seat)


def test_policy_plays_in_a_tournament_from_the_cli(model: Path, capsys):
    code = main(
        ["tournament", "stellarion", "--agents", f"policy:{model}", "--players", "1",
         "--games", "2", "--seed", "1000", "--json"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["standings"][0]["agent"] == f"policy:{model}"
    assert result["standings"][0]["seats"] == 2


def test_policy_spec_keeps_colons_in_the_path():
    spec = parse_spec("policy:/models/a:b/model.zip")
    assert spec.name == "policy" and spec.params["path"] == "/models/a:b/model.zip"
    assert str(spec) == "policy:/models/a:b/model.zip"
    with pytest.raises(ValueError, match="needs a model file"):
        parse_spec("policy:")


def test_policy_refuses_a_missing_file_a_foreign_zip_and_other_options(model: Path, tmp_path):
    game = skydeck.load("stellarion")
    with pytest.raises(ValueError, match="no model file"):
        make(f"policy:{tmp_path / 'nope.zip'}", game)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("data", "{}")
    with pytest.raises(ValueError, match="not a Skydeck model"):
        make(f"policy:{other}", game)
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    with pytest.raises(ValueError, match="not a model zip"):
        make(f"policy:{junk}", game)
    with pytest.raises(ValueError, match="trained with options"):
        make(f"policy:{model}", skydeck.load("stellarion", shooting_stars=2))
    with pytest.raises(ValueError, match="trained for 'stellarion', not 'stellium'"):
        make(f"policy:{model}", skydeck.load("stellium"))


def test_train_cli_refuses_bad_input_with_one_line(tmp_path, capsys):
    out = tmp_path / "m.zip"
    assert main(["train", "nosuchgame", "--steps", "10", "--out", str(out)]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err
    assert main(["train", "stellarion", "--steps", "0", "--out", str(out)]) == 2
    assert "must be positive" in capsys.readouterr().err
    assert main(["train", "stellarion", "--steps", "10", "--set", "colour=red",
                 "--out", str(out)]) == 2
    assert "colour" in capsys.readouterr().err
    assert not out.exists()


def _random_episode(env: Shaped, seed: int) -> tuple[float, dict]:  # type: ignore[type-arg]
    """Random legal moves to the end: (sum of the shaped rewards, the last info)."""
    rng = np.random.default_rng(seed)
    total, done, info = 0.0, False, {}
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        total += reward
        done = term or trunc
    return total, info


def test_shaping_telescopes_and_the_outcome_is_the_unshaped_reward():
    """Potential-based: the shaped rewards of an episode add up to the outcome plus
    shaping x (final progress - initial progress), whatever the policy."""
    env = Shaped(skydeck.rl.gym_env("stellarion"), shaping=2.0)
    env.reset(seed=4)
    start = stellarion_progress(env.unwrapped.match.live)
    total, info = _random_episode(env, 4)
    assert info["outcome"] in (1.0, -1.0)
    assert info["progress"] == stellarion_progress(env.unwrapped.match.live)
    assert total == pytest.approx(info["outcome"] + 2.0 * (info["progress"] - start))


def test_stellarion_progress_counts_voyages_taken():
    state = skydeck.load("stellarion").new(0)
    assert stellarion_progress(state) == 0.0
    s = state
    voyage = s.columns[0].pop()
    s.piles[0].append(voyage)
    total = sum(len(c) for c in s.columns) + 1
    assert stellarion_progress(s) == pytest.approx(1 / total)


def test_curve_rolling_window():
    curve = Curve(steps=[10, 20, 30, 40], wins=[0, 1, 1, 0], progress=[0.0, 1.0, 1.0, 0.5])
    x, win, prog = curve.rolling(2)
    assert list(x) == [10, 20, 30, 40]
    assert list(win) == [0.0, 0.5, 1.0, 0.5]
    assert list(prog) == [0.0, 0.5, 1.0, 0.75]


def test_lobby_offers_models_of_its_folder_and_refuses_paths(model: Path, tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from skydeck.server import create_app

    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "solo.zip").write_bytes(model.read_bytes())
    (folder / "broken.zip").write_text("junk")
    monkeypatch.setenv("SKYDECK_MODELS", str(folder))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'lobby.sqlite'}", ai_delay=0.0)) as client:
        _lobby_checks(client, model)


def _lobby_checks(client, model: Path) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert "policy:solo.zip" in games["stellarion"]["agents"]
    assert not any(a.startswith("policy:") for a in games["stellium"]["agents"])
    seats = [{"kind": "ai", "agent": "policy:solo.zip"}]
    r = client.post("/api/matches", json={"game": "stellarion", "seed": 3, "seats": seats})
    assert r.status_code == 201, r.text
    for bad, words in [
        (f"policy:{model}", "no such model in this server's models folder"),
        ("policy:../solo.zip", "no such model in this server's models folder"),
        ("policy:missing.zip", "no such model in this server's models folder"),
        ("policy:broken.zip", "no such model in this server's models folder"),
    ]:
        seats = [{"kind": "ai", "agent": bad}]
        r = client.post("/api/matches", json={"game": "stellarion", "seats": seats})
        assert r.status_code == 400 and words in r.json()["detail"], (bad, r.text)


def test_resume_continues_the_saved_model_and_its_curve(tmp_path):
    out = tmp_path / "r.zip"
    small = {"envs": 1, "n_steps": 64, "batch_size": 64, "epochs": 1, "seed": 1}
    first = train(TrainConfig(steps=128, **small), out, progress=False, checkpoint=64)
    assert first["trained_steps"] == 128 and not out.with_name("r.zip.part.zip").exists()
    episodes = first["episodes"]
    again = train(TrainConfig(steps=256, **small), out, progress=False, resume=True)
    assert again["trained_steps"] == 256
    assert again["episodes"] >= episodes
    assert again["train_cpu_s"] >= first["train_cpu_s"]
    curve = json.loads(out.with_suffix(".json").read_text())
    assert len(curve["steps"]) == again["episodes"]
    with pytest.raises(ValueError, match="--resume"):
        train(TrainConfig(steps=300, options={"shooting_stars": 2}, **small), out,
              progress=False, resume=True)


def test_imitation_clones_the_heuristic_before_ppo(tmp_path):
    """Behaviour cloning: the demonstrated choices get likelier over the epochs, and the
    metadata says what was cloned."""
    config = TrainConfig(steps=64, envs=1, n_steps=64, batch_size=64, epochs=1,
                         imitate_games=2, imitate_epochs=8)
    meta = train(config, tmp_path / "bc.zip", progress=False)
    bc = meta["imitation"]
    assert bc["agent"] == "heuristic" and bc["games"] == 2 and bc["decisions"] > 20
    assert bc["nll_last"] < bc["nll_first"]
    assert 0.0 <= bc["agreement"] <= 1.0
    assert read_meta(tmp_path / "bc.zip")["imitation"] == bc


def test_collect_records_legal_choices_and_discounted_returns():
    from skydeck.rl.imitation import collect
    from skydeck.rl.train import make_env

    env = make_env(TrainConfig(), 0)()
    demos = collect(env, make("random", env.inner.match.game, seed=1), 2, 7, gamma=0.9)
    assert len(demos.obs) == len(demos.masks) == len(demos.actions) == len(demos.returns)
    assert all(demos.masks[i, a] for i, a in enumerate(demos.actions))  # every choice legal
    assert demos.wins == 0  # random play does not win solo Stellarion
    # the last decision of each episode returns its own reward: -1 plus the shaping step
    assert demos.returns.min() < -0.5


def test_heuristic_potential_telescopes_and_leaves_the_state_alone():
    env = Shaped(skydeck.rl.gym_env("stellarion"), shaping=0.5, potential="heuristic")
    env.reset(seed=6)
    live = env.unwrapped.match.live
    start = stellarion_value(live)
    total, info = _random_episode(env, 6)
    final = env.unwrapped.match.live
    outcome = final.outcome
    end = stellarion_value(final)
    assert final.outcome == outcome != 0  # valuing the position did not touch the result
    assert abs(end) < 100  # the position's worth, not the heuristic's 1e6 for a result
    assert total == pytest.approx(info["outcome"] + 0.5 * (end - start))
    with pytest.raises(ValueError, match="unknown potential"):
        Shaped(skydeck.rl.gym_env("stellarion"), shaping=1.0, potential="luck")


def test_the_agents_list_tells_of_policy_agents(capsys):
    assert main(["agents"]) == 0
    assert "policy:PATH" in capsys.readouterr().out


@pytest.fixture(scope="module")
def demos_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two heuristic games saved by a clone-only run (``steps=0``)."""
    path = tmp_path_factory.mktemp("demos") / "heuristic.npz"
    config = TrainConfig(steps=0, envs=1, imitate_games=2, imitate_epochs=1,
                         imitate_data=str(path))
    meta = train(config, path.with_name("clone.zip"), progress=False)
    assert meta["trained_steps"] == 0 and meta["imitation"]["games"] == 2
    return path


def test_demonstrations_are_saved_reused_and_extended(demos_file: Path, tmp_path):
    from skydeck.rl import imitation

    width = skydeck.rl.gym_env("stellarion").action_space.n
    kept = imitation.load(demos_file, width)
    assert kept.episodes == 2 and set(kept.episode) == {0, 1}
    assert all(kept.masks[i, a] for i, a in enumerate(kept.actions))
    copy = tmp_path / "more.npz"
    copy.write_bytes(demos_file.read_bytes())
    config = TrainConfig(steps=0, envs=1, imitate_games=3, imitate_epochs=1,
                         imitate_data=str(copy))
    meta = train(config, tmp_path / "m.zip", progress=False)
    more = imitation.load(copy, width)
    assert meta["imitation"]["games"] == more.episodes == 3  # one new game, two reused
    assert np.array_equal(more.actions[: len(kept)], kept.actions)
    assert set(more.episode) == {0, 1, 2}
    with pytest.raises(ValueError, match="holds demonstrations for"):
        imitation.load(copy, width + 1)


def test_holdout_keeps_whole_episodes_and_concat_renumbers_them(demos_file: Path):
    from skydeck.rl import imitation

    demos = imitation.load(demos_file)
    both = imitation.concat([demos, demos])
    assert both.episodes == 4 and len(both) == 2 * len(demos)
    assert set(both.episode) == {0, 1, 2, 3}
    held = imitation.holdout(both, 0.5, seed=1)
    assert 0 < held.sum() < len(both)
    for e in range(4):  # an episode is held out whole or not at all
        assert len(set(held[both.episode == e])) == 1
    # appending episodes (DAgger) leaves the earlier ones' draw alone
    many = imitation.Demonstrations(
        demos.obs[:40], demos.masks[:40], demos.actions[:40], demos.returns[:40],
        episodes=40, wins=0, episode=np.arange(40, dtype=np.int32),
    )
    more = imitation.concat([many, many])
    assert np.array_equal(imitation.holdout(more, 0.2, seed=3)[:40],
                          imitation.holdout(many, 0.2, seed=3))


def test_cloning_reports_validation_and_dagger_rounds(demos_file: Path, tmp_path):
    """Clone only (steps 0) from the saved file, one DAgger round of one game played by
    the clone: the round's states join the data, and the held-out figures are reported."""
    config = TrainConfig(steps=0, envs=1, imitate_data=str(demos_file), imitate_epochs=3,
                         imitate_validation=0.5, dagger=1, dagger_games=1, net=(32,))
    meta = train(config, tmp_path / "dagger.zip", progress=False)
    bc = meta["imitation"]
    assert 0.0 <= bc["validation_agreement"] <= 1.0 and 1 <= bc["kept_epoch"] <= 3
    curve = bc["validation_by_epoch"]
    assert len(curve) == 3 and max(curve) == bc["validation_agreement"]
    (round1,) = bc["dagger"]
    assert round1["games"] == 1 and round1["decisions"] > bc["decisions"]
    assert round1["clone_wins"] in (0, 1)
    assert read_meta(tmp_path / "dagger.zip")["config"]["net"] == [32]
    game = skydeck.load("stellarion")
    agent = make(f"policy:{tmp_path / 'dagger.zip'}", game)
    state = game.new(2)
    legal = state.legal_actions(0)
    assert agent.choose(state.view(0), legal, 0) in legal


def test_train_cli_clones_with_a_chosen_network_and_refuses_bad_widths(
    demos_file: Path, tmp_path, capsys
):
    out = tmp_path / "cli.zip"
    args = ["train", "stellarion", "--steps", "0", "--imitate-data", str(demos_file),
            "--imitate-epochs", "2", "--imitate-lr", "3e-3", "--net", "64,32", "--quiet",
            "--dagger", "1", "--dagger-games", "1", "--dagger-epochs", "1",
            "--json", "--out", str(out)]
    assert main(args) == 0
    meta = json.loads(capsys.readouterr().out)
    assert meta["config"]["net"] == [64, 32] and meta["config"]["imitate_lr"] == 3e-3
    assert meta["config"]["dagger_epochs"] == 1 and meta["imitation"]["dagger"][0]["games"] == 1
    assert meta["trained_steps"] == 0 and out.is_file()
    with pytest.raises(SystemExit):
        main(["train", "stellarion", "--net", "wide", "--out", str(out)])
    assert "expected widths like 256,256" in capsys.readouterr().err
    assert main(["train", "stellarion", "--steps", "0", "--out", str(tmp_path / "x.zip")]) == 2
    assert "0 only to clone" in capsys.readouterr().err
    assert main(["train", "stellarion", "--imitate-data", str(tmp_path / "none.npz"),
                 "--steps", "0", "--out", str(tmp_path / "y.zip")]) == 2
    assert "no file" in capsys.readouterr().err
    assert main(["train", "stellarion", "--dagger", "-1", "--out", str(out)]) == 2
