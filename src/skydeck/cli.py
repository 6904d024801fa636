"""`skydeck`: play, bench, replay, and the subcommands other parts register
(`serve` from the server, `agents`/`tournament` from the agents)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from skydeck.core.capabilities import resolve
from skydeck.core.record import MatchRecord
from skydeck.registry import game_class, game_ids, game_module, load

PLUGINS = (
    "skydeck.agents.commands",
    "skydeck.server.commands",
    "skydeck.sim.commands",
    "skydeck.rl.commands",
    "skydeck.analysis.commands",
)
#: optional extras: a plugin that needs one that is not installed is left out
OPTIONAL_MODULES = ("gymnasium", "pettingzoo")
#: In ``render --out``: where the step number goes when every step is drawn.
STEP_FIELD = "{step}"


def _parse_set(items: Sequence[str] | None) -> dict[str, Any]:
    """``--set key=value`` options, read as ``skydeck simulate`` reads them."""
    from skydeck.sim.plan import parse_options

    try:
        return parse_options(list(items or []))
    except ValueError as exc:
        raise SystemExit(str(exc)) from None


def _cmd_games(args: argparse.Namespace) -> int:
    console = Console()
    if args.json:
        print(json.dumps([game_class(g).describe_options() for g in game_ids()], indent=1))
        return 0
    table = Table(title="Skydeck games", header_style="bold")
    table.add_column("id", style="cyan")
    table.add_column("title")
    table.add_column("players")
    table.add_column("options")
    for gid in game_ids():
        cls = game_class(gid)
        opts = ", ".join(f"{s.name} (default {s.default!r})" for s in cls.option_specs)
        table.add_row(gid, cls.title, ", ".join(map(str, cls.player_counts)), opts)
    console.print(table)
    return 0


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    from skydeck.terminal import game_terminal

    options: dict[str, Any] = {}
    module = game_terminal(args.game)
    if module is not None and hasattr(module, "options_from_args"):
        options.update(module.options_from_args(args))
    if getattr(args, "players", None) is not None:
        options["players"] = args.players
    options.update(_parse_set(getattr(args, "set", None)))
    return options


def _cmd_play(args: argparse.Namespace) -> int:
    from skydeck.terminal import play

    console = Console()
    try:
        game = load(args.game, **_game_options(args))
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return 2
    ai: dict[int, Any] = {}
    if args.seats:
        kinds = [k.strip() for k in args.seats.split(",")]
        if len(kinds) != game.players:
            console.print(
                f"[red]--seats lists {len(kinds)} seat(s) but the game has {game.players}[/red]"
            )
            return 2
        for seat, kind in enumerate(kinds):
            if kind != "human":
                ai[seat] = _make_agent(kind, game, args.seed + seat)
    for spec in args.ai or []:
        seat_text, _, agent_spec = spec.partition(":")
        try:
            seat = int(seat_text) - 1
        except ValueError:
            raise SystemExit(f"--ai expects SEAT:SPEC (e.g. 2:random), got {spec!r}") from None
        ai[seat] = _make_agent(agent_spec or "random", game, args.seed + seat)
    lines: Iterator[str] = (line for line in sys.stdin)
    match = play(game, args.seed, lines, console, ai)
    if args.save:
        match.record.save(args.save)
        console.print(f"Match record saved to {args.save}")
    return 0


def _make_agent(spec: str, game: Any, seed: int) -> Any:
    """An AI seat's choose() from an agent spec (random, heuristic, mcts:hard ...)."""
    from skydeck.agents import make

    try:
        return make(spec, game, seed=seed).choose
    except ValueError as exc:
        raise SystemExit(f"agent {spec!r}: {exc}") from None


def _cmd_bench(args: argparse.Namespace) -> int:
    from skydeck.bench import bench

    if args.game == "rl":
        from skydeck.rl.bench import command

        return command(args)
    if args.game == "server":
        from skydeck.server.commands import bench_server

        if args.seconds is None:
            # long enough for checkpoints and a stable p99; --once: a cap, the run ends
            # with its last match
            args.seconds = 120.0 if args.once else 15.0
        return bench_server(args)
    if args.seconds is None:
        args.seconds = 3.0

    options = _parse_set(args.set)
    if args.players is not None:
        options["players"] = args.players
    result = bench(args.game, seconds=args.seconds, seed=args.seed, **options)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    console = Console()
    table = Table(title=f"{args.game}: random play on one core", header_style="bold")
    for col in ("games", "steps", "seconds", "steps/s", "games/s", "clone µs"):
        table.add_column(col, justify="right")
    table.add_row(
        str(result.games),
        str(result.steps),
        f"{result.seconds:.2f}",
        f"{result.steps_per_s:,.0f}",
        f"{result.games_per_s:,.1f}",
        f"{result.clone_us:.1f}",
    )
    console.print(table)
    console.print(f"options: {result.options}")
    extra = game_module(args.game, "bench")
    if extra is not None and hasattr(extra, "report"):
        figures = extra.report(args.seconds)
        more = Table(title=f"{args.game}: more figures", header_style="bold")
        more.add_column("measure")
        more.add_column("value", justify="right")
        for key, value in figures.items():
            more.add_row(str(key), str(value))
        console.print(more)
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from pathlib import Path

    console = Console()
    module = game_module(args.game, "svg")
    if module is None or not hasattr(module, "battle_pictures"):
        console.print(f"[red]{args.game} has no pictures to render[/red]")
        return 2
    try:
        record = MatchRecord.load(args.file)
    except (OSError, ValueError) as exc:
        console.print(f"[red]{escape(f'cannot read {args.file}: {exc}')}[/red]")
        return 2
    if record.game != args.game:
        console.print(
            f"[red]{escape(f'{args.file} is a {record.game} match, not {args.game}')}[/red]"
        )
        return 2
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png"):
        console.print(f"[red]--out must end in .svg or .png, got {escape(out.name)}[/red]")
        return 2
    pictures = [svg for _label, svg in module.battle_pictures(record)]
    if not pictures:
        console.print(f"[red]{escape(str(args.file))} holds no table to draw yet[/red]")
        return 2
    if STEP_FIELD in out.name:
        # A pattern: every step, {step} written as 00, 01, ...
        targets = [
            (out.with_name(out.name.replace(STEP_FIELD, f"{i:02d}")), svg)
            for i, svg in enumerate(pictures)
        ]
    else:
        step = len(pictures) - 1 if args.step is None else args.step
        if not 0 <= step < len(pictures):
            console.print(f"[red]--step must be 0-{len(pictures) - 1}, got {args.step}[/red]")
            return 2
        targets = [(out, pictures[step])]
    for path, svg in targets:
        if path.suffix.lower() == ".png":
            path.write_bytes(module.to_png(svg))
        else:
            path.write_text(svg)
        console.print(f"wrote {path}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from skydeck.core import filter_events
    from skydeck.terminal import render_view

    console = Console()
    try:
        if args.match is not None or os.path.isdir(args.file):
            from skydeck.sim.records import load_record

            record = load_record(args.file, args.match)  # a `skydeck simulate` run
        else:
            record = MatchRecord.load(args.file)
    except (OSError, ValueError) as exc:
        console.print(f"[red]{escape(f'cannot read {args.file}: {exc}')}[/red]")
        return 2
    game = record.make_game()
    seat = None if args.seat is None else args.seat - 1
    names = [f"Player {s + 1}" for s in range(game.players)]
    state = None
    try:
        for i, (state, entry, events) in enumerate(record.replay()):
            if entry is not None:
                who = names[entry.seat] if 0 <= entry.seat < len(names) else "?"
                console.print(
                    f"[cyan]{i:4d}[/cyan] {who}: {escape(game.describe(entry.action))}",
                    highlight=False,
                )
                for ev in filter_events(events, seat):  # the web log's sentences
                    text = escape(game.describe_event(ev, names, state))
                    console.print(f"       [dim]{text}[/dim]", highlight=False)
            if args.step:
                console.print(render_view(game, state.view(seat), seat))
                input("-- Enter for the next step --")
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return 2
    assert state is not None
    view_seat = None if not state.is_over else seat
    console.print(render_view(game, state.view(view_seat), view_seat))
    scores = ", ".join(f"{names[i]} {score:g}" for i, score in enumerate(state.scores))
    if not state.is_over:
        result = "not over"
    elif state.winners:
        result = "won by " + " and ".join(names[w] for w in state.winners)
    else:
        result = "nobody won" if game.players > 1 else f"{names[0]} lost"
    console.print(f"scores: {scores}; {result}", highlight=False)
    return 0


def _solvable() -> list[str]:
    """The games that declare a solver (``Capabilities.solver``)."""
    return [g for g in game_ids() if game_class(g).capabilities.solver]


def _cmd_solve(args: argparse.Namespace) -> int:
    """Clairvoyant solver: every card order known, can the deal be won?"""
    solver = game_class(args.game).capabilities.solver
    assert solver is not None  # argparse offers only the games that declare one
    run_command = resolve(solver)
    options = _parse_set(args.set)
    if args.players is not None:
        options["players"] = args.players
    return run_command(options, args.seed, args.budget, args.nodes, args.json, planner=args.planner)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skydeck", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list the games and their options")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("play", help="play a game in the terminal")
    games = p.add_subparsers(dest="game", required=True, metavar="GAME")
    from skydeck.terminal import game_terminal

    for gid in game_ids():
        cls = game_class(gid)
        gp = games.add_parser(gid, help=cls.title)
        gp.add_argument("--players", type=int, help=f"one of {list(cls.player_counts)}")
        gp.add_argument("--seed", type=int, default=0, help="all randomness comes from it")
        gp.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option")
        gp.add_argument("--ai", action="append", metavar="SEAT:SPEC", help="e.g. 2:random")
        gp.add_argument(
            "--seats",
            metavar="LIST",
            help="who plays each seat, e.g. human,heuristic,mcts:easy (humans share the terminal)",
        )
        gp.add_argument("--save", metavar="FILE", help="write the match record here at the end")
        module = game_terminal(gid)
        if module is not None and hasattr(module, "add_arguments"):
            module.add_arguments(gp)
        gp.set_defaults(func=_cmd_play)

    p = sub.add_parser(
        "bench", help="random-play speed of a game on one core, or 'server' (moves/s, latency)"
    )
    p.add_argument("game", choices=[*game_ids(), "server", "rl"])
    p.add_argument("rl_game", nargs="?", metavar="GAME", help="rl: the game whose env to time")
    p.add_argument("--matches", type=int, default=50, help="server: concurrent matches")
    p.add_argument(
        "--match-game",
        default="stellium",
        help="server: the game those matches play (counter: the boardgame.io anchor's own game)",
    )
    p.add_argument("--no-deflate", action="store_true", help="server: no WebSocket compression")
    p.add_argument(
        "--once",
        action="store_true",
        help="server: the boardgame.io anchor's method: create and connect every match "
        "first (not timed), then time only the moves while each plays to its end once "
        "(--seconds: the most to wait)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server: N workers behind HAProxy over PostgreSQL (--db, else a throw-away one)",
    )
    p.add_argument(
        "--no-limits",
        action="store_true",
        help="server: the server's per-client limits off (on by default, at their defaults; "
        "each bot player connects from a loopback address of its own)",
    )
    p.add_argument("--db", help="server: database URL (default: a fresh SQLite file)")
    p.add_argument(
        "--seconds", type=float, help="how long to measure (default: 3 for a game, 15 for server)"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int)
    p.add_argument("--set", action="append", metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("render", help="draw a saved match as pictures (SVG or PNG)")
    p.add_argument("game", choices=game_ids())
    p.add_argument("file", help="a match record (JSON)")
    p.add_argument(
        "--out",
        required=True,
        help="table.svg or table.png: that one picture (the last step, or --step); "
        f"a name with {STEP_FIELD} (table-{STEP_FIELD}.png) writes every step, "
        f"{STEP_FIELD} becoming 00, 01, ... (the table as deployed is 00)",
    )
    p.add_argument(
        "--step", type=int, help="the step to draw into a single picture (0: as deployed)"
    )
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("replay", help="step through a saved match record")
    p.add_argument("file", help="a match record (JSON), or a `skydeck simulate` run folder")
    p.add_argument("--match", type=int, help="with a simulate run: the match_id to replay")
    p.add_argument("--seat", type=int, help="see the match as this seat (1-based)")
    p.add_argument("--step", action="store_true", help="pause after every action")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("solve", help="clairvoyant solver: could this deal have been won?")
    p.add_argument("game", choices=_solvable())
    p.add_argument("--seed", type=int, default=0, help="the deal")
    p.add_argument("--players", type=int)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option")
    p.add_argument("--budget", type=float, default=10.0, help="seconds (default 10)")
    p.add_argument("--nodes", type=int, help="also stop after this many positions")
    p.add_argument(
        "--planner",
        action="store_true",
        help="after the heuristic's line, play one game of lookahead on the true state "
        "(wins many all-four deals the search misses; not counted in --nodes)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_solve)

    for name in PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (name.startswith(exc.name) or exc.name in OPTIONAL_MODULES):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
