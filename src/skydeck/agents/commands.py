"""CLI subcommands of the agents: ``skydeck agents`` and ``skydeck tournament``.

The main CLI calls :func:`register` with its subparsers when this module exists.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from skydeck.registry import game_ids


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("agents", help="list the AI agents and the games they play")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_agents)

    p = subparsers.add_parser(
        "tournament",
        help="play agents against each other, seats rotated; win rates, 95%% CIs, Elo",
    )
    p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(game_ids()))
    p.add_argument("--agents", required=True, help="comma-separated specs, e.g. mcts:hard,random")
    p.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    p.add_argument("--players", type=int, help="seats per match (default: the game's first)")
    p.add_argument("--jobs", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--matches", action="store_true", help="with --json: every match too")
    p.set_defaults(func=cmd_tournament)


def cmd_agents(args: argparse.Namespace) -> int:
    from skydeck.agents import agents

    infos = agents()
    if args.json:
        print(json.dumps([i.to_json() for i in infos], indent=1))
        return 0
    table = Table(
        title="Skydeck agents",
        header_style="bold",
        caption="also policy:PATH, a model trained by `skydeck train` for one game and "
        "option set (docs/rl.md)",
    )
    table.add_column("spec", style="cyan")
    table.add_column("what")
    table.add_column("games")
    for info in infos:
        table.add_row(info.spec, info.summary, ", ".join(info.games) or "-")
    Console().print(table)
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from skydeck.sim.plan import parse_options
    from skydeck.sim.report import render, show
    from skydeck.sim.tournament import run_tournament

    err = Console(stderr=True)
    try:
        options = parse_options(args.set)
        if args.players is not None:
            options["players"] = args.players
        specs = [s.strip() for s in args.agents.split(",") if s.strip()]
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, got {args.jobs}")
        report = run_tournament(
            args.game, specs, args.games, options, jobs=args.jobs, seed=args.seed
        )
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        return 2
    if args.json:
        json.dump(report.to_json(with_matches=args.matches), sys.stdout, indent=1)
        print()
    else:
        show(render(report))
    return 0
