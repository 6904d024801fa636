"""Ratings: OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation),
one rating per account and game, updated once when a rated match ends.

Why OpenSkill: a match of Stellium or Stellar Conflict has 2-4 players and may end in
ties, which Elo (two players, win or lose) does not model; Weng-Lin rates a whole
ranking at once, with ties, and keeps an uncertainty per player (TrueSkill's idea,
without its patent). A rating is (mu, sigma), mu 25 and sigma 25/3 to start.

The number shown is the conservative estimate, scaled: ``shown = 1000 + 30 * (mu -
3 sigma)``. A newcomer shows 1000; a settled player of average skill (mu 25, sigma
about 2.5) about 1500; every game played narrows sigma, so the number rises as the
server grows sure. It is marked "provisional" until ``PROVISIONAL_GAMES`` rated games.

What counts (the rules of rated play, PROTOCOL.md "Ratings"):
- A match is rated when created so (``rated: true``) and, at its end, every seat is held
  by a different account (a person signed in, or an AI level's bot account); else it
  ends unrated, and says why (``match_outcomes.note``).
- The ranking: winners first, then by score; equal ones tie.
- A clock that runs out moves for its seat (the game's rule or a random legal move), so
  a match lost on time is rated like any other, as the board ends it.
- An abandoned match (no move for ``idle_expiry``) is a loss for the seats that owed a
  move and a shared win for the others; when every seat (or none) owed one, nothing
  changes.
- A co-operative game (``Capabilities.cooperative``: Stellarion) is never rated; its
  results are counted per set-up instead (win rate, best result, streaks: ``players.coop_stats``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from skydeck.registry import game_class, game_ids
from skydeck.server.people_tables import match_outcomes, match_players, rating_history, ratings

MODEL = PlackettLuce()
MU0, SIGMA0 = MODEL.mu, MODEL.sigma
PROVISIONAL_GAMES = 10
SHOWN_BASE, SHOWN_SCALE = 1000, 30


def cooperative(game: str) -> bool:
    """Whether the game's seats play together (its ``Capabilities.cooperative``): such a
    match ranks nobody and is never rated. An unknown game is not co-operative."""
    try:
        return game_class(game).capabilities.cooperative
    except (KeyError, ValueError):
        return False


def cooperative_games() -> list[str]:
    """The co-operative games on offer, for the profile's per-set-up results."""
    return [g for g in game_ids() if cooperative(g)]


def shown(mu: float, sigma: float) -> int:
    """The one number people see: the conservative estimate (mu - 3 sigma), scaled."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class SeatResult:
    result: str  # win, loss, draw, abandoned
    rank: int | None  # 1 = best; None: not ranked (an abandoned match nobody lost)
    score: float | None


def outcome(game: str, status: str, scores: list[float], winners: tuple[int, ...],
            to_move: tuple[int, ...], n: int) -> list[SeatResult]:
    """Each seat's result of a finished (``over``) or ``abandoned`` match."""
    if status == "abandoned":
        owed = set(to_move)
        # (A co-operative table has no winner among its seats: abandoned for all.)
        if not owed or len(owed) == n or cooperative(game):
            return [SeatResult("abandoned", None, None)] * n
        return [
            SeatResult("loss", 2, None) if s in owed else SeatResult("win", 1, None)
            for s in range(n)
        ]
    if cooperative(game) or n == 1:
        won = bool(winners)
        return [SeatResult("win" if won else "loss", 1, scores[s]) for s in range(n)]
    keys = [(s in winners, scores[s]) for s in range(n)]
    ranks = [1 + sum(other > keys[s] for other in keys) for s in range(n)]
    everyone_tied = len(set(ranks)) == 1
    return [
        SeatResult("draw" if everyone_tied else "win" if ranks[s] == 1 else "loss",
                   ranks[s], scores[s])
        for s in range(n)
    ]


def rate(current: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each seat, one-player teams ranked (lower is better, ties equal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in new]


def record_end(engine: Engine, match_id: str, game: str, rated: bool,
               results: list[SeatResult], moves: int) -> str | None:
    """Count a finished match once: its held seats' results, and (rated) the ratings.
    Returns why a rated match changed no rating (None when it did, or is unrated); a
    match counted already (by another worker, or before a restart) is left alone."""
    now = time.time()
    try:
        with engine.begin() as conn:
            anyone = conn.execute(
                select(match_players.c.seat).where(match_players.c.match_id == match_id).limit(1)
            ).first()
            if anyone is None and not rated:
                return None  # a guests' match: nothing to count
            conn.execute(
                insert(match_outcomes).values(match_id=match_id, rated=rated, note=None, t=now)
            )
            note = _count(conn, match_id, game, rated, results, moves, now)
            if note is not None:
                conn.execute(
                    update(match_outcomes)
                    .where(match_outcomes.c.match_id == match_id)
                    .values(rated=False, note=note)
                )
            return note
    except IntegrityError:
        return "counted already"


def _count(conn: Connection, match_id: str, game: str, rated: bool,
           results: list[SeatResult], moves: int, now: float) -> str | None:
    held = {
        int(r.seat): int(r.account_id)
        for r in conn.execute(
            select(match_players.c.seat, match_players.c.account_id).where(
                match_players.c.match_id == match_id
            )
        )
    }
    for seat in held:
        res = results[seat]
        conn.execute(
            update(match_players)
            .where(match_players.c.match_id == match_id, match_players.c.seat == seat)
            .values(result=res.result, rank=res.rank, score=res.score, moves=moves, ended=now)
        )
    if not rated:
        return None
    n = len(results)
    if cooperative(game) or n < 2:
        return "a co-operative or solo match is not rated"
    if len(held) < n:
        return "a seat was held by nobody signed in"
    if len(set(held.values())) < n:
        return "one account held two seats"
    if any(r.rank is None for r in results):
        return "abandoned with every seat (or none) owing a move"
    accounts = [held[s] for s in range(n)]
    before = {}
    for account_id in accounts:
        row = conn.execute(
            select(ratings).where(ratings.c.account_id == account_id, ratings.c.game == game)
        ).first()
        before[account_id] = (row.mu, row.sigma, row.games) if row else (MU0, SIGMA0, 0)
    new = rate([before[a][:2] for a in accounts], [int(results[s].rank or 0) for s in range(n)])
    for seat, account_id in enumerate(accounts):
        mu, sigma = new[seat]
        old_mu, old_sigma, games = before[account_id]
        values = {"mu": mu, "sigma": sigma, "shown": shown(mu, sigma), "games": games + 1,
                  "updated": now}
        if games == 0 and not conn.execute(
            select(ratings.c.account_id).where(
                ratings.c.account_id == account_id, ratings.c.game == game
            )
        ).first():
            conn.execute(insert(ratings).values(account_id=account_id, game=game, **values))
        else:
            conn.execute(
                update(ratings)
                .where(ratings.c.account_id == account_id, ratings.c.game == game)
                .values(**values)
            )
        conn.execute(
            insert(rating_history).values(
                account_id=account_id, game=game, match_id=match_id, t=now, mu=mu,
                sigma=sigma, shown=values["shown"],
            )
        )
        conn.execute(
            update(match_players)
            .where(match_players.c.match_id == match_id, match_players.c.seat == seat)
            .values(rating_before=shown(old_mu, old_sigma), rating_after=values["shown"])
        )
    return None


def rating_json(row: Any) -> dict[str, Any]:
    return {
        "game": row.game,
        "rating": int(row.shown),
        "provisional": int(row.games) < PROVISIONAL_GAMES,
        "games": int(row.games),
        "mu": round(float(row.mu), 3),
        "sigma": round(float(row.sigma), 3),
    }
