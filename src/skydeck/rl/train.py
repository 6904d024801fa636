"""`skydeck train GAME`: a masked PPO policy for one seat, saved as one ``model.zip``.

Why sb3-contrib's ``MaskablePPO``: it is maintained beside Stable-Baselines3, takes the
legal-action mask from ``env.action_masks()`` exactly as ``gym_env`` offers it (so the
policy never spends probability on illegal actions, which matters with 3,764 indexes of
which ~10 are legal), trains on the CPU, and saves the policy as one zip that
``policy:PATH`` loads back. A home-made trainer would re-implement the same clipped
objective, advantage estimation and masking with more room for mistakes.

The learner plays ``gym_env(game, **options)``. Solo Stellarion pays only at the end
(win 1, loss -1), which a fresh policy almost never reaches (random play wins none of
~200 deals), so the training reward adds potential-based shaping (Ng, Harada and Russell
1999): ``shaping * (progress(s') - progress(s))``, where progress is the share of the
Voyages taken. Potential-based terms telescope over an episode, so the best policy is
the same with or without them; the reported win rates never include them.

The zip gets one more member, ``skydeck.json`` (game, options, sizes, training figures),
which Stable-Baselines3 ignores and ``policy:PATH`` checks before it plays.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

import skydeck
from skydeck.agents.model_file import META_NAME, read_meta, require_trainer
from skydeck.core.capabilities import Capabilities, resolve
from skydeck.core.game import State

if TYPE_CHECKING:
    from skydeck.rl.imitation import Demonstrations

# --- shaping -----------------------------------------------------------------------
#: Potentials by name, each a game's declared measure: ``progress`` (share of the goal
#: done) and ``heuristic`` (the game's heuristic position value).
POTENTIALS: dict[str, Callable[[Capabilities], Callable[[State], float] | None]] = {
    "progress": lambda c: c.progress,
    "heuristic": lambda c: None if c.value is None else resolve(c.value),
}


class Shaped(gymnasium.Wrapper):
    """Adds ``shaping * (progress after - progress before)`` to the reward and puts the
    true outcome and the progress in ``info`` at an episode's end (the learning curve
    reads those, never the shaped reward)."""

    def __init__(self, env: Any, shaping: float, potential: str = "progress") -> None:
        super().__init__(env)
        self.shaping = shaping
        self.inner: Any = env.unwrapped  # the SkydeckGym
        capabilities = self.inner.match.game.capabilities
        if potential not in POTENTIALS:
            raise ValueError(
                f"unknown potential {potential!r}; choose one of {', '.join(POTENTIALS)}"
            )
        self.potential = POTENTIALS[potential](capabilities)
        self.progress = capabilities.progress
        self._last = 0.0

    def _now(self) -> float:
        if self.potential is None:
            return 0.0
        return self.potential(self.inner.match.live)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self._last = self._now()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        now = self._now()
        shaped = float(reward) + self.shaping * (now - self._last)
        self._last = now
        if terminated or truncated:
            done = self.progress(self.inner.match.live) if self.progress else 0.0
            info = {**info, "outcome": float(reward), "progress": done}
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        mask: np.ndarray = self.inner.action_masks()
        return mask


# --- the run -----------------------------------------------------------------------
@dataclass
class TrainConfig:
    game: str = "stellarion"
    steps: int = 200_000
    seed: int = 0
    envs: int = 4
    shaping: float = 1.0
    potential: str = "progress"
    opponents: str = "heuristic"
    threads: int = 1
    n_steps: int = 256  # per environment between updates
    batch_size: int = 256
    epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    ent_coef: float = 0.01
    net: tuple[int, ...] = (256, 256)
    #: behaviour cloning before PPO (``imitation.py``): episodes of this agent's play
    imitate_games: int = 0
    imitate_agent: str = "heuristic"
    imitate_epochs: int = 10
    #: demonstrations file: loaded when it exists, extended to ``imitate_games`` episodes
    imitate_data: str | None = None
    imitate_lr: float = 1e-3
    imitate_batch: int = 256
    #: share of the demonstrated episodes held out to pick the epoch and report agreement
    imitate_validation: float = 0.1
    #: DAgger rounds after cloning, ``dagger_games`` episodes each played by the clone
    dagger: int = 0
    dagger_games: int = 100
    #: passes over all the data after each round (0: ``imitate_epochs``)
    dagger_epochs: int = 0
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Curve:
    """Finished training episodes: the step each ended at, won or not, progress."""

    steps: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)

    def rolling(self, window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(step, win rate, mean progress) of every episode over the last ``window``
        episodes (fewer at the start, so the curve begins at the first episode)."""
        n = len(self.steps)
        if not n:
            return np.zeros(0), np.zeros(0), np.zeros(0)
        w = max(1, window)
        count = np.minimum(np.arange(1, n + 1), w)

        def trailing(values: list[int] | list[float]) -> np.ndarray:
            c = np.concatenate(([0.0], np.cumsum(np.asarray(values, float))))
            ends = np.arange(1, n + 1)
            out: np.ndarray = (c[ends] - c[ends - count]) / count
            return out

        return np.asarray(self.steps), trailing(self.wins), trailing(self.progress)


def make_env(config: TrainConfig, rank: int) -> Callable[[], gymnasium.Env]:
    import skydeck.rl

    def build() -> gymnasium.Env:
        env = skydeck.rl.gym_env(config.game, opponents=config.opponents, **config.options)
        env.reset(seed=config.seed * 1000 + rank)
        return Shaped(env, config.shaping, config.potential)

    return build


def train(
    config: TrainConfig,
    out: str | Path,
    curve_png: str | Path | None = None,
    progress: bool = True,
    checkpoint: int = 50_000,
    resume: bool = False,
) -> dict[str, Any]:
    """Train, save ``out`` (model.zip with ``skydeck.json``) and the learning curve
    (PNG and its figures as JSON beside it); return the metadata. Every ``checkpoint``
    steps the model and curve are saved as they stand (a crash loses at most that);
    ``resume`` continues the model at ``out`` and its curve up to ``config.steps``."""
    require_trainer()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    if config.steps < 0 or (config.steps == 0 and not imitating(config)):
        raise ValueError(f"--steps must be positive (0 only to clone), got {config.steps}")
    torch.set_num_threads(config.threads)
    game = skydeck.load(config.game, **config.options)  # a bad game or option fails now
    out = Path(out)
    png = Path(curve_png) if curve_png else out.with_suffix(".png")
    vec = DummyVecEnv([make_env(config, r) for r in range(config.envs)])
    curve = Curve()
    spent = [0.0, 0.0]  # wall and CPU seconds of earlier runs (resume)
    imitation: dict[str, Any] | None = None  # the cloning's figures (kept by a resume)
    if resume:
        meta = resumed_meta(out, game)
        model = MaskablePPO.load(out, env=vec, device="cpu")
        if png.with_suffix(".json").is_file():
            curve = Curve(**json.loads(png.with_suffix(".json").read_text()))
        spent = [float(meta.get("train_wall_s", 0)), float(meta.get("train_cpu_s", 0))]
        imitation = meta.get("imitation")
    else:
        model = new_model(config, vec)
    env0: Any = vec.envs[0].unwrapped
    clock = (time.perf_counter(), time.process_time())
    if imitating(config) and not resume:
        imitation = imitate(config, model, game)

    def save() -> dict[str, Any]:
        meta = trained_meta(
            config,
            game,
            model,
            opponents=config.opponents if game.players > 1 else None,
            seat=env0.seat,
            space=env0,
            algorithm="sb3-contrib MaskablePPO",
            episodes=len(curve.steps),
            spent=spent,
            clock=clock,
            imitation=imitation,
        )
        save_with_meta(model, out, meta)
        plot_curve(curve, png, f"MaskablePPO on {game.id} {game.options}", imitation=imitation)
        png.with_suffix(".json").write_text(json.dumps(asdict(curve)))
        return meta

    class Record(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.bar: Any = None
            self.next_save = model.num_timesteps + checkpoint

        def _on_training_start(self) -> None:
            if progress:
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TextColumn,
                    TimeRemainingColumn,
                )

                self.bar = Progress(
                    TextColumn("training {task.fields[game]}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("win rate {task.fields[rate]}"),
                    TimeRemainingColumn(),
                )
                self.bar.start()
                self.task = self.bar.add_task(
                    "train",
                    total=config.steps,
                    game=config.game,
                    rate="-",
                    completed=model.num_timesteps,
                )

        def _on_step(self) -> bool:
            ended = False
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "outcome" in info:
                    curve.steps.append(int(self.num_timesteps))
                    curve.wins.append(1 if info["outcome"] > 0 else 0)
                    curve.progress.append(float(info.get("progress", 0.0)))
                    ended = True
            if self.bar is not None:
                fields: dict[str, Any] = {}
                if ended:  # the rate changes only when an episode ends
                    recent = curve.wins[-200:]
                    fields["rate"] = f"{100 * sum(recent) / len(recent):.1f}%"
                self.bar.update(
                    self.task, completed=min(self.num_timesteps, config.steps), **fields
                )
            if checkpoint > 0 and self.num_timesteps >= self.next_save:
                self.next_save += checkpoint
                save()
            return True

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.stop()

    left = config.steps - int(model.num_timesteps)
    if left > 0:
        model.learn(total_timesteps=left, callback=Record(), reset_num_timesteps=not resume)
    meta = save()
    vec.close()
    return {**meta, "curve_png": str(png)}


def resumed_meta(out: Path, game: Any) -> dict[str, Any]:
    """The metadata of the model at ``out`` that ``--resume`` continues; it must have
    been trained for ``game`` with the same options."""
    meta = read_meta(out)
    if meta.get("game") != game.id or meta.get("options") != game.options:
        raise ValueError(
            f"--resume: {str(out)!r} was trained for {meta.get('game')} "
            f"{meta.get('options')}, not {game.id} {game.options}"
        )
    return meta


def trained_meta(
    config: TrainConfig,
    game: Any,
    model: Any,
    *,
    opponents: Any,
    seat: int | None,
    space: Any,
    algorithm: str,
    episodes: int,
    spent: list[float],
    clock: tuple[float, float],
    imitation: dict[str, Any] | None,
) -> dict[str, Any]:
    """What a saved model says of itself (``skydeck.json``), for plain training and
    self-play alike: ``space`` has the action and observation spaces, ``spent`` the
    wall and CPU seconds of earlier runs, ``clock`` this run's start."""
    return {
        "skydeck": skydeck.__version__,
        "game": game.id,
        "options": game.options,
        "opponents": opponents,
        "seat": seat,
        "actions": int(space.action_space.n),
        "observation": int(space.observation_space.shape[0]),
        "algorithm": algorithm,
        "config": {k: v for k, v in asdict(config).items() if k != "options"},
        "trained_steps": int(model.num_timesteps),
        "episodes": episodes,
        "train_wall_s": round(spent[0] + time.perf_counter() - clock[0], 1),
        "train_cpu_s": round(spent[1] + time.process_time() - clock[1], 1),
        "torch_threads": config.threads,
        "imitation": imitation,
    }


def save_with_meta(model: Any, path: Path, meta: dict[str, Any]) -> None:
    """Save ``model`` at ``path`` with ``meta`` inside the zip, written whole beside it
    and then renamed (a crash never leaves half a model at ``path``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part.zip")
    model.save(part)
    with zipfile.ZipFile(part, "a") as z:
        z.writestr(META_NAME, json.dumps(meta, indent=2))
    part.replace(path)


def new_model(config: TrainConfig, vec: Any) -> Any:
    """A fresh masked PPO learner on ``vec`` from a training config's hyper-parameters
    (plain training's or self-play's, which extends it), on the CPU."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net)},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )


def imitating(config: TrainConfig) -> bool:
    """Whether the run clones an agent before PPO."""
    return config.imitate_games > 0 or config.imitate_data is not None


def demonstrations(config: TrainConfig, env: Any, game: Any) -> Demonstrations:
    """The demonstrations to clone: ``imitate_data`` when it exists, extended by newly
    played episodes up to ``imitate_games`` (and saved back), so each heuristic game is
    paid for once."""
    from skydeck.agents import make
    from skydeck.rl import imitation

    path = Path(config.imitate_data) if config.imitate_data else None
    width = int(env.action_space.n)
    parts = [imitation.load(path, width)] if path is not None and path.is_file() else []
    have = sum(d.episodes for d in parts)
    if config.imitate_games > have:
        agent = make(config.imitate_agent, game, seed=config.seed + have)
        seed = 10**9 + config.seed * 100_000 + have  # deals training does not draw
        parts.append(imitation.collect(env, agent, config.imitate_games - have, seed, config.gamma))
        if path is not None:
            imitation.save(imitation.concat(parts), path)
    if not parts:
        raise ValueError(f"--imitate-data: no file {str(path)!r} and no --imitate games")
    return imitation.concat(parts)


def imitate(config: TrainConfig, model: Any, game: Any) -> dict[str, Any]:
    """Clone ``config.imitate_agent`` into ``model`` (then ``config.dagger`` DAgger
    rounds); the figures go into the model's metadata."""
    from skydeck.agents import make
    from skydeck.rl import imitation

    started = time.process_time()
    env = make_env(config, rank=10_000)()
    demos = demonstrations(config, env, game)
    fit: dict[str, Any] = {
        "epochs": config.imitate_epochs,
        "batch": config.imitate_batch,
        "lr": config.imitate_lr,
        "validation": config.imitate_validation,
        "validation_seed": config.seed,
    }
    figures = imitation.pretrain(model, demos, seed=config.seed, **fit)
    out: dict[str, Any] = {
        "agent": config.imitate_agent,
        "games": demos.episodes,
        "agent_wins": demos.wins,
        "decisions": len(demos),
        "epochs": config.imitate_epochs,
        **_rounded(figures),
    }
    rounds = []
    agent = make(config.imitate_agent, game, seed=config.seed + 7)
    for r in range(config.dagger):
        seed = 2 * 10**9 + config.seed * 100_000 + r * config.dagger_games
        more = imitation.collect(
            env, agent, config.dagger_games, seed, config.gamma, driver=policy_driver(model)
        )
        demos = imitation.concat([demos, more])
        fit["epochs"] = config.dagger_epochs or config.imitate_epochs
        figures = imitation.pretrain(model, demos, seed=config.seed + r + 1, **fit)
        rounds.append(
            {
                "games": more.episodes,
                "clone_wins": more.wins,
                "decisions": len(demos),
                **_rounded(figures),
            }
        )
    if rounds:
        out["dagger"] = rounds
    out["cpu_s"] = round(time.process_time() - started, 1)
    return out


def policy_driver(model: Any) -> Callable[[np.ndarray, np.ndarray], int]:
    """The model's most likely legal index: the clone playing its own DAgger games."""
    import torch

    from skydeck.rl.imitation import masked_logits

    def drive(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            o = torch.as_tensor(obs[None], dtype=torch.float32)
            return int(masked_logits(model.policy, o, torch.as_tensor(mask[None])).argmax(1)[0])

    return drive


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {
        k: [round(x, 4) for x in v] if isinstance(v, list) else round(v, 4)
        for k, v in figures.items()
    }


def plot_curve(
    curve: Curve,
    png: Path,
    title: str,
    window: int = 500,
    imitation: dict[str, Any] | None = None,
) -> None:
    """Rolling win rate and Voyages share over PPO's steps; with cloning, a first panel
    of the held-out agreement over the cloning epochs (DAgger rounds marked)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cloned = cloning_curve(imitation)
    ppo = bool(curve.steps) or not cloned  # a clone-only run has no PPO panel
    panels = int(bool(cloned)) + int(ppo)
    fig, axes = plt.subplots(1, panels, figsize=(4 + 4 * panels, 4.5), dpi=110, squeeze=False)
    if cloned:
        _plot_cloning(axes[0][0], cloned)
    if ppo:
        _plot_ppo(axes[0][-1], curve, window)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    plt.close(fig)


def _plot_ppo(ax: Any, curve: Curve, window: int) -> None:
    x, win, prog = curve.rolling(window)
    ax.plot(x, 100 * win, label=f"win rate, last {min(window, len(curve.steps))} episodes")
    ax.plot(x, 100 * prog, label="share of Voyages taken (same window)", alpha=0.8)
    ax.set_xlabel("PPO environment steps")
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")


def cloning_curve(imitation: dict[str, Any] | None) -> list[tuple[str, list[float], float]]:
    """(stage, held-out agreement by epoch, the clone's win rate in its DAgger games
    or NaN) for cloning and each DAgger round; empty without held-out figures."""
    if not imitation or "validation_by_epoch" not in imitation:
        return []
    stages = [("cloning", imitation["validation_by_epoch"], float("nan"))]
    for r, rnd in enumerate(imitation.get("dagger", []), 1):
        stages.append(
            (f"DAgger {r}", rnd["validation_by_epoch"], rnd["clone_wins"] / max(rnd["games"], 1))
        )
    return stages


def _plot_cloning(ax: Any, stages: list[tuple[str, list[float], float]]) -> None:
    start = 0
    for name, agree, won in stages:
        epochs = list(range(start + 1, start + len(agree) + 1))
        label = name if won != won else f"{name} (clone before it won {100 * won:.0f}%)"
        ax.plot(epochs, [100 * a for a in agree], marker=".", label=label)
        start += len(agree)
    ax.set_xlabel("cloning epochs (all stages in turn)")
    ax.set_ylabel("held-out agreement with the demonstrations, %")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
