"""CLI subcommand ``skydeck train GAME``: a MaskablePPO policy saved as one zip.

Bad input (an unknown game or option, a non-positive step count, a missing extra) ends
in one red line naming it, exit code 2, and nothing written.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from skydeck.core.registry import game_ids


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "train",
        help="train a policy (sb3-contrib MaskablePPO) for one seat; play it as policy:PATH",
        description="Train a masked PPO policy on skydeck.rl.gym_env(GAME) (the other seats, "
        "if any, played by --opponents) and save it as one zip, with a learning-curve PNG "
        "beside it. Needs the extra skydeck[train].",
    )
    p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(game_ids()))
    p.add_argument("--steps", type=int, default=200_000, help="environment steps (default 200k)")
    p.add_argument("--out", default="model.zip", help="the model file (default model.zip)")
    p.add_argument("--curve", help="learning-curve PNG (default: the model's name, .png)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--envs", type=int, default=4, help="environments stepped together")
    p.add_argument("--threads", type=int, default=1, help="PyTorch threads (default 1)")
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
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option")
    p.add_argument(
        "--checkpoint", type=int, default=50_000, metavar="STEPS",
        help="save the model and curve every STEPS steps (default 50k; 0: only at the end)",
    )
    p.add_argument("--resume", action="store_true", help="continue the model at --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the model's metadata as JSON")
    p.set_defaults(func=_cmd_train)


def _cmd_train(args: argparse.Namespace) -> int:
    from skydeck.cli import _parse_set
    from skydeck.rl.train import TrainConfig, train

    err = Console(stderr=True)
    try:
        if args.game not in game_ids():
            raise ValueError(f"unknown game {args.game!r}; known games: {', '.join(game_ids())}")
        if args.steps <= 0 or args.envs <= 0 or args.threads <= 0:
            raise ValueError("--steps, --envs and --threads must be positive")
        config = TrainConfig(
            game=args.game,
            steps=args.steps,
            seed=args.seed,
            envs=args.envs,
            threads=args.threads,
            shaping=args.shaping,
            potential=args.potential,
            opponents=args.opponents,
            options=_parse_set(args.set),
            imitate_games=args.imitate,
            imitate_agent=args.imitate_agent,
            imitate_epochs=args.imitate_epochs,
            learning_rate=args.learning_rate,
            ent_coef=args.ent_coef,
        )
        meta = train(
            config, args.out, args.curve, progress=not args.quiet,
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
