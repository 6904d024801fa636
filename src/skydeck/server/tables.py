"""Open tables: a signed-in person opens a table of a game, player count and set-up;
others take its seats; the match starts when every seat is taken. Listed in the lobby
unless private (then only its link, ``/?table=ID``, finds it).

A table is a row (``open_tables``), so every worker sees it. A seat is taken by a
conditional UPDATE on the row's ``version``: two people taking the last seat at once
cannot both get it, and whoever fills the table creates its match (``filled``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, insert, select, update

from skydeck.server.holders import setup_key
from skydeck.server.people_tables import open_tables
from skydeck.server.seats import new_match_id

#: Tables the lobby lists (the newest waiting ones).
LISTED = 50
#: Tables one person may have open (waiting) at once.
MAX_OPEN = 5


@dataclass(frozen=True)
class Table:
    id: str
    game: str
    options: dict[str, Any]
    host: int
    seats: list[int | None]
    settings: dict[str, Any]
    created: float
    version: int
    match_id: str | None

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)


def _table(row: Any) -> Table:
    return Table(row.id, row.game, json.loads(row.setup), row.host, list(json.loads(row.seats)),
                 dict(json.loads(row.settings)), row.created, row.version, row.match_id)


class TableTaken(ValueError):
    """The seat (or the table) changed meanwhile: the answer says what to do."""


class Tables:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def open(self, host: int, game: str, options: dict[str, Any],
             settings: dict[str, Any]) -> Table:
        with self.engine.connect() as conn:
            mine = conn.execute(
                select(open_tables.c.id).where(open_tables.c.host == host,
                                               open_tables.c.match_id.is_(None))
            ).all()
        if len(mine) >= MAX_OPEN:
            raise ValueError(f"you have {len(mine)} open tables, the most one person may "
                             f"have: close one first")
        seats: list[int | None] = [host] + [None] * (int(options["players"]) - 1)
        row = {
            "id": new_match_id(), "game": game, "setup": setup_key(options), "host": host,
            "seats": json.dumps(seats), "settings": json.dumps(settings, sort_keys=True),
            "private": bool(settings.get("private")), "created": time.time(), "version": 0,
            "match_id": None,
        }
        with self.engine.begin() as conn:
            conn.execute(insert(open_tables).values(**row))
        found = self.get(str(row["id"]))
        assert found is not None
        return found

    def get(self, table_id: str) -> Table | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(open_tables).where(open_tables.c.id == table_id)).first()
        return _table(row) if row is not None else None

    def listed(self) -> list[Table]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(open_tables)
                .where(open_tables.c.match_id.is_(None), open_tables.c.private.is_(False))
                .order_by(open_tables.c.created.desc())
                .limit(LISTED)
            ).all()
        return [_table(r) for r in rows]

    def _write(self, table: Table, seats: list[int | None]) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(open_tables)
                .where(open_tables.c.id == table.id, open_tables.c.version == table.version,
                       open_tables.c.match_id.is_(None))
                .values(seats=json.dumps(seats), version=table.version + 1)
            ).rowcount
        if not done:
            raise TableTaken("the table changed meanwhile (someone took or left a seat): "
                             "look again and retry")

    def take(self, table: Table, account_id: int, seat: int | None) -> Table:
        """Seat ``account_id`` (at ``seat``, else the first free one); the table after."""
        if table.match_id is not None:
            raise TableTaken(f"the table's match has started: /m/{table.match_id}")
        if account_id in table.seats:
            raise ValueError("you have a seat at this table already")
        free = [i for i, s in enumerate(table.seats) if s is None]
        if seat is None:
            if not free:
                raise TableTaken("every seat of this table is taken")
            seat = free[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ValueError(f"'seat' must be a seat number from 0 to {len(table.seats) - 1}")
        if table.seats[seat] is not None:
            raise TableTaken(f"seat {seat} is taken: free seats {free}")
        seats = list(table.seats)
        seats[seat] = account_id
        self._write(table, seats)
        after = self.get(table.id)
        assert after is not None
        return after

    def leave(self, table: Table, account_id: int) -> None:
        """Give the seat up; the host leaving closes the table (``match_id`` '-')."""
        if account_id not in table.seats:
            raise ValueError("you have no seat at this table")
        if account_id == table.host:
            with self.engine.begin() as conn:
                conn.execute(update(open_tables).where(open_tables.c.id == table.id,
                                                       open_tables.c.match_id.is_(None))
                             .values(match_id=CLOSED))
            return
        self._write(table, [None if s == account_id else s for s in table.seats])

    def started(self, table_id: str, match_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(open_tables).where(open_tables.c.id == table_id)
                         .values(match_id=match_id))

    def reopen(self, table: Table, seat: int) -> None:
        """The match of a full table could not be made: the seat that filled it is free
        again."""
        seats = list(table.seats)
        seats[seat] = None
        self._write(table, seats)


#: ``match_id`` of a table its host closed.
CLOSED = "-"
