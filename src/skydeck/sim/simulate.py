"""Run a study: check the plan, prepare the run folder, play the chunks still missing
on a backend, write each chunk's Parquet parts as it arrives.

Resume: a chunk is finished when its ``matches`` part exists. Parts are written to a
temporary name and renamed (atomic), the ``matches`` part last, so an interrupted run
leaves only whole chunks behind; ``--resume`` plays the others, none twice, none lost.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from skydeck.sim.backends import Chunk, local, ray_backend, ray_connect
from skydeck.sim.plan import Plan
from skydeck.sim.play import Rows
from skydeck.sim.schema import SCHEMA_VERSION, TABLES

MANIFEST = "run.json"
#: Written last of a chunk's parts: its presence means the chunk is complete.
DONE_TABLE = "matches"


class RunFolderError(ValueError):
    """The output folder cannot take this run (another game's, another run's, not ours)."""


@dataclass
class Outcome:
    played: int  # matches played now
    skipped: int  # matches already in the folder (resume)
    failed: int  # failed matches played now


def part_name(chunk: Chunk) -> str:
    setting, start, _ = chunk
    return f"part-{setting:05d}-{start:07d}.parquet"


def read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.is_file():
        return None
    try:
        obj = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RunFolderError(f"{out}: run.json is unreadable ({exc})") from None
    if not isinstance(obj, dict) or obj.get("kind") != "skydeck-simulate":
        raise RunFolderError(f"{out}: run.json is not a skydeck simulate run")
    return obj


def check_folder(plan: Plan, out: Path, resume: bool) -> None:
    """RunFolderError unless ``out`` may take this run; writes nothing."""
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"--out {out} is a file, not a folder")
    manifest = read_manifest(out) if out.is_dir() else None
    if manifest is None:
        if out.is_dir() and any(out.iterdir()):
            raise RunFolderError(f"--out {out} is not empty and holds no skydeck run")
        return
    if manifest.get("game") != plan.game:
        raise RunFolderError(
            f"--out {out} holds a {manifest.get('game')} run, not {plan.game}; choose another --out"
        )
    if not resume:
        raise RunFolderError(
            f"--out {out} already holds a {plan.game} run; add --resume to continue it "
            "or choose another --out"
        )
    theirs = manifest.get("plan", {})
    ours = json.loads(json.dumps(plan.to_json()))  # as run.json holds it
    differ = [k for k in ours if theirs.get(k) != ours[k]]
    if differ:
        raise RunFolderError(
            f"--out {out} holds a different {plan.game} run ({', '.join(differ)} differ); "
            "--resume needs the same command"
        )


def write_manifest(plan: Plan, out: Path) -> None:
    settings = [
        {"setting": s.number, "label": s.label, "options": s.options} for s in plan.settings()
    ]
    obj = {
        "kind": "skydeck-simulate",
        "schema": SCHEMA_VERSION,
        "game": plan.game,
        "plan": plan.to_json(),
        "settings": settings,
        "tables": list(TABLES),
    }
    _atomic_write(out / MANIFEST, json.dumps(obj, indent=1).encode())


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_chunk(out: Path, chunk: Chunk, rows: Rows) -> None:
    name = part_name(chunk)
    for table in [t for t in TABLES if t != DONE_TABLE] + [DONE_TABLE]:
        folder = out / table
        folder.mkdir(exist_ok=True)
        data = pa.Table.from_pylist(rows[table], schema=TABLES[table])
        # Hidden while half-written: Parquet readers skip names starting with ".", so a
        # crash mid-write leaves nothing that breaks ``pq.read_table(DIR/table)``.
        tmp = folder / f".{name}.tmp"
        pq.write_table(data, tmp, compression="zstd")
        os.replace(tmp, folder / name)


def pending_chunks(plan: Plan, out: Path) -> list[Chunk]:
    done = out / DONE_TABLE
    return [c for c in plan.chunks() if not (done / part_name(c)).is_file()]


def run(
    plan: Plan,
    out: Path,
    *,
    jobs: int = 1,
    ray: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    start: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Play ``plan`` into ``out``. ``ray``: None for local processes, "" for a local
    Ray runtime, an address to join a cluster. ``start(total, already)`` is called once
    before play, ``progress(matches, failed)`` after every chunk."""
    plan.check()
    check_folder(plan, out, resume)
    close_ray = ray_connect(ray or None) if ray is not None else False
    out.mkdir(parents=True, exist_ok=True)
    if read_manifest(out) is None:
        write_manifest(plan, out)
    todo = pending_chunks(plan, out)
    total = plan.size() * plan.games
    skipped = total - sum(end - begin for _, begin, end in todo)
    if start:
        start(total, skipped)
    chunks: Iterator[tuple[Chunk, Rows]]
    if ray is not None:
        chunks = ray_backend(plan, todo, close_ray)
    else:
        chunks = local(plan, todo, jobs)
    played = failed = 0
    try:
        for chunk, rows in chunks:
            write_chunk(out, chunk, rows)
            bad = sum(r["status"] != "ok" for r in rows["matches"])
            played += len(rows["matches"])
            failed += bad
            if progress:
                progress(len(rows["matches"]), bad)
    finally:
        # Interrupted (Ctrl-C) anywhere in the loop: stop the backend's workers now.
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    return Outcome(played, skipped, failed)
