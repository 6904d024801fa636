"""Durable storage of match records: header, action log and clock deadlines.

A match is event-sourced: the header (game, options, seed, seats) plus the ordered
action log rebuild every state, and the deadlines rebuild every clock. Nothing lives
only in memory, so a server killed at any moment restarts where it stood. Each write is
one transaction that is committed before the move is acknowledged to anybody; the
moves of several matches may share one transaction (``append_actions``, group commit).

SQLite (a file, WAL mode) is the default; any SQLAlchemy URL works (PostgreSQL through
psycopg). The schema is created and upgraded by the Alembic migrations in
``skydeck/server/migrations``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)

from skydeck.server.messages import dumps

DEFAULT_URL_ENV = "SKYDECK_DATABASE_URL"
#: WAL pages between automatic checkpoints of a SQLite database (SQLite's default: 1000).
WAL_CHECKPOINT_PAGES = 10_000
#: SQLite's synchronous level: FULL (2) fsyncs the WAL at every commit.
SQLITE_SYNCHRONOUS = "FULL"

metadata = MetaData()

matches = Table(
    "matches",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),
    # A digest of the creating client's address (``seats.creator_key``): its unfinished
    # matches are counted against ``Settings.max_unfinished``. None: made by a tool.
    Column("creator", String(64), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("t", Float, nullable=False),
)

deadlines = Table(
    "deadlines",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("key", String(120), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("due", Float, nullable=False),
    Column("action", JSON, nullable=True),
)


@dataclass
class Deadline:
    """A clock running on a seat: at ``due`` (epoch seconds) the server acts for it.

    ``action`` is the rule-defined consequence (the engine's timeout action); None means
    the server plays a random legal action for the seat (the optional per-move clock).
    """

    key: str
    seat: int
    due: float
    action: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat, "due": self.due, "action": self.action}


@dataclass(slots=True)
class PendingWrite:
    """One applied move waiting for the group commit (see ``Storage.append_actions``).
    ``deadlines`` None: the clocks did not change; ``status_changed`` False: the header
    row is left alone."""

    match_id: str
    idx: int
    seat: int
    action: dict[str, Any]
    t: float
    status: str
    deadlines: list[Deadline] | None
    status_changed: bool


@dataclass(slots=True)
class ClockWrite:
    """Clocks that changed outside a move (a clock waiting for its seat started when the
    seat connected), stored with the next group commit (``Storage.append_actions``)."""

    match_id: str
    deadlines: list[Deadline]


@dataclass
class StoredMatch:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    status: str
    created: float
    updated: float
    version: int
    actions: list[tuple[int, dict[str, Any], float]] = field(default_factory=list)
    deadlines: list[Deadline] = field(default_factory=list)
    creator: str | None = None


def default_url() -> str:
    url = os.environ.get(DEFAULT_URL_ENV)
    if url:
        return url
    folder = Path(os.environ.get("SKYDECK_DATA", "skydeck-data"))
    return f"sqlite:///{folder / 'skydeck.sqlite'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).expanduser().parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    is_sqlite = url.startswith("sqlite")
    # JSON columns (each move's action) written and read with orjson: the writer
    # thread's CPU per move.
    kwargs: dict[str, Any] = {"json_serializer": dumps, "json_deserializer": orjson.loads}
    if is_sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if is_sqlite:

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: every commit fsyncs the WAL, so an acknowledged move survives a power
            # cut, not only a killed process (NORMAL would lose the last commits). The
            # hub's group commit makes that one fsync per turn of the event loop, shared
            # by every move of that turn, not one per move.
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            # A checkpoint (WAL copied into the database file) costs two fsyncs, paid by
            # whichever commit crosses the threshold, while every match waits. At the
            # default 1,000 pages a busy server paid it every ~30 group commits (5% of
            # them took 5-15 ms); at 10,000 pages (a WAL of up to ~40 MB) it is ten
            # times rarer and the fsyncs cost less in total. Durability is unchanged:
            # a commit is in the WAL either way.
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Storage:
    """All database access of the server. Every method is one committed transaction."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        migrate(self.engine)
        # Statements built once: the per-move path only binds parameters.
        self._insert_action = insert(actions)
        self._insert_deadline = insert(deadlines)
        # One match per parameter set (executemany): an IN list would be rendered anew
        # for every batch size.
        self._delete_deadlines = delete(deadlines).where(deadlines.c.match_id == bindparam("mid"))
        self._touch = (
            update(matches)
            .where(matches.c.id == bindparam("mid"))
            .values(status=bindparam("st"), updated=bindparam("at"))
        )
        # The group commit's statements in the driver's own parameter style (sqlite3:
        # qmark; psycopg: format).
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._batch_sql = {
            name: text.replace("?", mark)
            for name, text in {
                "action": "INSERT INTO actions (match_id, idx, seat, action, t) "
                "VALUES (?, ?, ?, ?, ?)",
                "touch": "UPDATE matches SET status = ?, updated = ? WHERE id = ?",
                "delete_deadlines": "DELETE FROM deadlines WHERE match_id = ?",
                "deadline": 'INSERT INTO deadlines (match_id, "key", seat, due, action) '
                "VALUES (?, ?, ?, ?, ?)",
            }.items()
        }

    def close(self) -> None:
        self.engine.dispose()

    def durability(self) -> str:
        """How a commit reaches the disk, as the database itself reports it (printed by
        ``skydeck serve``; an acknowledged move must survive a power cut)."""
        with self.engine.connect() as conn:
            if self.engine.dialect.name == "sqlite":
                level = conn.exec_driver_sql("PRAGMA synchronous").scalar()
                mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
                names = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
                return f"sqlite journal_mode={mode} synchronous={names.get(int(level or 0), level)}"
            if self.engine.dialect.name == "postgresql":
                sync = conn.exec_driver_sql("SHOW synchronous_commit").scalar()
                fsync = conn.exec_driver_sql("SHOW fsync").scalar()
                return f"postgresql synchronous_commit={sync} fsync={fsync}"
            return self.engine.dialect.name

    # --- writes ----------------------------------------------------------------------
    def create_match(self, m: StoredMatch) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(matches).values(**self._match_row(m)))
            self._write_deadlines(conn, m.id, m.deadlines)

    @staticmethod
    def _match_row(m: StoredMatch) -> dict[str, Any]:
        """The ``matches`` row of a new match (its actions and clocks go elsewhere)."""
        return {
            "id": m.id,
            "game": m.game,
            "options": m.options,
            "seed": m.seed,
            "seats": m.seats,
            "settings": m.settings,
            "status": m.status,
            "created": m.created,
            "updated": m.updated,
            "version": m.version,
            "creator": m.creator,
        }

    def append_action(
        self,
        match_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        t: float,
        status: str,
        deadlines_now: list[Deadline] | None,
        status_changed: bool = True,
    ) -> None:
        """Log action number ``idx`` and the clocks it leaves running, atomically.
        ``deadlines_now`` None: the clocks did not change; ``status_changed`` False: the
        header row is left alone (a single INSERT in the common case)."""
        with self.engine.begin() as conn:
            conn.execute(
                self._insert_action,
                {"match_id": match_id, "idx": idx, "seat": seat, "action": action, "t": t},
            )
            if status_changed:
                conn.execute(self._touch, {"mid": match_id, "st": status, "at": time.time()})
            if deadlines_now is not None:
                self._write_deadlines(conn, match_id, deadlines_now)

    def append_actions(self, moves: Sequence[PendingWrite | ClockWrite | StoredMatch]) -> None:
        """Group commit: log several moves (of one or many matches) in ONE transaction,
        with the matches created and the clocks changed meanwhile (``StoredMatch``,
        ``ClockWrite``; a match's clocks are the last written, in list order). Either
        everything is stored or nothing is; the caller acknowledges only after this
        returns.

        The hot write of the server, so it hands the driver plain rows (the JSON
        encoded here, once) through its own ``executemany``: SQLAlchemy's statement
        execution built each row's parameters in Python, three quarters of this
        thread's CPU per move. The statements are the same as the Core ones."""
        if not moves:
            return
        sql = self._batch_sql
        now = time.time()
        rows = []
        touched = []
        created = []
        # Only the last clocks of each match count; all matches' in two statements.
        clocks: dict[str, list[Deadline]] = {}
        for m in moves:
            if type(m) is PendingWrite:
                rows.append((m.match_id, m.idx, m.seat, dumps(m.action), m.t))
                if m.deadlines is not None:
                    clocks[m.match_id] = m.deadlines
                if m.status_changed:
                    touched.append((m.status, now, m.match_id))
            elif type(m) is ClockWrite:
                clocks[m.match_id] = m.deadlines
            else:
                assert type(m) is StoredMatch
                created.append(m)
                if m.deadlines:
                    clocks[m.id] = m.deadlines
        with self.engine.begin() as conn:
            if created:  # rare beside moves: the Core statement, JSON columns and all
                conn.execute(insert(matches), [self._match_row(m) for m in created])
            if rows:
                conn.exec_driver_sql(sql["action"], rows)
            if touched:
                conn.exec_driver_sql(sql["touch"], touched)
            if clocks:
                conn.exec_driver_sql(sql["delete_deadlines"], [(mid,) for mid in clocks])
                deadline_rows = [
                    (mid, d.key, d.seat, d.due, dumps(d.action))
                    for mid, now_running in clocks.items()
                    for d in now_running
                ]
                if deadline_rows:
                    conn.exec_driver_sql(sql["deadline"], deadline_rows)

    def remove_last_action(
        self, match_id: str, idx: int, status: str, deadlines_now: list[Deadline]
    ) -> None:
        """Undo: drop action ``idx`` (it must be the last one)."""
        with self.engine.begin() as conn:
            last = conn.execute(
                select(func.max(actions.c.idx)).where(actions.c.match_id == match_id)
            ).scalar()
            if last != idx:
                raise ValueError(f"match {match_id}: action #{idx} is not the last one ({last})")
            conn.execute(
                delete(actions).where(actions.c.match_id == match_id, actions.c.idx == idx)
            )
            conn.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(status=status, updated=time.time())
            )
            self._write_deadlines(conn, match_id, deadlines_now)

    def set_deadlines(self, match_id: str, deadlines_now: list[Deadline]) -> None:
        with self.engine.begin() as conn:
            self._write_deadlines(conn, match_id, deadlines_now)

    def set_status(self, match_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(status=status, updated=time.time())
            )

    @staticmethod
    def _write_deadlines(conn: Any, match_id: str, deadlines_now: list[Deadline]) -> None:
        conn.execute(delete(deadlines).where(deadlines.c.match_id == match_id))
        if deadlines_now:
            conn.execute(
                insert(deadlines),
                [
                    {
                        "match_id": match_id,
                        "key": d.key,
                        "seat": d.seat,
                        "due": d.due,
                        "action": d.action,
                    }
                    for d in deadlines_now
                ],
            )

    # --- reads -----------------------------------------------------------------------
    def load(self, match_id: str) -> StoredMatch | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None:
                return None
            return self._full(conn, row)

    def live_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id).where(matches.c.status == "live").order_by(matches.c.created)
            )
            return [r[0] for r in rows]

    def recent(self, limit: int = 50) -> list[StoredMatch]:
        """The newest matches, headers only (no action log)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(matches).order_by(matches.c.created.desc()).limit(limit))
            return [self._header(r) for r in rows]

    def unfinished_by(self, creator: str) -> int:
        """How many live matches ``creator`` has made (the cap on one client's)."""
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count())
                .select_from(matches)
                .where(matches.c.creator == creator, matches.c.status == "live")
            ).scalar()
            return int(n or 0)

    def abandon_idle(
        self, before: float, spare: Callable[[dict[str, Any]], bool] | None = None
    ) -> list[str]:
        """Mark ``abandoned`` every live match whose last move (or, with none, its
        creation) is older than ``before`` (epoch seconds), and drop its clocks; the
        ids so marked. Its record stays: it replays, it is just no longer live.
        ``spare``: matches whose settings it accepts are left alone (correspondence)."""
        last = (
            select(func.max(actions.c.t))
            .where(actions.c.match_id == matches.c.id)
            .scalar_subquery()
        )
        idle = (
            select(matches.c.id, matches.c.settings)
            .where(matches.c.status == "live", func.coalesce(last, matches.c.created) < before)
        )
        with self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(idle) if spare is None or not spare(dict(r[1]))]
            if ids:
                conn.execute(
                    update(matches)
                    .where(matches.c.id.in_(ids), matches.c.status == "live")
                    .values(status="abandoned", updated=time.time())
                )
                conn.execute(delete(deadlines).where(deadlines.c.match_id.in_(ids)))
        return ids

    def abandon(self, match_id: str) -> None:
        """One live match abandoned (the hub's sweep of the matches in memory)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(matches)
                .where(matches.c.id == match_id, matches.c.status == "live")
                .values(status="abandoned", updated=time.time())
            )
            conn.execute(delete(deadlines).where(deadlines.c.match_id == match_id))

    def action_count(self, match_id: str) -> int:
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count()).select_from(actions).where(actions.c.match_id == match_id)
            ).scalar()
            return int(n or 0)

    @staticmethod
    def _header(row: Any) -> StoredMatch:
        return StoredMatch(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            seed=int(row.seed),
            seats=list(row.seats),
            settings=dict(row.settings),
            status=row.status,
            created=row.created,
            updated=row.updated,
            version=row.version,
            creator=row.creator,
        )

    def _full(self, conn: Any, row: Any) -> StoredMatch:
        m = self._header(row)
        for a in conn.execute(
            select(actions).where(actions.c.match_id == m.id).order_by(actions.c.idx)
        ):
            row_map = a._mapping  # (Row.t is SQLAlchemy's tuple accessor, not our column)
            m.actions.append((row_map["seat"], row_map["action"], row_map["t"]))
        for d in conn.execute(
            select(deadlines).where(deadlines.c.match_id == m.id).order_by(deadlines.c.key)
        ):
            m.deadlines.append(Deadline(d.key, d.seat, d.due, d.action))
        return m
