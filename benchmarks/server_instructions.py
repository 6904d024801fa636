"""Instructions per move of the whole server, counted by valgrind (callgrind).

    .venv/bin/python benchmarks/server_instructions.py [SRC] [SECONDS] [MATCHES] [on|off]

Why: on a shared 2-core machine the server's CPU time per move swings by 20-30%
between identical runs (other jobs, the bots on the other core, a busy sibling
thread), so a 10% change cannot be seen in `skydeck bench server`. The count of
instructions the server executes per move is nearly the same from run to run: it
compares two versions of the code on any machine, at any load.

The server (uvicorn on uvloop, durable SQLite, as `skydeck bench server` runs it) runs
under callgrind with counting off; after start-up and a warm-up the bench's bots play
MATCHES Stellium matches for SECONDS (default 40 and 10: the server runs about 50x
slower under valgrind), counting on, and the program prints the instructions of every
thread of the server divided by the moves made. SRC (default: this checkout's src)
selects the code, e.g. a `git worktree` of an older commit, to compare versions.
The fourth argument turns the server's per-client limits on (the default, as
`skydeck serve`) or off (``SKYDECK_LIMITS`` in the server's environment), to count what
the limits cost a move. Needs `valgrind` (Debian package). Fixed costs (a new match, a
timer) are spread over fewer moves than in the real bench, so compare versions, not
absolute figures.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def serve(db: str, port: int) -> None:
    """The bench's server (``profile_server.bench_server``), run until killed."""
    import asyncio

    import uvloop
    from profile_server import bench_server

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(bench_server(db, port).serve())


def _wait_for(port: int, seconds: float) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not start on port {port} within {seconds:.0f} s")


def count(src: str, seconds: float, matches: int, limits: bool = True) -> tuple[int, int]:
    """(moves made, instructions executed by the server meanwhile)."""
    from skydeck.server.bench import _drive, _free_port, _run

    folder = Path(tempfile.mkdtemp(prefix="skydeck-instructions-"))
    db, port = f"sqlite:///{folder / 'i.sqlite'}", _free_port()
    out = folder / "callgrind.out"
    env = dict(os.environ, PYTHONPATH=f"{src}{os.pathsep}{HERE}")
    env["SKYDECK_LIMITS"] = "true" if limits else "false"
    code = f"import server_instructions as s; s.serve({db!r}, {port})"
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
    null = subprocess.DEVNULL
    proc = subprocess.Popen([*cmd, sys.executable, "-c", code], env=env, stdout=null, stderr=null)
    try:
        _wait_for(port, 600)
        url = f"http://127.0.0.1:{port}"
        _run(_drive(url, "stellium", matches, 5, True))  # warm-up, not counted
        control = ["callgrind_control"]
        subprocess.run([*control, "-i", "on", str(proc.pid)], check=True, stdout=null, stderr=null)
        stats = _run(_drive(url, "stellium", matches, seconds, True))
        subprocess.run([*control, "-i", "off", str(proc.pid)], check=True, stdout=null, stderr=null)
        subprocess.run([*control, "-d", str(proc.pid)], check=True, stdout=null, stderr=null)
    finally:
        proc.kill()
        proc.wait()
    total = 0
    for f in folder.glob("callgrind.out*"):
        for line in f.read_text().splitlines():
            if line.startswith("totals:"):
                total += int(line.split()[1])
    return stats.moves, total


def main() -> None:
    src = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parent / "src")
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
    matches = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    limits = (sys.argv[4] if len(sys.argv) > 4 else "on") != "off"
    moves, total = count(src, seconds, matches, limits)
    per = total / max(moves, 1)
    print(
        f"{src} (limits {'on' if limits else 'off'}): {moves} moves, "
        f"{total / 1e6:.0f}M instructions, {per / 1e3:.0f}k per move"
    )


if __name__ == "__main__":
    main()
