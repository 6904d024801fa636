"""Shared pieces of the study-engine tests: tiny plans and tables without timings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from skydeck.sim.schema import TABLES, TIMING


def table(run: Path, name: str) -> list[dict[str, Any]]:
    """A run's table as rows sorted by match (then seat, kind ...), timings dropped."""
    rows = pq.read_table(run / name).to_pylist()
    for row in rows:
        for col in TIMING.get(name, ()):
            del row[col]
    return sorted(rows, key=lambda r: tuple(str(v) for v in r.values()))


def tables(run: Path) -> dict[str, list[dict[str, Any]]]:
    return {name: table(run, name) for name in TABLES}
