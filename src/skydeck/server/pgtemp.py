"""A throw-away PostgreSQL server (the tests, ``skydeck bench server --workers N``):
initdb + pg_ctl on a loopback port, in a temporary folder removed by ``stop``.

As root the server runs as the ``postgres`` user (PostgreSQL refuses to run as root),
in a folder that user owns.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def find_bindir() -> Path | None:
    for pattern in ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin"):
        for d in sorted(glob.glob(pattern), reverse=True):
            if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
                return Path(d)
    which = shutil.which("initdb")
    return Path(which).parent if which else None


class PostgresServer:
    def __init__(self, bindir: Path, durable: bool = False) -> None:
        self.bindir = bindir
        #: False (the tests): fsync off, for speed. True (a bench): PostgreSQL's defaults.
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="skydeck-pg-"))
        self.data = self.root / "data"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        cmd = " ".join(shlex.quote(a) for a in args)
        full = ["su", "postgres", "-s", "/bin/sh", "-c", cmd] if self.as_root else ["sh", "-c", cmd]
        proc = subprocess.run(full, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd} failed: {proc.stdout}\n{proc.stderr}")

    def start(self) -> str:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o755)
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "skydeck",
            "--no-sync",
            "-E",
            "UTF8",
        )
        self.resume()
        return f"postgresql+psycopg://skydeck@127.0.0.1:{self.port}/postgres"

    def resume(self) -> None:
        """Start the server (again, after ``pause``) on the same port and data."""
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        if not self.durable:
            opts += " -c fsync=off -c full_page_writes=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def pause(self) -> None:
        """Stop the server as an outage would (every connection cut), keeping its data."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
