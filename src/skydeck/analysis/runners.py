"""Where the tasks run: this process, a local process pool, or Ray.

Each yields results as tasks finish (any order); a result depends on its task alone,
so the analysis is the same on every runner.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any

from skydeck.analysis.tasks import Task, run_task

Result = dict[str, Any]


def serial(tasks: list[Task]) -> Iterator[Result]:
    for task in tasks:
        yield run_task(task)


def pool(tasks: list[Task], jobs: int) -> Iterator[Result]:
    """``jobs`` worker processes (1: this process)."""
    if jobs <= 1:
        yield from serial(tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as executor:
        yield from on_executor(executor, tasks, jobs * 3)


def on_executor(executor: Executor, tasks: list[Task], window: int) -> Iterator[Result]:
    """The tasks on an executor that outlives them (the server's analysis pool), at
    most ``window`` submitted and not yet yielded at once, so that a long analysis
    queues its tasks here rather than ahead of another analysis's in the pool."""
    todo = iter(tasks)
    running: set[Future[Result]] = set()
    for task in todo:
        running.add(executor.submit(run_task, task))
        if len(running) >= window:
            break
    try:
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                nxt = next(todo, None)
                if nxt is not None:
                    running.add(executor.submit(run_task, nxt))
                yield fut.result()
    finally:
        for fut in running:  # given up (an error, a shutdown): not left queued
            fut.cancel()


def ray_tasks(tasks: list[Task], address: str | None) -> Iterator[Result]:
    """Tasks on Ray: joins ``address`` (None: a local runtime, unless this process has
    joined one already, which is then kept)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray installed (pip install 'skydeck[ray]')") from None
    started = False
    if not ray.is_initialized():
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        kwargs: dict[str, Any] = {"log_to_driver": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["include_dashboard"] = False
        try:
            ray.init(**kwargs)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError
            where = f"the Ray cluster at {address}" if address else "a local Ray runtime"
            raise ValueError(f"cannot start or join {where}: {exc}") from None
        started = True
    try:
        remote = ray.remote(run_task)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
