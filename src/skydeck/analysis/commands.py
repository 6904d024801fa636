"""``skydeck analyse RECORD.json``: the analysis of a finished match on the terminal,
in JSON (``--out``) and as a PNG graph of the chances (``--graph``)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "analyse",
        help="after the game: win chances, mistakes, better moves and luck of a finished match",
    )
    p.add_argument("record", help="a finished match record (JSON: `skydeck play --save`)")
    p.add_argument("--seat", type=int, help="analyse only this seat (1-based)")
    p.add_argument(
        "--budget",
        type=float,
        help="seconds of one core per decision (sets the playouts by timing a few first; "
        "default: the game's playouts, which is reproducible)",
    )
    p.add_argument("--playouts", type=int, help="playouts per move weighed (reproducible)")
    p.add_argument("--width", type=int, help="moves weighed besides the one played")
    p.add_argument("--seed", type=int, default=0, help="the analysis's own seed")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, help="local worker processes")
    where.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run on Ray (no address: a local runtime; or auto, ray://host:10001)",
    )
    p.add_argument("--out", help="write the analysis as JSON here")
    p.add_argument("--graph", help="draw the chances as a PNG here (default: beside --out)")
    p.add_argument(
        "--solver-seconds",
        type=float,
        default=5.0,
        help="Stellarion: seconds per solver call (default 5)",
    )
    p.set_defaults(func=cmd_analyse)


def _playouts_for(record: Any, budget: float, width: int | None) -> int:
    """Playouts that fit ``budget`` seconds a decision, from timing a few playouts of
    the first position (a first position's playouts are the longest: a safe side)."""
    from skydeck.analysis.estimate import Arm, Estimator
    from skydeck.analysis.support import analysis_for

    game = record.make_game()
    support = analysis_for(game)
    state = game.new(record.seed)
    seat = state.to_move[0]
    est = Estimator(game, support, state.view(seat), seat, 12345)
    [t] = est.tallies(1)
    started = time.process_time()
    est.run([Arm()], [t], range(4))
    per = max((time.process_time() - started) / 4, 1e-4)
    w = support.width if width is None else width
    # half the playouts on every candidate (+ the move played), half on up to three
    per_decision = per * ((w + 1) + 3) / 2
    return max(2, int(budget / per_decision))


def cmd_analyse(args: argparse.Namespace) -> int:
    from skydeck.analysis import runners
    from skydeck.analysis.analyse import AnalysisError, analyse, read_record

    console = Console()
    try:
        record = read_record(args.record)
        seats = None if args.seat is None else [args.seat - 1]
        playouts = args.playouts
        if playouts is None and args.budget is not None:
            if args.budget <= 0:
                raise AnalysisError(f"--budget must be positive, got {args.budget}")
            playouts = _playouts_for(record, args.budget, args.width)
            console.print(f"budget {args.budget:g} s a decision: {playouts} playouts a move")
        if args.jobs < 1:
            raise AnalysisError(f"--jobs must be 1 or more, got {args.jobs}")
        if args.ray is not None:
            address = args.ray or None

            def runner(tasks: list[Any]) -> Any:
                return runners.ray_tasks(tasks, address)
        else:
            jobs = args.jobs

            def runner(tasks: list[Any]) -> Any:
                return runners.pool(tasks, jobs)

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as bar:
            job = bar.add_task("analysing", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(job, completed=done, total=total)

            result = analyse(
                record,
                seats=seats,
                playouts=playouts,
                width=args.width,
                seed=args.seed,
                runner=runner,
                progress=progress,
                solver_seconds=args.solver_seconds,
            )
    except (AnalysisError, ValueError) as exc:
        console.print(f"[red]cannot analyse {args.record}: {escape(str(exc))}[/red]")
        return 2
    show(console, result)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1))
        console.print(f"wrote {args.out}")
    graph = args.graph or (str(Path(args.out).with_suffix(".png")) if args.out else None)
    if graph:
        from skydeck.analysis.graph import draw

        draw(result, graph)
        console.print(f"wrote {graph}")
    return 0


def show(console: Console, result: dict[str, Any]) -> None:
    console.print(f"[bold]{result['title']}[/bold], seed {result['seed']}: {result['measure']}")
    marked = [d for d in result["decisions"] if d.get("grade") not in (None, "good")]
    if marked:
        t = Table(title="inaccuracies, mistakes and blunders", header_style="bold")
        for col in ("step", "player", "played", "grade", "chance", "better move", "its chance"):
            t.add_column(col)
        names = {s["seat"]: s["name"] for s in result["seats"]}
        for d in marked:
            t.add_row(
                str(d["step"]),
                names.get(d["seat"], str(d["seat"] + 1)),
                d["move"],
                d["grade"],
                f"{d['before']:.0%} -> {d['after']:.0%}",
                d["better"] or "",
                f"{d['best']:.0%}",
            )
        console.print(t)
    t = Table(title="per player", header_style="bold")
    for col in (
        "player",
        "accuracy",
        "decisions",
        "inacc.",
        "mistakes",
        "blunders",
        "luck",
        "result",
    ):
        t.add_column(col)
    for s in result["seats"]:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        t.add_row(
            s["name"],
            acc,
            str(s["decisions"]),
            str(s["inaccuracies"]),
            str(s["mistakes"]),
            str(s["blunders"]),
            f"{s['luck']:+.2f}",
            "won" if s["result"] >= 1 else f"{s['result']:g}",
        )
    console.print(t)
    deal = result.get("deal")
    if deal:
        lost = deal.get("lost_after")
        text = f"deal: {deal['winnable']}"
        if lost:
            text += f"; no longer winnable after step {lost['step']} ({lost['move']})"
        if deal.get("note"):
            text += f"; {deal['note']}"
        console.print(escape(text))
    c = result["cost"]
    console.print(
        f"cost: {c['seconds']:.1f} s wall, {c['task_cpu_seconds']:.1f} s CPU in the tasks, "
        f"{c['tasks']} tasks, {c['playouts']:,} playouts "
        f"({result['settings']['playouts']} a move, width {result['settings']['width']})"
    )
