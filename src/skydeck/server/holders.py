"""The seats accounts hold (``match_players``): made with a rated match, claimed with a
seat token by a person signed in, read when a signed-in person opens a match from any
browser (the session stands in for the token) and when a match ends.

Only signed-in people and rated matches reach this module: a guest's match is never
looked up here while it is played.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from skydeck.server.people_tables import match_players
from skydeck.server.seats import token_matches
from skydeck.server.storage import matches

#: Matches one sign-in may claim seats of (a browser's saved links).
MAX_CLAIMS = 200


def setup_key(options: dict[str, Any]) -> str:
    """A match's options as canonical JSON (Stellarion's results are per set-up)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"), default=str)[:400]


def hold(
    conn: Connection,
    match_id: str,
    seat: int,
    account_id: int,
    game: str,
    options: dict[str, Any],
    rated: bool,
) -> None:
    conn.execute(
        insert(match_players).values(
            match_id=match_id, seat=seat, account_id=account_id, game=game,
            setup=setup_key(options), rated=rated, created=time.time(),
        )
    )


class Holders:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def hold_many(
        self, match_id: str, game: str, options: dict[str, Any], rated: bool,
        seats: dict[int, int],
    ) -> None:
        """Seats of a new match, each to its account."""
        with self.engine.begin() as conn:
            for seat, account_id in seats.items():
                hold(conn, match_id, seat, account_id, game, options, rated)

    def of_match(self, match_id: str) -> dict[int, int]:
        """seat -> account id, for the seats held in a match."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(match_players.c.seat, match_players.c.account_id).where(
                    match_players.c.match_id == match_id
                )
            ).all()
        return {int(r.seat): int(r.account_id) for r in rows}

    def claim(
        self, account_id: int, match_id: str, seats: frozenset[int], rated: bool,
        name: str | None = None,
    ) -> tuple[frozenset[int], list[str], list[int]]:
        """Make ``seats`` of a match (opened by their tokens) the account's where nobody
        holds them, each renamed ``name`` (the account's) in storage; the seats it holds
        in the match after that, why others were not taken, and the seats newly taken.
        In a rated match a person holds one seat at most."""
        problems: list[str] = []
        taken: list[int] = []
        with self.engine.begin() as conn:
            row = conn.execute(
                select(matches.c.game, matches.c.options, matches.c.settings, matches.c.seats)
                .where(matches.c.id == match_id)
            ).first()
            if row is None:
                return frozenset(), ["no such match"], []
            held = {
                int(r.seat): int(r.account_id)
                for r in conn.execute(
                    select(match_players.c.seat, match_players.c.account_id).where(
                        match_players.c.match_id == match_id
                    )
                )
            }
            mine = {s for s, a in held.items() if a == account_id}
            for seat in sorted(seats):
                if seat in held:
                    if held[seat] != account_id:
                        problems.append(f"Player {seat + 1}'s seat belongs to someone else")
                    continue
                if rated and mine:
                    problems.append("in a rated match one person holds one seat")
                    continue
                try:
                    with conn.begin_nested():
                        hold(conn, match_id, seat, account_id, row.game, dict(row.options), rated)
                except IntegrityError:  # claimed this instant by someone else
                    problems.append(f"Player {seat + 1}'s seat belongs to someone else")
                    continue
                mine.add(seat)
                taken.append(seat)
            if taken and name is not None:
                renamed = [dict(x) for x in row.seats]
                for seat in taken:
                    renamed[seat]["name"] = name
                conn.execute(update(matches).where(matches.c.id == match_id).values(seats=renamed))
        return frozenset(mine), problems, taken

    def claim_tokens(
        self, account_id: int, claims: Any, name: str | None = None
    ) -> list[dict[str, Any]]:
        """The seats of ``claims`` ([{match, tokens}], a browser's saved seat tokens)
        whose token is right, made the account's; what was claimed, per match."""
        if not isinstance(claims, list):
            raise ValueError("'claim' must be a list of {match, tokens}")
        out = []
        for item in claims[:MAX_CLAIMS]:
            if not isinstance(item, dict):
                continue
            match_id, tokens = item.get("match"), item.get("tokens")
            if not isinstance(match_id, str) or len(match_id) > 40 or not isinstance(tokens, list):
                continue
            with self.engine.connect() as conn:
                row = conn.execute(
                    select(matches.c.seats, matches.c.settings, matches.c.status).where(
                        matches.c.id == match_id
                    )
                ).first()
            if row is None:
                continue
            opened = frozenset(
                i
                for i, s in enumerate(row.seats)
                if s.get("kind") == "human"
                and any(isinstance(t, str) and token_matches(t, s.get("token")) for t in tokens[:8])
            )
            if not opened:
                continue
            rated = bool(dict(row.settings).get("rated"))
            mine, _, taken = self.claim(account_id, match_id, opened, rated, name)
            if mine:
                out.append({"match": match_id, "seats": sorted(mine), "taken": taken})
        return out
