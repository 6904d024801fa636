"""CLI subcommands of the study engine: ``skydeck simulate`` and ``skydeck report``.

The main CLI calls :func:`register` with its subparsers. Bad input of any kind ends in
one red line naming it, exit code 2, and nothing written; the line is printed as text
(rich markup escaped), so ``races=[wiss,klingon]`` keeps its value. Ctrl-C ends a run
with one line saying how to resume it, exit code 130.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from skydeck.registry import game_ids


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="play a grid of options x agents x seatings; Parquet tables for study",
        description="Play every combination of the --grid values (each a setting) with the "
        "agents seated in rotation; every setting plays the same deals. Writes Parquet "
        "tables (docs/simulate.md) and compact match records under --out.",
    )
    p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(game_ids()))
    p.add_argument("--agents", required=True, help="comma-separated specs, e.g. heuristic,random")
    p.add_argument("--games", type=int, required=True, help="matches per setting")
    p.add_argument("--players", type=int, help="seats per match (default: the game's first)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an option")
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="an option's values to cross, e.g. scale=dispute,war or races=[wiss,vak],[vak,wiss]",
    )
    p.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, help="local worker processes (default 1)")
    where.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: alone, a local Ray runtime; with ADDRESS, join that cluster",
    )
    p.add_argument("--out", required=True, help="the run folder (created; must be new or empty)")
    p.add_argument("--resume", action="store_true", help="continue the interrupted run in --out")
    p.add_argument("--chunk", type=int, default=None, help="matches per unit of work (default 25)")
    p.add_argument(
        "--max-settings", type=int, default=None, help="refuse grids larger than this (1000)"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--progress-every",
        type=float,
        default=None,
        metavar="SECONDS",
        help="without a terminal: seconds between progress lines (default 5)",
    )
    p.set_defaults(func=cmd_simulate)

    p = subparsers.add_parser(
        "report",
        help="an HTML balance report with plots from a simulate run",
        description="Win rates with 95% intervals by seat, agent, faction, power and "
        "drone rank; scores, lengths, actions, card impact; a summary of what is "
        "significantly unbalanced. Writes one HTML file and a PNG per plot beside it.",
    )
    p.add_argument(
        "run",
        metavar="DIR",
        nargs="+",
        help="a skydeck simulate --out folder; several are pooled into one report "
        "(same game, no deal twice)",
    )
    p.add_argument(
        "--out", default=None, help="the HTML file (default DIR/report.html of the first DIR)"
    )
    p.set_defaults(func=cmd_report)


class RateColumn(ProgressColumn):
    """Games per second over the matches played by this command."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if not speed else f"{speed:.1f} games/s", style="cyan")


def error_line(console: Console, exc: BaseException | str) -> None:
    """One red line of plain text: brackets in the message are not rich markup."""
    console.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True, highlight=False)


def _bar(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("{task.fields[failed]} failed", style="red"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def faction_note(plan: Any, options: dict[str, Any]) -> str | None:
    """Said before play when every match seats the same factions: the game hands out
    factions by an option (Conflict's races, Expedition's factions) that neither --set
    nor --grid names, so its default holds in every match."""
    from skydeck.sim.findings import FACTION_KEYS
    from skydeck.sim.plan import text

    gridded = {k for k, _ in plan.grid}
    for key in FACTION_KEYS:
        if key in options and key not in plan.options and key not in gridded:
            return (
                f"note: every match seats the default {key} {text(options[key])} in seat "
                f"order (the seats rotate agents, not {key}); vary them with --grid "
                f"'{key}=[a,b],[b,a]'"
            )
    return None


def cmd_simulate(args: argparse.Namespace) -> int:
    from skydeck.sim.plan import (
        DEFAULT_CHUNK,
        DEFAULT_MAX_SETTINGS,
        Plan,
        parse_grid,
        parse_options,
    )
    from skydeck.sim.progress import DEFAULT_EVERY_S, Lines
    from skydeck.sim.simulate import check_folder, pending_chunks, run

    err = Console(stderr=True, highlight=False)
    try:
        options = parse_options(args.set)
        if args.players is not None:
            options["players"] = args.players
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, got {args.jobs}")
        if args.max_settings is not None and args.max_settings < 1:
            raise ValueError(f"--max-settings must be at least 1, got {args.max_settings}")
        every = DEFAULT_EVERY_S if args.progress_every is None else args.progress_every
        if not every > 0:
            raise ValueError(f"--progress-every must be above 0 seconds, got {every}")
        plan = Plan(
            game=args.game,
            agents=[s.strip() for s in args.agents.split(",") if s.strip()],
            games=args.games,
            options=options,
            grid=parse_grid(args.grid),
            seed=args.seed,
            chunk=DEFAULT_CHUNK if args.chunk is None else args.chunk,
            max_settings=DEFAULT_MAX_SETTINGS if args.max_settings is None else args.max_settings,
        )
        out = Path(args.out)
        checked = plan.check()  # before the bar: a bad command prints one line and nothing else
        check_folder(plan, out, args.resume)
    except ValueError as exc:
        error_line(err, exc)
        return 2
    console = Console(stderr=True, quiet=args.quiet, highlight=False)
    note = faction_note(plan, dict(checked[0][1].options))
    if note:
        console.print(escape(note), soft_wrap=True)
    lines = None
    if not (console.is_terminal or args.quiet):
        lines = Lines(plan.game, lambda line: console.print(escape(line), soft_wrap=True), every)
    began = time.perf_counter()
    try:
        if lines is not None:
            outcome = run(
                plan, out, jobs=args.jobs, ray=args.ray, resume=args.resume,
                progress=lines.advance, start=lines.start,
            )  # fmt: skip
        else:
            with _bar(console) as bar:
                task = bar.add_task(f"{plan.game}", total=None, failed=0, start=False)

                def start(total: int, already: int) -> None:
                    bar.update(task, total=total - already)
                    bar.start_task(task)

                failures = 0

                def progress(n: int, bad: int) -> None:
                    nonlocal failures
                    failures += bad
                    bar.update(task, advance=n, failed=failures)

                outcome = run(
                    plan, out, jobs=args.jobs, ray=args.ray, resume=args.resume,
                    progress=progress, start=start,
                )  # fmt: skip
    except ValueError as exc:
        error_line(err, exc)
        return 2
    except KeyboardInterrupt:
        total = plan.size() * plan.games
        todo = pending_chunks(plan, out) if out.is_dir() else plan.chunks()
        left = sum(end - begin for _, begin, end in todo)
        err.print(
            escape(
                f"interrupted: {total - left} of {total} matches are in {out}/; the same "
                "command with --resume plays the rest"
            ),
            soft_wrap=True,
        )
        return 130
    finally:
        if lines is not None:
            lines.stop()
    seconds = time.perf_counter() - began
    note = f", {outcome.skipped} already there" if outcome.skipped else ""
    console.print(
        escape(
            f"{outcome.played} matches in {seconds:.1f} s{note}; {outcome.failed} failed; "
            f"tables in {out}/ (skydeck report {out})"
        ),
        soft_wrap=True,
    )
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from skydeck.sim.balance_report import write_report

    err = Console(stderr=True)
    try:
        runs = [Path(r) for r in args.run]
        html, pngs = write_report(runs, Path(args.out) if args.out else None)
    except ValueError as exc:
        error_line(err, exc)
        return 2
    Console(highlight=False).print(escape(f"wrote {html} and {len(pngs)} plots beside it"))
    return 0
