"""The server's after-the-game analyses: started on request, run off the event loop,
stored with the match (``analysis_store``).

Why this shape: an analysis is minutes of CPU, so its tasks (``skydeck.analysis.tasks``,
each one seat's view) run in a pool of worker processes of their own
(``analysis_workers``, started with ``spawn``: nothing of the server's threads or
sockets is inherited), and the thread that plans the tasks and assembles their
results is a daemon thread, not the event loop, which only reads the stored row. At
most ``analysis_limit`` analyses run at once (429 beyond) and one per match (the row
is claimed before any work starts). The budget per decision is a setting
(``analysis_playouts``, ``analysis_width``: tests use a small one).
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from sqlalchemy import Engine

from skydeck.analysis.analyse import AnalysisError, analyse, deal_report
from skydeck.analysis.runners import on_executor
from skydeck.analysis.tasks import Task
from skydeck.server.analysis_store import AnalysisStore
from skydeck.server.settings import Settings

#: Seconds between two progress writes of one analysis.
PROGRESS_EVERY = 0.5
Runner = Callable[[list[Task]], Iterator[dict[str, Any]]]


class Interrupted(Exception):
    """The server stopped while the analysis ran."""


class TooManyAnalyses(Exception):
    """``analysis_limit`` analyses already run on this server."""


class Analyses:
    """Start, follow and read the analyses of finished matches."""

    def __init__(self, engine: Engine, settings: Settings, owner: str = "") -> None:
        self.store = AnalysisStore(engine)
        self.settings = settings
        self.owner = owner
        #: Where the tasks run (None: the process pool); tests may set an in-process one.
        self.runner: Runner | None = None
        self._executor: ProcessPoolExecutor | None = None
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()
        self._stopping = False

    # --- the server's life ---------------------------------------------------------------
    def recover(self) -> None:
        """At start-up: what this server was running when it last stopped is lost."""
        self.store.interrupt_running(self.owner)

    def stop(self) -> None:
        """Stop taking work; the running analyses are marked interrupted."""
        self._stopping = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self.store.interrupt_running(self.owner)

    def executor(self) -> Executor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.settings.analysis_workers,
                    mp_context=multiprocessing.get_context("spawn"),
                )
            return self._executor

    # --- requests ------------------------------------------------------------------------
    def budget(self, seed: int) -> dict[str, Any]:
        s = self.settings
        return {
            "playouts": s.analysis_playouts,
            "width": s.analysis_width,
            "seed": seed,
            "solver_seconds": s.analysis_solver_seconds,
        }

    def start(self, match_id: str, record: dict[str, Any]) -> dict[str, Any]:
        """Start the analysis of a finished match's record unless it runs or is done;
        what is stored now. TooManyAnalyses at the limit. Blocking: call off the loop."""
        there = self.store.get(match_id)
        if there is not None and there["status"] in ("running", "done"):
            return there
        with self._lock:
            running = sum(t.is_alive() for t in self._threads.values())
            if running >= self.settings.analysis_limit:
                raise TooManyAnalyses(
                    f"{running} analyses are running on this server already (the limit, "
                    "analysis_limit): ask again in a few minutes"
                )
            settings = self.budget(int(record["header"].get("seed", 0)))
            if not self.store.claim(match_id, self.owner, settings):
                found = self.store.get(match_id)
                assert found is not None
                return found
            thread = threading.Thread(
                target=self._run,
                args=(match_id, record, settings),
                name=f"analysis-{match_id}",
                daemon=True,
            )
            self._threads[match_id] = thread
            thread.start()
        found = self.store.get(match_id)
        assert found is not None
        return found

    def get(self, match_id: str) -> dict[str, Any] | None:
        return self.store.get(match_id)

    def running(self) -> list[str]:
        with self._lock:
            return [m for m, t in self._threads.items() if t.is_alive()]

    # --- the work (its own thread) ------------------------------------------------------
    def _run(self, match_id: str, record: dict[str, Any], settings: dict[str, Any]) -> None:
        last = [0.0]
        planned = [0]

        def progress(done: int, total: int) -> None:
            planned[0] = total
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or done == total:
                last[0] = now
                self.store.progress(match_id, done, total)

        def guarded(tasks: list[Task]) -> Iterator[dict[str, Any]]:
            for r in (self.runner or self._pooled)(tasks):
                if self._stopping:  # the server stops: give the rest up
                    raise Interrupted("the server stopped before the analysis was finished")
                yield r

        try:
            result = analyse(
                record,
                playouts=settings["playouts"],
                width=settings["width"],
                seed=settings["seed"],
                runner=guarded,
                progress=progress,
                deal=False,
            )
            if self.runner is None:
                report = (
                    self.executor().submit(deal_report, record, settings["solver_seconds"]).result()
                )
            else:
                report = deal_report(record, settings["solver_seconds"])
            if report is not None:
                result["deal"] = report
            self.store.finish(match_id, result, planned[0])
        except AnalysisError as exc:
            self.store.fail(match_id, str(exc))
        except Exception as exc:  # a worker died, the pool was shut down: not done
            self.store.fail(
                match_id, f"the analysis stopped: {type(exc).__name__}: {exc}", self._stopping
            )

    def _pooled(self, tasks: list[Task]) -> Iterator[dict[str, Any]]:
        return on_executor(self.executor(), tasks, 3 * self.settings.analysis_workers)


def public(row: dict[str, Any] | None, match_id: str, seat: int | None = None) -> dict[str, Any]:
    """What the API answers for a stored row (None: never asked for). ``seat``: only
    that seat's part of the result (its summary and its own decisions)."""
    if row is None:
        return {"match": match_id, "status": "none", "done": 0, "total": 0}
    out: dict[str, Any] = {
        "match": match_id,
        "status": row["status"],
        "done": row["done"],
        "total": row["total"],
        "settings": row["settings"],
        "started": row["started"],
        "updated": row["updated"],
    }
    if row["error"]:
        out["error"] = row["error"]
    result = row["result"]
    if result is not None:
        if seat is not None:
            result = {
                **result,
                "seats": [s for s in result["seats"] if s["seat"] == seat],
                "decisions": [d for d in result["decisions"] if d["seat"] == seat],
                "chance_events": [
                    {**e, "luck": {str(seat): e["luck"].get(str(seat))}}
                    for e in result["chance_events"]
                ],
            }
        out["result"] = result
    return out
