"""Failed sign-ins back off, per name and per address, in the database.

Each failure counts against the name tried and the client's address; past a few free
tries (``FREE_BY_NAME``, ``FREE_BY_ADDRESS``) every further failure closes that key for
twice as long as the last (1 s, 2 s, 4 s, ... at most ``MAX_WAIT``), and while a key is
closed every attempt is refused (429) before the password is checked, a right one too:
a guesser gains nothing from a lucky guess during the wait. A key is forgotten after
``FORGET`` without a failure, a name's at once when its owner signs in. Counted in the
database (not in one process) so that the workers of a cluster back off alike; the
per-address moving window of ``guard.Limiter`` ("signin") caps the attempts on top.
"""

from __future__ import annotations

import hashlib
import math

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from skydeck.server.people_tables import signin_failures

FREE_BY_NAME = 5
FREE_BY_ADDRESS = 20
MAX_WAIT = 15 * 60.0
FORGET = 3600.0


def name_key(folded_name: str) -> str:
    return f"name:{folded_name[:64]}"


def address_key(address: str) -> str:
    """An address is kept as a digest, as a match's creator is."""
    return "addr:" + hashlib.sha256(f"skydeck-signin:{address}".encode()).hexdigest()[:32]


def wait_after(failures: int, free: int) -> float:
    """Seconds a key stays closed after its ``failures``-th failure."""
    if failures < free:
        return 0.0
    return min(MAX_WAIT, 2.0 ** (failures - free))


class Backoff:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def closed_for(self, keys: list[str], now: float) -> float:
        """Seconds until every key is open again (0: open now)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(signin_failures.c.until).where(signin_failures.c.key.in_(keys))
            ).all()
        return max([0.0, *[r.until - now for r in rows]])

    def fail(self, keys: list[tuple[str, int]], now: float) -> None:
        """One failure against each (key, free tries) pair (tried again once when two
        workers made the same key's first row at once)."""
        try:
            self._fail(keys, now)
        except IntegrityError:
            self._fail(keys, now)

    def _fail(self, keys: list[tuple[str, int]], now: float) -> None:
        with self.engine.begin() as conn:
            for key, free in keys:
                row = conn.execute(
                    select(signin_failures).where(signin_failures.c.key == key)
                ).first()
                if row is None or now - row.last > FORGET:
                    failures = 1
                    conn.execute(delete(signin_failures).where(signin_failures.c.key == key))
                    conn.execute(
                        insert(signin_failures).values(
                            key=key, failures=1, last=now, until=now + wait_after(1, free)
                        )
                    )
                    continue
                failures = row.failures + 1
                conn.execute(
                    update(signin_failures)
                    .where(signin_failures.c.key == key)
                    .values(failures=failures, last=now, until=now + wait_after(failures, free))
                )

    def forget(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(signin_failures).where(signin_failures.c.key == key))


def retry_text(seconds: float) -> str:
    return f"try again in {max(1, math.ceil(seconds))} s"
