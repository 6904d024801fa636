"""The analyser: a finished match record in, every seat's analysis out (JSON-ready).

What it computes, for each seat analysed (all, or ``seats``), each number from that
seat's view at the time (:mod:`.tasks`):

- each decision: the chance before the move (the heuristic to play), after the move
  played, after the best move found; the drop, its grade and the better move in the
  game's words;
- each chance event (a step that drew from the state's generator or revealed hidden
  information: the game's ``analysis`` module says which events those are): each
  seat's luck, its chance after the outcome less its chance just before it was known;
- per seat: accuracy (0-100, :mod:`.grade`), inaccuracies, mistakes, blunders, luck;
- Stellarion (where the game declares a solver): whether the deal was winnable.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skydeck.analysis.estimate import mix, outcome
from skydeck.analysis.grade import GRADES, accuracy, grade, move_accuracy
from skydeck.analysis.support import analysis_for
from skydeck.analysis.tasks import Task
from skydeck.core import Game, filter_events
from skydeck.core.capabilities import resolve
from skydeck.core.game import State, seat_name
from skydeck.core.record import Entry, MatchRecord

ANALYSIS_VERSION = 1
Runner = Callable[[list[Task]], Iterator[dict[str, Any]]]
Progress = Callable[[int, int], None]


class AnalysisError(ValueError):
    """The record cannot be analysed (foreign, corrupt, unfinished, a bad seat)."""


def read_record(source: str | Path | dict[str, Any]) -> MatchRecord:
    """A match record from a file or its JSON, with a clear error for anything else."""
    if isinstance(source, dict):
        obj: Any = source
        where = "the record"
    else:
        where = str(source)
        try:
            obj = json.loads(Path(source).read_text())
        except OSError as exc:
            raise AnalysisError(f"cannot read {where}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise AnalysisError(f"{where} is not JSON: {exc}") from None
    if not isinstance(obj, dict) or "header" not in obj or "actions" not in obj:
        raise AnalysisError(
            f"{where} is not a Skydeck match record (a JSON object with 'header' and "
            "'actions', as `skydeck play --save` and the server's replays write)"
        )
    try:
        return MatchRecord.from_json(obj)
    except ValueError as exc:
        raise AnalysisError(f"{where}: {exc}") from None


@dataclass
class Step:
    """One action of the record as the analyser needs it."""

    index: int
    entry: Entry
    views: dict[int, dict[str, Any]]  # the seats' views before the action
    legal: int
    chance: bool
    text: str  # the action and its public events, in the game's words
    over_after: bool
    shares_after: list[float] | None  # the outcome, where the match ended here


def _walk(
    record: MatchRecord, seats: list[int], solver: bool
) -> tuple[list[Step], State, list[State]]:
    game = record.make_game()
    support = analysis_for(game)
    names = [seat_name(record.seats, i) for i in range(game.players)]
    steps: list[Step] = []
    states: list[State] = []
    replay = record.replay()
    try:
        state, _, _ = next(replay)
        views = {k: state.view(k) for k in seats}
        for i, entry in enumerate(record.entries):
            if solver:
                states.append(state.clone())
            legal_n = len(state.legal_actions(entry.seat))
            epoch = state.info_epoch()
            state, _, events = next(replay)
            said = [game.describe_event(ev, names, state) for ev in filter_events(events, None)]
            text = game.describe(entry.action) + (f" ({'; '.join(said)})" if said else "")
            steps.append(
                Step(
                    i,
                    entry,
                    views,
                    legal_n,
                    state.info_epoch() != epoch,
                    text,
                    state.is_over,
                    outcome(state, support) if state.is_over else None,
                )
            )
            views = {k: state.view(k) for k in seats}
    except ValueError as exc:
        raise AnalysisError(f"the record does not replay: {exc}") from None
    return steps, state, states


def plan(
    record: MatchRecord,
    seats: list[int],
    playouts: int,
    width: int,
    seed: int,
) -> tuple[list[Task], dict[str, Any]]:
    """The tasks of an analysis, and what assembling their results needs."""
    game = record.make_game()
    support = analysis_for(game)
    steps, final, states = _walk(record, seats, support.solver is not None)
    if not final.is_over:
        raise AnalysisError(
            f"the match is still live ({len(record.entries)} actions, "
            f"{seat_name(record.seats, final.to_move[0])} to move): "
            "a match is analysed once it is over"
        )
    public = type(game).public_views
    base = {"game": game.id, "options": game.options, "width": width}
    tasks: list[Task] = []
    keys: dict[tuple[str, int, int], str] = {}

    def add(kind: str, step: int, observer: int, view: dict[str, Any], **extra: Any) -> str:
        key = (kind, step, observer)
        if key not in keys:
            tid = keys[key] = f"{kind}:{step}:{observer}"
            code = {"decision": 1, "position": 2, "expect": 3}[kind]
            tasks.append(
                {
                    **base,
                    "id": tid,
                    "kind": kind,
                    "step": step,
                    "observer": observer,
                    "view": view,
                    "playouts": playouts,
                    "seed": mix(seed, step, observer, code),
                    **extra,
                }
            )
        return keys[key]

    decisions: dict[int, str] = {}
    for st in steps:
        if st.entry.seat in seats:
            decisions[st.index] = add(
                "decision",
                st.index,
                st.entry.seat,
                st.views[st.entry.seat],
                action=st.entry.action.to_json(),
            )
    luck: list[dict[str, Any]] = []
    for st in steps:
        if not st.chance:
            continue
        actor = st.entry.seat
        need: dict[str, Any] = {"step": st.index, "seat": actor, "what": st.text, "seats": {}}
        for k in seats:
            if k == actor or (public and st.index in decisions):
                expect: Any = ("decision", decisions[st.index])
            else:
                expect = (
                    "expect",
                    add(
                        "expect",
                        st.index,
                        k,
                        st.views[k],
                        actor=actor,
                        action=st.entry.action.to_json(),
                    ),
                )
            if st.over_after:
                after: Any = ("exact", st.shares_after)
            else:
                nxt = steps[st.index + 1]
                if nxt.index in decisions and (nxt.entry.seat == k or public):
                    after = ("before", decisions[nxt.index])
                else:
                    after = ("position", add("position", nxt.index, k, nxt.views[k]))
            need["seats"][k] = (expect, after)
        luck.append(need)
    context = {
        "steps": steps,
        "decisions": decisions,
        "luck": luck,
        "states": states,
        "final": final,
        "public": public,
    }
    return tasks, context


def analyse(
    record: MatchRecord | str | Path | dict[str, Any],
    seats: list[int] | None = None,
    playouts: int | None = None,
    width: int | None = None,
    seed: int = 0,
    runner: Runner | None = None,
    progress: Progress | None = None,
    solver_seconds: float = 5.0,
    deal: bool = True,
) -> dict[str, Any]:
    """Analyse a finished match; see the module doc. ``seats`` are 0-based. ``deal``
    False: the solver's deal report is left to the caller (:func:`deal_report`, which
    the server runs in its pool rather than in the thread that waits on the tasks)."""
    from skydeck.analysis.runners import serial

    if not isinstance(record, MatchRecord):
        record = read_record(record)
    try:
        game = record.make_game()
    except ValueError as exc:
        raise AnalysisError(f"the record's game cannot be made: {exc}") from None
    support = analysis_for(game)
    all_seats = list(range(game.players))
    if seats is None:
        seats = all_seats
    for k in seats:
        if k not in all_seats:
            raise AnalysisError(
                f"no seat {k + 1} in this {game.title} match (seats 1-{game.players})"
            )
    playouts = support.playouts if playouts is None else playouts
    width = support.width if width is None else width
    if playouts < 2 or width < 1:
        raise AnalysisError(
            f"playouts must be 2 or more and width 1 or more, got {playouts}, {width}"
        )
    started, cpu0 = time.perf_counter(), time.process_time()
    tasks, ctx = plan(record, seats, playouts, width, seed)
    results: dict[str, dict[str, Any]] = {}
    run = runner or serial
    for result in run(tasks):
        results[result["id"]] = result
        if progress is not None:
            progress(len(results), len(tasks))
    out = assemble(game, record, support, seats, ctx, results)
    if deal and support.solver is not None:
        out["deal"] = resolve(support.solver)(
            ctx["states"], [s.entry for s in ctx["steps"]], solver_seconds
        )
    wall = time.perf_counter() - started
    out["settings"] = {
        "playouts": playouts,
        "width": width,
        "seed": seed,
        "thresholds": list(support.thresholds),
    }
    out["cost"] = {
        "seconds": round(wall, 2),
        "task_cpu_seconds": round(sum(r["cpu"] for r in results.values()), 2),
        "main_cpu_seconds": round(time.process_time() - cpu0, 2),
        "tasks": len(tasks),
        "playouts": sum(r["playouts"] for r in results.values()),
    }
    return out


def deal_report(record: MatchRecord | dict[str, Any], seconds: float) -> dict[str, Any] | None:
    """The solver's report on a finished match's deal (whether it was winnable, and the
    first move after which it no longer was), or None for a game without a solver."""
    if not isinstance(record, MatchRecord):
        record = read_record(record)
    support = analysis_for(record.make_game())
    if support.solver is None:
        return None
    steps, _final, states = _walk(record, [], True)
    report: dict[str, Any] = resolve(support.solver)(states, [s.entry for s in steps], seconds)
    return report


def decision(
    state: State, seat: int, played: Any, playouts: int = 16, width: int = 3, seed: int = 0
) -> dict[str, Any]:
    """One decision of ``seat`` in ``state`` graded, from the seat's view alone (the
    state is only asked for that view): before, after, best, drop, grade."""
    from skydeck.analysis.tasks import run_task

    game = state.game
    support = analysis_for(game)
    task = {
        "game": game.id,
        "options": game.options,
        "width": width,
        "id": "decision",
        "kind": "decision",
        "step": 0,
        "observer": seat,
        "view": state.view(seat),
        "playouts": playouts,
        "seed": mix(seed, 0, seat, 1),
        "action": played.to_json(),
    }
    r = run_task(task)
    if r["forced"]:
        return {"forced": True, "before": r["before"][seat], "grade": None}
    return {
        "forced": False,
        "before": r["before"][seat],
        "after": r["after"][seat],
        "best": r["best"][seat],
        "best_move": r["best_move"],
        "drop": r["drop"],
        "grade": grade(r["drop"], r["se"], support.thresholds),
    }


def _val(vec: list[float] | None, k: int) -> float | None:
    return None if vec is None else round(vec[k], 4)


def assemble(
    game: Game,
    record: MatchRecord,
    support: Any,
    seats: list[int],
    ctx: dict[str, Any],
    results: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    steps: list[Step] = ctx["steps"]
    final: State = ctx["final"]
    decisions = []
    per_seat: dict[int, dict[str, Any]] = {
        k: {"drops": [], **{g: 0 for g in GRADES}, "luck": 0.0, "chances": []} for k in seats
    }
    for st in steps:
        tid = ctx["decisions"].get(st.index)
        if tid is None:
            continue
        r = results[tid]
        s = st.entry.seat
        row: dict[str, Any] = {
            "step": st.index,
            "seat": s,
            "move": game.describe(st.entry.action),
            "notation": str(st.entry.action),
            "forced": r["forced"],
            "before": _val(r["before"], s),
            "after": _val(r["after"], s),
            "best": _val(r["best"], s),
        }
        if not r["forced"]:
            best = game.action_from_json(r["best_move"])
            g = grade(r["drop"], r["se"], support.thresholds)
            row.update(
                drop=round(r["drop"], 4),
                se=round(r["se"], 4) if r["se"] != float("inf") else None,
                grade=g,
                accuracy=round(move_accuracy(r["drop"]), 1),
                better=None if best == st.entry.action else game.describe(best),
                better_notation=None if best == st.entry.action else str(best),
                candidates=[
                    {
                        "move": game.describe(game.action_from_json(c["move"])),
                        "chance": round(c["chance"], 4),
                    }
                    for c in r["candidates"]
                ],
            )
            per_seat[s]["drops"].append(r["drop"])
            per_seat[s][g] += 1
        decisions.append(row)
        watchers = seats if ctx["public"] else [s]
        for k in watchers:
            if k in per_seat and r["before"] is not None:
                per_seat[k]["chances"].append([st.index, round(r["before"][k], 4)])
    chance_events = []
    for need in ctx["luck"]:
        row = {"step": need["step"], "seat": need["seat"], "what": need["what"], "luck": {}}
        for k, (expect, after) in need["seats"].items():
            if expect[0] == "decision":
                e = results[expect[1]]["after"]
            else:
                e = results[expect[1]]["value"]
            if after[0] == "exact":
                a = after[1]
            elif after[0] == "before":
                a = results[after[1]]["before"]
            else:
                a = results[after[1]]["value"]
                if a is not None:
                    per_seat[k]["chances"].append([need["step"] + 1, round(a[k], 4)])
            if e is None or a is None:
                row["luck"][str(k)] = None  # no deal of k's view allowed the move
                continue
            value = a[k] - e[k]
            row["luck"][str(k)] = round(value, 4)
            per_seat[k]["luck"] += value
        chance_events.append(row)
    shares = outcome(final, support)
    summary = []
    for k in seats:
        p = per_seat[k]
        p["chances"].append([len(steps), round(shares[k], 4)])
        p["chances"].sort()
        acc = accuracy(p["drops"])
        summary.append(
            {
                "seat": k,
                "name": seat_name(record.seats, k),
                "decisions": len(p["drops"]),
                "accuracy": None if acc is None else round(acc, 1),
                "inaccuracies": p["inaccuracy"],
                "mistakes": p["mistake"],
                "blunders": p["blunder"],
                "luck": round(p["luck"], 4),
                "result": shares[k],
                "score": final.scores[k],
                "chances": p["chances"],
            }
        )
    return {
        "version": ANALYSIS_VERSION,
        "game": game.id,
        "title": game.title,
        "options": game.options,
        "seed": record.seed,
        "players": game.players,
        "measure": support.measure,
        "chance_events_are": support.chance,
        "seats": summary,
        "decisions": decisions,
        "chance_events": chance_events,
    }
