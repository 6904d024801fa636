"""`skydeck train GAME --self-play`: masked PPO against a league of the learner's past
selves and the game's own agents, rated against fixed opponents as it trains.

Why PPO self-play with a league, not AlphaZero-style search with a network: the machine
here trains on a CPU (2 shared cores), the budget is minutes, and Skydeck's games have
hidden information (Stellium's Mission Reserve, the others' hands), so an AlphaZero
loop would need determinised search in every self-play move (the ``mcts`` agent spends
about 1.5 s a move) before the network learns anything; at that price a short run plays
a few dozen games. PPO plays a move with one forward pass (about a millisecond), reuses
the masked MaskablePPO that ``skydeck train`` already has (the same model zip, played
as ``policy:PATH``), and can start from behaviour cloning of the heuristic
(``imitation.py``), which is what makes a short budget worth spending.

The run: every ``checkpoint`` steps (at a rollout's start, so the weights have seen
every step counted) the model is saved, becomes a new snapshot in the league
(``league.py``), and plays ``eval_games`` evaluation matches against each fixed
opponent (``random``, ``greedy``, ``heuristic``: seats alternated, the same deals at
every checkpoint); those win rates with their Wilson intervals are the learning curve
(PNG, and its figures as JSON beside it). ``resume`` continues from the last checkpoint
to the same final step count. The environments run on ``workers.py``'s backends
(``jobs`` local processes or Ray actors) with the same results for one seed.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import skydeck
from skydeck.rl.league import League, LeagueEnv, label
from skydeck.rl.train import (
    Shaped,
    TrainConfig,
    imitate,
    imitating,
    new_model,
    require_trainer,
    resumed_meta,
    save_with_meta,
    trained_meta,
)
from skydeck.rl.workers import make_vec_env


@dataclass
class SelfPlayConfig(TrainConfig):
    #: the game's agents kept in the league beside the snapshots
    anchors: tuple[str, ...] = ("greedy", "heuristic")
    #: share of training episodes against an anchor (the rest: a snapshot)
    anchor_share: float = 0.2
    #: the last this many snapshots are drawn from
    league: int = 8
    #: evaluation matches per fixed opponent at each checkpoint
    eval_games: int = 20
    eval_opponents: tuple[str, ...] = ("random", "greedy", "heuristic")
    #: the evaluation deals (the same at every checkpoint, apart from training's)
    eval_seed: int = 900_000
    jobs: int = 1
    ray: bool = False


def league_env(fields: dict[str, Any], index: int) -> Any:
    """Environment ``index`` of a run: gym_env, shaping, league; its draws seeded by the
    run's seed, the index and the step the run (re)started at."""
    import skydeck.rl

    anchors = list(fields["anchors"])
    env = skydeck.rl.gym_env(
        fields["game"], opponents=anchors[0] if anchors else "random", **fields["options"]
    )
    shaped = Shaped(env, fields["shaping"], fields["potential"])
    league = League(anchors, fields["anchor_share"], fields["league"])
    rng = np.random.default_rng([fields["seed"], index, fields.get("start", 0)])
    return LeagueEnv(shaped, league, rng)


def eval_match(
    game: str, options: dict[str, Any], model: str, opponent: str, seed: int, index: int
) -> float:
    """The model's points (1 win, 0.5 shared, 0 loss) in tournament match ``index``
    against ``opponent`` (seats alternate with the index, deals shared by pairs)."""
    from skydeck.sim.tournament import Setup, play_one, seat_points

    spec = f"policy:{model}"
    setup = Setup(game, options, [spec, opponent], games=index + 1, seed=seed)
    result = play_one(setup, index)
    mine = [p for s, p in zip(result.seats, seat_points(result, False), strict=True) if s == spec]
    return sum(mine) / len(mine)


def check(config: SelfPlayConfig, checkpoint: int) -> Any:
    """The game, or ValueError naming what cannot self-play."""
    from skydeck.agents import make, support_for

    game = skydeck.load(config.game, **config.options)
    if game.players < 2 or support_for(game).cooperative:
        kind = "solo" if game.players < 2 else "co-operative"
        raise ValueError(
            f"--self-play needs a competitive game of 2 or more players; {game.id} with "
            f"{game.players} player(s) is {kind} (train it with plain `skydeck train`)"
        )
    if config.steps <= 0:
        raise ValueError(f"--steps must be positive with --self-play, got {config.steps}")
    if checkpoint <= 0:
        raise ValueError("--checkpoint must be positive with --self-play (snapshots join there)")
    if config.jobs < 1 or config.envs < 1 or config.eval_games < 0:
        raise ValueError("--jobs and --envs must be positive, --eval-games not negative")
    for spec in (*config.anchors, *config.eval_opponents):
        if spec.startswith("policy:"):
            raise ValueError(f"anchors and evaluation opponents are the game's agents, not {spec}")
        make(spec, game, seed=0)  # a bad spec fails now, naming itself
    League(list(config.anchors), config.anchor_share, config.league)
    return game


def league_folder(out: Path) -> Path:
    """Where the snapshots of the run saved at ``out`` live."""
    return out.with_name(out.stem + ".league")


def self_play(
    config: SelfPlayConfig,
    out: str | Path,
    curve_png: str | Path | None = None,
    progress: bool = True,
    checkpoint: int = 50_000,
    resume: bool = False,
) -> dict[str, Any]:
    """Train by self-play; save ``out``, the league folder beside it, the rating curve
    (PNG and JSON); return the metadata."""
    require_trainer()
    import torch
    from sb3_contrib import MaskablePPO

    game = check(config, checkpoint)
    torch.set_num_threads(config.threads)
    out = Path(out)
    png = Path(curve_png) if curve_png else out.with_suffix(".png")
    record_path = png.with_suffix(".json")
    folder = league_folder(out)
    record: dict[str, Any] = {"evaluations": [], "episodes": [], "league": []}
    spent = [0.0, 0.0]
    imitation: dict[str, Any] | None = None
    start = 0
    if resume:
        meta = resumed_meta(out, game)
        if meta.get("config", {}).get("envs") != config.envs:
            raise ValueError(
                f"--resume: {str(out)!r} ran {meta['config'].get('envs')} "
                f"environments; pass the same --envs"
            )
        if not record_path.is_file():
            raise ValueError(f"--resume: no record {str(record_path)!r} beside the model")
        record = json.loads(record_path.read_text())
        start = int(meta["trained_steps"])
        spent = [float(meta.get("train_wall_s", 0)), float(meta.get("train_cpu_s", 0))]
        imitation = meta.get("imitation")
    elif folder.exists():
        shutil.rmtree(folder)  # a fresh run's league starts empty
    vec = make_vec_env(
        league_env, {**asdict(config), "start": start}, config.envs, config.jobs, config.ray
    )
    clock = (time.perf_counter(), time.process_time())
    try:
        if resume:
            model = MaskablePPO.load(out, env=vec, device="cpu")
            vec.seed(config.seed + 7919 * start)  # a resumed run's deals, still seeded
        else:
            model = new_model(config, vec)

        def meta_now() -> dict[str, Any]:
            return trained_meta(
                config,
                game,
                model,
                opponents="self-play league",
                seat=None,
                space=vec,
                algorithm="sb3-contrib MaskablePPO, self-play against a league",
                episodes=len(record["episodes"]),
                spent=spent,
                clock=clock,
                imitation=imitation,
            )

        def save_model(path: Path) -> dict[str, Any]:
            meta = meta_now()
            save_with_meta(model, path, meta)
            return meta

        def checkpoint_now() -> dict[str, Any]:
            step = int(model.num_timesteps)
            snap = folder / f"step_{step:09d}.zip"
            save_model(snap)
            if str(snap) not in record["league"]:
                record["league"].append(str(snap))
            vec.env_method("set_league", record["league"])
            record["evaluations"].append(evaluate(vec, config, game, snap, step, meta_now()))
            meta = save_model(out)
            record_path.parent.mkdir(parents=True, exist_ok=True)
            record_path.write_text(json.dumps(record))
            plot_rating(record, png, f"self-play MaskablePPO on {game.id} {game.options}")
            return meta

        if not resume:
            if imitating(config):
                imitation = imitate(config, model, game)
            meta = checkpoint_now()  # snapshot 0: the warm start (or the fresh policy)
        else:
            vec.env_method("set_league", record["league"])
        left = config.steps - int(model.num_timesteps)
        if left > 0:
            model.learn(
                total_timesteps=left,
                callback=recorder(model, record, checkpoint, checkpoint_now, config, progress),
                reset_num_timesteps=not resume,
            )
        if not record["evaluations"] or record["evaluations"][-1]["step"] != model.num_timesteps:
            meta = checkpoint_now()
        else:
            meta = save_model(out)
    finally:
        vec.close()
    return {**meta, "curve_png": str(png), "league": folder.name}


def recorder(
    model: Any,
    record: dict[str, Any],
    every: int,
    checkpoint_now: Any,
    config: SelfPlayConfig,
    progress: bool,
) -> Any:
    """The callback: episodes into the record, a checkpoint at the first rollout start
    at or past each multiple of ``every`` steps, and the progress bar."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Record(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.bar: Any = None
            self.next_save = (int(model.num_timesteps) // every + 1) * every

        def _on_training_start(self) -> None:
            if progress:
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

                self.bar = Progress(
                    TextColumn(f"self-play {config.game}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rating]}"),
                )
                self.bar.start()
                self.task = self.bar.add_task(
                    "train",
                    total=config.steps,
                    completed=model.num_timesteps,
                    rating=rating_text(record),
                )

        def _on_rollout_start(self) -> None:
            if self.num_timesteps >= self.next_save:
                self.next_save = (self.num_timesteps // every + 1) * every
                checkpoint_now()
                if self.bar is not None:
                    self.bar.update(self.task, rating=rating_text(record))

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "outcome" in info:
                    record["episodes"].append(
                        [
                            int(self.num_timesteps),
                            float(info["outcome"]),
                            ",".join(info.get("opponents", [])),
                        ]
                    )
            if self.bar is not None:
                self.bar.update(self.task, completed=min(self.num_timesteps, config.steps))
            return True

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.stop()

    return Record()


def evaluate(
    vec: Any, config: SelfPlayConfig, game: Any, snap: Path, step: int, meta: dict[str, Any]
) -> dict[str, Any]:
    """The snapshot's score against each fixed opponent, with 95% Wilson intervals."""
    from skydeck.sim.stats import wilson

    started = time.perf_counter()
    against: dict[str, Any] = {}
    for opponent in config.eval_opponents:
        jobs = [
            (game.id, game.options, str(snap), opponent, config.eval_seed, i)
            for i in range(config.eval_games)
        ]
        points = vec.run(eval_match, jobs) if jobs else []
        low, high = wilson(sum(points), len(points))
        against[opponent] = {
            "games": len(points),
            "points": sum(points),
            "rate": round(sum(points) / len(points), 4) if points else None,
            "low": round(low, 4),
            "high": round(high, 4),
        }
    return {
        "step": step,
        "snapshot": label(f"policy:{snap}"),
        "train_wall_s": meta["train_wall_s"],
        "train_cpu_s": meta["train_cpu_s"],
        "eval_wall_s": round(time.perf_counter() - started, 1),
        "against": against,
    }


def rating_text(record: dict[str, Any]) -> str:
    if not record["evaluations"]:
        return ""
    last = record["evaluations"][-1]["against"]
    return " ".join(f"{k} {100 * v['rate']:.0f}%" for k, v in last.items() if v["rate"] is not None)


def plot_rating(record: dict[str, Any], png: Path, title: str, window: int = 300) -> None:
    """Left: the score against each fixed opponent at every checkpoint, with its 95%
    Wilson band. Right: the rolling training score against each kind of league opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=110)
    evaluations = record["evaluations"]
    steps = [e["step"] for e in evaluations]
    opponents = list(evaluations[0]["against"]) if evaluations else []
    for opp in opponents:
        rows = [e["against"][opp] for e in evaluations]
        rate = [100 * (r["rate"] or 0) for r in rows]
        left.plot(steps, rate, marker="o", label=f"vs {opp} ({rows[-1]['games']} games each)")
        left.fill_between(
            steps, [100 * r["low"] for r in rows], [100 * r["high"] for r in rows], alpha=0.15
        )
    if evaluations:
        wall = evaluations[-1]["train_wall_s"]
        left.set_title(f"evaluation against fixed opponents ({wall:.0f} s of training)", fontsize=9)
    left.set_xlabel("PPO environment steps")
    left.set_ylabel("score %, 95% Wilson interval")
    left.set_ylim(0, 100)
    left.grid(alpha=0.3)
    if opponents:
        left.legend(loc="upper left", fontsize=8)
    kinds: dict[str, tuple[list[int], list[float]]] = {}
    for step, outcome, opponents_text in record["episodes"]:
        kind = "past selves" if opponents_text.startswith("self@") else opponents_text
        xs, ys = kinds.setdefault(kind, ([], []))
        xs.append(step)
        ys.append(1.0 if outcome > 0 else 0.5 if outcome == 0 else 0.0)
    for kind, (xs, ys) in sorted(kinds.items()):
        c = np.concatenate(([0.0], np.cumsum(ys)))
        n = np.arange(1, len(ys) + 1)
        w = np.minimum(n, window)
        right.plot(
            xs,
            100 * (c[n] - c[n - w]) / w,
            marker="." if len(xs) < 30 else None,
            label=f"training vs {kind}",
        )
    right.set_title(f"training episodes (rolling, last {window})", fontsize=9)
    right.set_xlabel("PPO environment steps")
    right.set_ylim(0, 100)
    right.grid(alpha=0.3)
    if kinds:
        right.legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    plt.close(fig)
