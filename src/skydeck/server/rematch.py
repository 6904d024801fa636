"""A rematch: the same people (and bots) in a new match of the same game, set-up and
settings, every seat moved on by one (seat i's player takes seat i + 1, the last the
first), so who moves first changes. One per finished match, whichever of its players
asks first, on whichever worker: the ``rematches`` row is the claim."""

from __future__ import annotations

import time
from typing import Any, Literal

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from skydeck.server.people_tables import rematches


def rotated(seats: list[dict[str, Any]], held: dict[int, int],
            names: dict[int, str]) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The new match's seats (a lobby request's) and seat -> account: old seat i goes
    to seat i + 1 (mod n). ``names``: account id -> its name now."""
    n = len(seats)
    out: list[dict[str, Any]] = [{} for _ in range(n)]
    new_held: dict[int, int] = {}
    for i, s in enumerate(seats):
        j = (i + 1) % n
        if s.get("kind") == "ai":
            out[j] = {"kind": "ai", "agent": s.get("agent"), "name": s.get("name", "")}
        else:
            out[j] = {"kind": "human", "name": names.get(held[i], s.get("name", ""))}
        if i in held:
            new_held[j] = held[i]
    return out, new_held


class Rematches:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def claim(self, match_id: str) -> tuple[Literal["ours", "made", "making"], str | None]:
        """``ours``: this request makes the rematch; ``made``: it exists (its id);
        ``making``: another request is making it now."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(rematches).values(match_id=match_id, new_match_id=None,
                                                      t=time.time()))
            return "ours", None
        except IntegrityError:
            pass
        with self.engine.connect() as conn:
            made = conn.execute(
                select(rematches.c.new_match_id).where(rematches.c.match_id == match_id)
            ).scalar()
        return ("made", str(made)) if made else ("making", None)

    def made(self, match_id: str, new_match_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(rematches).where(rematches.c.match_id == match_id)
                         .values(new_match_id=new_match_id))

    def failed(self, match_id: str) -> None:
        """The rematch could not be made: the next request tries again."""
        with self.engine.begin() as conn:
            conn.execute(delete(rematches).where(rematches.c.match_id == match_id,
                                                 rematches.c.new_match_id.is_(None)))
