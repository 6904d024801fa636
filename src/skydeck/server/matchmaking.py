""""Play now": a queue per game, player count and set-up that pairs signed-in people
by rating, the window widening while they wait, and offers a rated bot after a wait.

The queue lives in the database (``queue_entries``), not in a worker's memory: every
poll of every worker may pair the people waiting, so two who reached different
workers meet. A group is taken by one conditional UPDATE (``claim`` still empty on
every place), so two workers pairing at once never both take a person; the worker
that wins creates the match and writes its id on the places (``matched``).

Who meets whom: the longest waiter of a queue sets the window (``window`` of its
wait) and takes the people nearest its rating within it, the longest waiters first
on a tie. Rated unless the game is co-operative (then the window is moot: every
place has the same rating).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import DBAPIError

from skydeck.server.accounts import bot_name
from skydeck.server.holders import setup_key
from skydeck.server.people_tables import accounts, queue_entries, ratings
from skydeck.server.ratings import MU0, SIGMA0, shown
from skydeck.server.settings import Settings

#: The shown rating of someone who has not played the game rated yet.
UNRATED = shown(MU0, SIGMA0)


@dataclass(frozen=True)
class Place:
    """One person's place in a queue."""

    account_id: int
    game: str
    players: int
    setup: str
    rating: int
    joined: float
    match_id: str | None

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self.setup)
        return out


class _Taken(Exception):
    """A place of the group was claimed by another worker: the claim is rolled back."""


def _place(row: Any) -> Place:
    return Place(row.account_id, row.game, row.players, row.setup, row.rating, row.joined,
                 row.match_id)


class Matchmaking:
    """The queue's reads and writes (blocking: called from a thread). ``clock``: the
    time (a test's fake clock stands in for waiting)."""

    def __init__(self, engine: Engine, settings: Settings,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.settings = settings
        self.clock = clock

    def window(self, waited: float) -> float:
        """Rating points apart a place accepts after ``waited`` seconds."""
        s = self.settings
        return float(min(s.queue_window + s.queue_widen * max(waited, 0.0), s.queue_window_max))

    def rating(self, account_id: int, game: str) -> int:
        with self.engine.connect() as conn:
            got = conn.execute(
                select(ratings.c.shown).where(
                    ratings.c.account_id == account_id, ratings.c.game == game
                )
            ).scalar()
        return int(got) if got is not None else UNRATED

    def join(self, account_id: int, game: str, options: dict[str, Any], rated: bool) -> Place:
        """Take a place (a place held before, in any queue, is given up)."""
        now = self.clock()
        rating = self.rating(account_id, game) if rated else UNRATED
        with self.engine.begin() as conn:
            conn.execute(delete(queue_entries).where(queue_entries.c.account_id == account_id))
            conn.execute(
                insert(queue_entries).values(
                    account_id=account_id, game=game, players=int(options["players"]),
                    setup=setup_key(options), rating=rating, joined=now, polled=now,
                    claim=None, match_id=None,
                )
            )
        return Place(account_id, game, int(options["players"]), setup_key(options), rating,
                     now, None)

    def leave(self, account_id: int) -> bool:
        """Give the place up; False when there was none waiting (a match already made
        stays made: it is the person's to play)."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(queue_entries).where(
                    queue_entries.c.account_id == account_id, queue_entries.c.claim.is_(None)
                )
            ).rowcount
        return bool(gone)

    def place(self, account_id: int, touch: bool = False) -> Place | None:
        """The person's place (``touch``: a poll, which keeps a waiting place alive)."""
        with self.engine.begin() as conn:
            if touch:
                conn.execute(
                    update(queue_entries)
                    .where(queue_entries.c.account_id == account_id)
                    .values(polled=self.clock())
                )
            row = conn.execute(
                select(queue_entries).where(queue_entries.c.account_id == account_id)
            ).first()
        return _place(row) if row is not None else None

    def groups(self, game: str, players: int, setup: str) -> list[tuple[str, list[Place]]]:
        """Claim every group that can meet now in one queue: (claim id, places, the
        longest waiter first). Places nobody polled for ``queue_stale`` are dropped."""
        now = self.clock()
        key = (
            (queue_entries.c.game == game)
            & (queue_entries.c.players == players)
            & (queue_entries.c.setup == setup)
        )
        waiting = key & queue_entries.c.claim.is_(None) & queue_entries.c.match_id.is_(None)
        with self.engine.begin() as conn:
            conn.execute(
                delete(queue_entries).where(
                    waiting, queue_entries.c.polled < now - self.settings.queue_stale
                )
            )
            rows = [
                _place(r)
                for r in conn.execute(
                    select(queue_entries).where(waiting).order_by(queue_entries.c.joined)
                )
            ]
        out = []
        while len(rows) >= players:
            group = self._group(rows, players, now)
            if group is None:
                break
            claim = uuid.uuid4().hex
            ids = [p.account_id for p in group]
            try:
                with self.engine.begin() as conn:
                    taken = conn.execute(
                        update(queue_entries)
                        .where(queue_entries.c.account_id.in_(ids),
                               queue_entries.c.claim.is_(None),
                               queue_entries.c.match_id.is_(None))
                        .values(claim=claim)
                    ).rowcount
                    if taken != len(ids):
                        raise _Taken
            except (_Taken, DBAPIError):  # another worker took one of them first
                break
            out.append((claim, group))
            rows = [p for p in rows if p.account_id not in ids]
        return out

    def _group(self, rows: list[Place], players: int, now: float) -> list[Place] | None:
        for first in rows:  # the longest waiter first
            reach = self.window(now - first.joined)
            near = sorted(
                (p for p in rows if p is not first and abs(p.rating - first.rating) <= reach),
                key=lambda p: (abs(p.rating - first.rating), p.joined),
            )
            if len(near) >= players - 1:
                return [first, *near[: players - 1]]
        return None

    def claim_one(self, account_id: int) -> str | None:
        """Take one waiting place for a match against bots; its claim id, or None."""
        claim = uuid.uuid4().hex
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(queue_entries)
                .where(queue_entries.c.account_id == account_id,
                       queue_entries.c.claim.is_(None),
                       queue_entries.c.match_id.is_(None))
                .values(claim=claim)
            ).rowcount
        return claim if taken else None

    def matched(self, claim: str, match_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(queue_entries)
                .where(queue_entries.c.claim == claim)
                .values(match_id=match_id)
            )

    def release(self, claim: str) -> None:
        """A claimed group whose match could not be made waits again."""
        with self.engine.begin() as conn:
            conn.execute(
                update(queue_entries)
                .where(queue_entries.c.claim == claim, queue_entries.c.match_id.is_(None))
                .values(claim=None)
            )

    def bot_offer(self, place: Place, levels: list[str]) -> dict[str, Any] | None:
        """The bot offered once the place has waited ``queue_bot_after``: the AI level
        whose rating in the game is nearest the person's; None before then."""
        if place.match_id is not None or not levels:
            return None
        if self.clock() - place.joined < self.settings.queue_bot_after:
            return None
        names = {bot_name(level): level for level in levels}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, ratings.c.shown)
                .join(ratings, ratings.c.account_id == accounts.c.id)
                .where(accounts.c.kind == "bot", accounts.c.name.in_(list(names)),
                       ratings.c.game == place.game)
            ).all()
        rated = {r.name: int(r.shown) for r in rows}
        level = min(
            levels,
            key=lambda lv: (abs(rated.get(bot_name(lv), UNRATED) - place.rating),
                            levels.index(lv)),
        )
        return {"agent": level, "name": bot_name(level),
                "rating": rated.get(bot_name(level), UNRATED)}
