"""The ``match_analyses`` table: one after-the-game analysis per match, stored with it
(Alembic migration ``0007_match_analyses``), and every read and write of it.

A row is claimed ``running`` before any work starts, so two requests (or two workers of
a cluster) never run the same match's analysis at once; its progress is written as it
goes, and only a complete result is ever ``done``. A server that stops with an analysis
running marks it ``interrupted`` (and one killed outright has it so marked at its next
start), so a half analysis is never shown as finished and can be asked for again.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from skydeck.server.storage import metadata

#: The states of a row; ``failed`` and ``interrupted`` may be started again.
STATUSES = ("running", "done", "failed", "interrupted")
RESTARTABLE = ("failed", "interrupted")

match_analyses = Table(
    "match_analyses",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("status", String(12), nullable=False),
    # Tasks finished and planned (0 of 0 while the match is being walked).
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    # Which server runs it ("" for a lone server, the worker's name in a cluster):
    # only its owner marks it interrupted at start-up.
    Column("owner", String(64), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("result", JSON, nullable=True),
    Column("error", String(500), nullable=True),
    Column("started", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


class AnalysisStore:
    """Every method is one committed transaction (called off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, match_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(match_analyses).where(match_analyses.c.match_id == match_id)
            ).first()
        return dict(row._mapping) if row is not None else None

    def claim(self, match_id: str, owner: str, settings: dict[str, Any]) -> bool:
        """Mark the match's analysis running for ``owner``; False when it already runs
        or is done (the caller then reads what is there)."""
        now = time.time()
        fresh = {
            "status": "running",
            "done": 0,
            "total": 0,
            "owner": owner,
            "settings": settings,
            "result": None,
            "error": None,
            "started": now,
            "updated": now,
        }
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    update(match_analyses)
                    .where(
                        match_analyses.c.match_id == match_id,
                        match_analyses.c.status.in_(RESTARTABLE),
                    )
                    .values(**fresh)
                ).rowcount
                if changed:
                    return True
                there = conn.execute(
                    select(match_analyses.c.status).where(match_analyses.c.match_id == match_id)
                ).first()
                if there is not None:
                    return False
                conn.execute(insert(match_analyses).values(match_id=match_id, **fresh))
        except IntegrityError:  # another worker inserted it meanwhile
            return False
        return True

    def progress(self, match_id: str, done: int, total: int) -> None:
        self._set(match_id, done=done, total=total)

    def finish(self, match_id: str, result: dict[str, Any], total: int) -> None:
        self._set(match_id, status="done", done=total, total=total, result=result)

    def fail(self, match_id: str, error: str, interrupted: bool = False) -> None:
        self._set(match_id, status="interrupted" if interrupted else "failed", error=error[:500])

    def interrupt_running(self, owner: str) -> int:
        """Mark ``owner``'s running analyses interrupted (a start-up or a stop): their
        work is lost with the process that did it. Returns how many."""
        with self.engine.begin() as conn:
            return conn.execute(
                update(match_analyses)
                .where(match_analyses.c.status == "running", match_analyses.c.owner == owner)
                .values(
                    status="interrupted",
                    error="the server stopped before the analysis was finished",
                    updated=time.time(),
                )
            ).rowcount

    def _set(self, match_id: str, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(match_analyses)
                .where(match_analyses.c.match_id == match_id, match_analyses.c.status == "running")
                .values(updated=time.time(), **values)
            )
