"""Profile the server under `skydeck bench server`'s load (cProfile, standard library).

    .venv/bin/python benchmarks/profile_server.py [SECONDS] [MATCHES] [--cpu]

The server runs in a child process with cProfile on (uvicorn on uvloop, durable SQLite,
as the bench runs it); this process drives the bench's bots against it, then prints the
server's 30 costliest functions by own time and by cumulative time. ``--cpu``: the
loop thread's CPU time (``time.thread_time``) instead of wall time, so that neither the
other jobs of a busy machine nor a wait in a system call count (slower to profile).
"""

from __future__ import annotations

import cProfile
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def bench_server(db: str, port: int) -> Any:
    """The bench's server (uvicorn on uvloop, durable SQLite, the direct-frames
    protocol, the quiet collector), not yet started: a ``uvicorn.Server``."""
    import uvicorn

    from skydeck.server.app import create_app

    config = uvicorn.Config(
        create_app(db, ai_delay=0, tune_gc=True),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="skydeck.server.compression:LargeFramesProtocol",
        loop="uvloop",
    )
    return uvicorn.Server(config)


def serve(db: str, port: int, seconds: float, out: str, cpu: bool = False) -> None:
    import asyncio

    server = bench_server(db, port)
    prof = cProfile.Profile(time.thread_time) if cpu else cProfile.Profile()

    async def main() -> None:
        asyncio.get_running_loop().call_later(seconds, lambda: setattr(server, "should_exit", True))
        prof.enable()
        await server.serve()
        prof.disable()

    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())
    prof.dump_stats(out)


def main() -> None:
    from skydeck.server.bench import _drive, _free_port, _run

    cpu = "--cpu" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    seconds = float(args[0]) if args else 15.0
    matches = int(args[1]) if len(args) > 1 else 50
    folder = Path(tempfile.mkdtemp(prefix="skydeck-prof-"))
    db, port, out = f"sqlite:///{folder / 'p.sqlite'}", _free_port(), str(folder / "server.prof")
    here = str(Path(__file__).parent)
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import profile_server as p; "
        f"p.serve({db!r}, {port}, {seconds + 8}, {out!r}, {cpu!r})"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    import socket

    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    stats = _run(_drive(f"http://127.0.0.1:{port}", "stellium", matches, seconds, True))
    print(f"{stats.moves} moves in {seconds} s")
    proc.wait(60)
    p = pstats.Stats(out)
    p.sort_stats("tottime").print_stats(30)
    p.sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
