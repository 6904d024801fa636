"""Where a study's chunks run: this process, a local process pool, or Ray.

A backend takes the plan and the chunks still to play and yields ``(chunk, rows)`` as
each finishes, in any order; the caller writes them. Rows depend only on the chunk
(:func:`skydeck.sim.play.play_chunk`), so the tables are the same on every backend.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from skydeck.sim.plan import Plan
from skydeck.sim.play import Rows, play_chunk

Chunk = tuple[int, int, int]


def local(plan: Plan, chunks: list[Chunk], jobs: int) -> Iterator[tuple[Chunk, Rows]]:
    """``jobs`` worker processes (1: this process, no pool at all)."""
    if jobs <= 1:
        for chunk in chunks:
            yield chunk, play_chunk(plan, *chunk)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # A bounded window of submitted chunks keeps finished rows flowing to disk
        # (resume loses little) without holding every result in memory.
        todo = iter(chunks)
        running: dict[Future[Rows], Chunk] = {}
        for chunk in todo:
            running[pool.submit(play_chunk, plan, *chunk)] = chunk
            if len(running) >= jobs * 2:
                break
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                chunk = running.pop(fut)
                nxt = next(todo, None)
                if nxt is not None:
                    running[pool.submit(play_chunk, plan, *nxt)] = nxt
                yield chunk, fut.result()


def _ray_play(plan: Plan, setting: int, start: int, end: int) -> Rows:
    return play_chunk(plan, setting, start, end)


def ray_connect(address: str | None) -> bool:
    """Join Ray before anything is written: ``address`` None starts a local runtime
    (unless this process already joined one), else joins that cluster (``auto``,
    ``ray://host:10001``; every node needs the same Skydeck installed). True when this
    call started the connection (and the run should close it)."""
    import ray

    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    kwargs: dict[str, Any] = {"log_to_driver": False}
    if address:
        kwargs["address"] = address  # a cluster keeps its own settings
    else:
        kwargs["include_dashboard"] = False
    try:
        ray.init(**kwargs)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError ...
        where = f"the Ray cluster at {address}" if address else "a local Ray runtime"
        raise ValueError(f"cannot start or join {where}: {exc}") from None
    return True


def ray_backend(plan: Plan, chunks: list[Chunk], close: bool) -> Iterator[tuple[Chunk, Rows]]:
    """Chunks as Ray tasks on the connected runtime (``close``: shut it down after)."""
    import ray

    try:
        task = ray.remote(_ray_play)
        pending = {task.remote(plan, *c): c for c in chunks}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                yield pending.pop(ref), ray.get(ref)
    finally:
        if close:
            ray.shutdown()
