"""Where a study's chunks run: this process, a local process pool, or Ray.

A backend takes the plan and the chunks still to play and yields ``(chunk, rows)`` as
each finishes, in any order; the caller writes them. Rows depend only on the chunk
(:func:`skydeck.sim.play.play_chunk`), so the tables are the same on every backend.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from skydeck.sim.plan import Plan
from skydeck.sim.play import Rows, play_chunk

Chunk = tuple[int, int, int]

#: prctl(2) option: the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1
#: Seconds between a worker's checks that its parent is still there (other systems).
PARENT_POLL_S = 1.0
#: Seconds to wait for a Ray head's port before giving up on an address.
RAY_PROBE_S = 5.0


def _worker_start(parent: int) -> None:
    """A pool worker's first act: leave Ctrl-C to the parent (the terminal sends SIGINT
    to the whole process group; the parent stops the pool and says one line), and end
    when the parent ends, however it ends. A parent killed by SIGKILL or SIGTERM runs no
    clean-up, and its workers would wait on their pipe for ever: on Linux the kernel
    sends them SIGTERM (PR_SET_PDEATHSIG); elsewhere a thread polls the parent's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def local(plan: Plan, chunks: list[Chunk], jobs: int) -> Iterator[tuple[Chunk, Rows]]:
    """``jobs`` worker processes (1: this process, no pool at all). Interrupted (Ctrl-C,
    or the consumer stops early), the pool is stopped at once: running chunks are
    dropped, not waited for (a resumed run plays them again)."""
    if jobs <= 1:
        for chunk in chunks:
            yield chunk, play_chunk(plan, *chunk)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                               initargs=(os.getpid(),))  # fmt: skip
    finished = False
    try:
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
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a pool now: cancel what is queued, terminate the workers, reap them."""
    workers = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        if proc.is_alive():
            proc.terminate()
    for proc in workers:
        proc.join(timeout=5)


def _ray_play(plan: Plan, setting: int, start: int, end: int) -> Rows:
    return play_chunk(plan, setting, start, end)


def ray_connect(address: str | None) -> bool:
    """Join Ray before anything is written: ``address`` None starts a local runtime
    (unless this process already joined one), else joins that cluster (``auto``,
    ``ray://host:10001``; every node needs the same Skydeck installed). True when this
    call started the connection (and the run should close it)."""
    if address:
        probe_ray(address)
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


def probe_ray(address: str, timeout: float = RAY_PROBE_S) -> None:
    """ValueError within ``timeout`` seconds when nothing listens at a ``host:port`` or
    ``ray://host:port`` address (Ray itself retries such an address for minutes).
    ``auto`` and addresses without a port are left to Ray."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        if isinstance(exc, TimeoutError | socket.timeout):
            reason = f"no answer in {timeout:.0f} s"
        raise ValueError(
            f"cannot join the Ray cluster at {address}: nothing answers there ({reason}); "
            "start one with `ray start --head` or check the address"
        ) from None


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
