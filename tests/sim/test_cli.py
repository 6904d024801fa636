"""`skydeck simulate` as a command (issue 53): Ctrl-C, killed parents, markup in error
lines, `--chunk 0`, a Ray address with nothing there, progress without a terminal, and
the note on fixed factions. The signal tests run the real command in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skydeck.cli import main
from skydeck.sim.plan import Plan
from skydeck.sim.simulate import run
from tests.sim.helpers import tables

ROOT = Path(__file__).parents[2]
# Random Stellarion at two players: cheap matches, many chunks.
BASE = ["simulate", "stellarion", "--agents", "random", "--players", "2", "--seed", "3"]


def start(out: Path, games: int, *extra: str) -> subprocess.Popen[str]:
    """The command in its own process group (as a terminal's job is), its output in
    files beside ``out``: a pipe would stay open as long as any orphaned worker lives."""
    argv = [sys.executable, "-m", "skydeck.cli", *BASE, "--games", str(games), "--chunk", "5"]
    with open(out.with_suffix(".err"), "w") as err:
        return subprocess.Popen(
            [*argv, "--quiet", *extra, "--out", str(out)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
            text=True,
            start_new_session=True,
        )


def stderr_of(out: Path) -> str:
    return out.with_suffix(".err").read_text()


def wait_for_parts(out: Path, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    """Until the run has written a chunk (so its workers are up and playing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if list((out / "matches").glob("part-*.parquet")):
            return
        assert proc.poll() is None, stderr_of(out)
        time.sleep(0.05)
    raise AssertionError("the run wrote no chunk in time")


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads worker pids from /proc")
def test_ctrl_c_prints_one_line_and_the_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "r"
    proc = start(out, 600, "--jobs", "2")
    wait_for_parts(out, proc)
    workers = children(proc.pid)
    assert len(workers) == 2
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    try:
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:  # never leave it behind, even when the test fails
            os.killpg(proc.pid, signal.SIGKILL)
    err = stderr_of(out)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert "interrupted:" in err and "--resume" in err
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert left == []
    done = len(list((out / "matches").glob("part-*.parquet")))
    assert 0 < done < 120  # interrupted part-way
    argv = [*BASE, "--games", "600", "--chunk", "5", "--quiet", "--resume", "--out", str(out)]
    assert main(argv) == 0
    whole = tmp_path / "whole"
    run(Plan("stellarion", ["random"], 600, {"players": 2}, [], 3, 5), whole)
    assert tables(out) == tables(whole)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads worker pids from /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_pool_workers_end_when_the_parent_is_killed(tmp_path: Path, how: int) -> None:
    out = tmp_path / "r"
    proc = start(out, 4000, "--jobs", "2")
    wait_for_parts(out, proc)
    workers = children(proc.pid)
    assert len(workers) == 2 and all(alive(w) for w in workers)
    os.kill(proc.pid, how)  # the parent alone: no clean-up of its own
    proc.wait(timeout=30)
    deadline = time.monotonic() + 15
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if alive(w)]
    for w in left:  # never leave them behind, even when the test fails
        os.kill(w, signal.SIGKILL)
    assert left == []


def test_error_lines_keep_brackets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "conflict", "--agents", "heuristic", "--games", "2"]
    assert main([*argv, "--grid", "races=[wiss,klingon]", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "setting races=[wiss,klingon]: " in err and "unknown race 'klingon'" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        (["--chunk", "0"], "--chunk must be at least 1, got 0"),
        (["--max-settings", "0"], "--max-settings must be at least 1, got 0"),
        (["--progress-every", "0"], "--progress-every must be above 0"),
    ],
)
def test_zero_is_refused_not_read_as_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str], message: str
) -> None:
    out = tmp_path / "r"
    assert main([*BASE, "--games", "2", *flag, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_a_ray_address_with_nothing_there_fails_fast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.monotonic()
    code = main([*BASE, "--games", "2", "--ray", "127.0.0.1:1", "--out", str(tmp_path / "r")])
    assert code == 2 and time.monotonic() - began < 30
    err = capsys.readouterr().err
    assert "cannot join the Ray cluster at 127.0.0.1:1" in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_without_a_terminal_progress_comes_as_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*BASE, "--games", "200", "--chunk", "10", "--progress-every", "0.05"]
    assert main([*argv, "--out", str(tmp_path / "r")]) == 0
    lines = capsys.readouterr().err.splitlines()
    ticks = [line for line in lines if line.startswith("stellarion: ") and "/200 matches" in line]
    assert len(ticks) >= 2, lines
    assert "200 matches in" in lines[-1]


def test_fixed_factions_are_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "expedition", "--agents", "random", "--players", "2", "--games", "1"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "note: every match seats the default factions [unec,tognath] in seat order" in err
    grid = ["--grid", "factions=[unec,maheri],[maheri,unec]"]
    assert main([*argv, *grid, "--out", str(tmp_path / "b")]) == 0
    assert "note:" not in capsys.readouterr().err
