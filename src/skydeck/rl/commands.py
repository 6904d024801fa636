"""CLI subcommand ``skydeck train GAME``: a MaskablePPO policy saved as one zip.

Bad input (an unknown game or option, a non-positive step count, a missing extra) ends
in one red line naming it, exit code 2, and nothing written.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from skydeck.registry import game_ids


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "train",
        help="train a policy (sb3-contrib MaskablePPO) for one seat; play it as policy:PATH",
        description="Train a masked PPO policy on skydeck.rl.gym_env(GAME) (the other seats, "
        "if any, played by --opponents) and save it as one zip, with a learning-curve PNG "
        "beside it. Needs the extra skydeck[train].",
    )
    p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(game_ids()))
    p.add_argument(
        "--steps", type=int, default=200_000,
        help="PPO environment steps (default 200k; 0 with --imitate: clone only)",
    )
    p.add_argument("--out", default="model.zip", help="the model file (default model.zip)")
    p.add_argument("--curve", help="learning-curve PNG (default: the model's name, .png)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--envs", type=int, default=4, help="environments stepped together")
    p.add_argument("--threads", type=int, default=1, help="PyTorch threads (default 1)")
    p.add_argument(
        "--n-steps", type=int, default=256,
        help="steps per environment between PPO updates (default 256; a rollout is "
        "this times --envs)",
    )
    p.add_argument(
        "--shaping", type=float, default=1.0,
        help="weight of the potential-based progress reward (0: outcome only)",
    )
    p.add_argument(
        "--potential", default="progress", choices=["progress", "heuristic"],
        help="the shaping potential: share of the goal done, or the heuristic's position value",
    )
    p.add_argument("--opponents", default="heuristic", help="agent spec for the other seats")
    p.add_argument(
        "--imitate", type=int, default=0, metavar="GAMES",
        help="first clone --imitate-agent's play on GAMES episodes (behaviour cloning), "
        "then train with PPO (default 0: PPO from scratch)",
    )
    p.add_argument("--imitate-agent", default="heuristic", help="the agent to clone")
    p.add_argument("--learning-rate", type=float, default=3e-4, help="PPO's (default 3e-4)")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    p.add_argument("--imitate-epochs", type=int, default=10, help="passes over the clone data")
    p.add_argument(
        "--imitate-data", metavar="FILE",
        help="demonstrations file (.npz): loaded when it exists, extended to --imitate "
        "games and saved, so each heuristic game is played once",
    )
    p.add_argument(
        "--imitate-lr", type=float, default=1e-3, help="cloning's learning rate (default 1e-3)"
    )
    p.add_argument(
        "--dagger", type=int, default=0, metavar="ROUNDS",
        help="after cloning, ROUNDS of DAgger: the clone plays --dagger-games episodes, "
        "the cloned agent labels its states, and the clone is fitted again (default 0)",
    )
    p.add_argument("--dagger-games", type=int, default=100, help="episodes per DAgger round")
    p.add_argument(
        "--dagger-epochs", type=int, default=0,
        help="passes over all the data after each DAgger round (default: --imitate-epochs)",
    )
    p.add_argument(
        "--net", type=_layers, default=(256, 256), metavar="W,W",
        help="hidden layer widths of the policy and of the value network (default 256,256)",
    )
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option")
    p.add_argument(
        "--checkpoint", type=int, default=50_000, metavar="STEPS",
        help="save the model and curve every STEPS steps (default 50k; 0: only at the end)",
    )
    p.add_argument("--resume", action="store_true", help="continue the model at --out")
    s = p.add_argument_group(
        "self-play", "--self-play: PPO against a league of past selves and the game's agents "
        "(competitive games of 2+ players; see docs/rl.md)"
    )
    s.add_argument(
        "--self-play", action="store_true",
        help="train against snapshots of itself (one every --checkpoint steps) and --anchors",
    )
    s.add_argument(
        "--jobs", type=int, default=1,
        help="local worker processes for the environments (same results for any count)",
    )
    s.add_argument(
        "--ray", action="store_true",
        help="run the environments on Ray actors (--jobs of them; same results as --jobs)",
    )
    s.add_argument(
        "--anchors", type=_specs, default=("greedy", "heuristic"), metavar="A,B",
        help="the game's agents kept in the league (default greedy,heuristic)",
    )
    s.add_argument(
        "--anchor-share", type=float, default=0.2,
        help="share of training episodes against an anchor (default 0.2)",
    )
    s.add_argument("--league", type=int, default=8, help="snapshots drawn from (the last N)")
    s.add_argument(
        "--eval-games", type=int, default=20,
        help="evaluation matches per fixed opponent at each checkpoint (default 20)",
    )
    s.add_argument(
        "--eval-opponents", type=_specs, default=("random", "greedy", "heuristic"),
        metavar="A,B", help="the fixed opponents of the rating curve",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the model's metadata as JSON")
    p.set_defaults(func=_cmd_train)


def _layers(text: str) -> tuple[int, ...]:
    """``256,256`` -> (256, 256): positive widths, at least one."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if not widths or min(widths) <= 0:
        raise argparse.ArgumentTypeError(f"expected widths like 256,256, got {text!r}")
    return widths


def _specs(text: str) -> tuple[str, ...]:
    """``greedy,heuristic`` -> ("greedy", "heuristic")."""
    specs = tuple(s.strip() for s in text.split(",") if s.strip())
    if not specs:
        raise argparse.ArgumentTypeError(f"expected specs like greedy,heuristic, got {text!r}")
    return specs


def _cmd_train(args: argparse.Namespace) -> int:
    from skydeck.cli import _parse_set
    from skydeck.rl.selfplay import SelfPlayConfig, self_play
    from skydeck.rl.train import TrainConfig, train

    err = Console(stderr=True)
    try:
        if args.game not in game_ids():
            raise ValueError(f"unknown game {args.game!r}; known games: {', '.join(game_ids())}")
        if args.steps < 0 or min(args.envs, args.threads, args.n_steps) <= 0:
            raise ValueError(
                "--envs, --threads and --n-steps must be positive, --steps not negative"
            )
        if min(args.dagger, args.imitate_epochs, args.dagger_epochs) < 0 or args.dagger_games <= 0:
            raise ValueError("--dagger, --dagger-games and the epochs must not be negative")
        if not args.self_play and (args.jobs != 1 or args.ray):
            raise ValueError("--jobs and --ray run self-play's workers: add --self-play")
        kind = SelfPlayConfig if args.self_play else TrainConfig
        extra: dict[str, Any] = {}
        if args.self_play:
            extra = {
                "jobs": args.jobs, "ray": args.ray, "anchors": args.anchors,
                "anchor_share": args.anchor_share, "league": args.league,
                "eval_games": args.eval_games, "eval_opponents": args.eval_opponents,
            }
        config = kind(
            **extra,
            game=args.game,
            steps=args.steps,
            seed=args.seed,
            envs=args.envs,
            threads=args.threads,
            n_steps=args.n_steps,
            batch_size=min(256, args.n_steps * args.envs),
            shaping=args.shaping,
            potential=args.potential,
            opponents=args.opponents,
            options=_parse_set(args.set),
            imitate_games=args.imitate,
            imitate_agent=args.imitate_agent,
            imitate_epochs=args.imitate_epochs,
            imitate_data=args.imitate_data,
            imitate_lr=args.imitate_lr,
            dagger=args.dagger,
            dagger_games=args.dagger_games,
            dagger_epochs=args.dagger_epochs,
            net=args.net,
            learning_rate=args.learning_rate,
            ent_coef=args.ent_coef,
        )
        run = self_play if isinstance(config, SelfPlayConfig) else train
        meta = run(
            config, args.out, args.curve, progress=not args.quiet,  # type: ignore[arg-type]
            checkpoint=args.checkpoint, resume=args.resume,
        )
    except (ValueError, ImportError) as exc:
        err.print(f"[red]skydeck train: {exc}[/red]", highlight=False)
        return 2
    if args.json:
        print(json.dumps(meta, indent=2))
    else:
        Console().print(
            f"saved {args.out} ({meta['trained_steps']} steps, {meta['episodes']} episodes, "
            f"{meta['train_cpu_s']} CPU s); learning curve {meta['curve_png']}; "
            f"play it with --agents policy:{args.out}",
            highlight=False,
        )
    return 0
