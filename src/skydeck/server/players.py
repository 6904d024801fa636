"""What anybody may read about a player: the profile (ratings and their history,
results against each opponent, Stellarion's results per set-up, current matches), the
match list (paged, by game and result) and the leaderboards. Reads only; every list is
bounded and walks an index (``match_players`` by account and time, ``ratings`` by game
and number)."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import Engine, and_, func, select

from skydeck.server.accounts import Account, _account, name_key
from skydeck.server.people_tables import accounts, match_players, rating_history, ratings
from skydeck.server.ratings import PROVISIONAL_GAMES, cooperative_games, rating_json
from skydeck.server.storage import matches

RESULTS = ("win", "loss", "draw", "abandoned")
MAX_PAGE = 100
HISTORY_POINTS = 500
OPPONENT_MATCHES = 1000


def by_name(engine: Engine, name: str) -> Account | None:
    """An account by name, bots too; deleted ones are not found by name."""
    if len(name) > 64:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            select(accounts).where(accounts.c.name_key == name_key(name),
                                   accounts.c.deleted.is_(None))
        ).first()
    return _account(row) if row is not None else None


def _match_rows(engine: Engine, account_id: int, where: list[Any], limit: int,
                offset: int) -> list[dict[str, Any]]:
    mp = match_players
    q = (
        select(mp, matches.c.status, matches.c.seats, matches.c.options)
        .join(matches, matches.c.id == mp.c.match_id)
        .where(mp.c.account_id == account_id, *where)
        .order_by(mp.c.created.desc(), mp.c.match_id)
        .limit(limit)
        .offset(offset)
    )
    with engine.connect() as conn:
        rows = conn.execute(q).all()
    out = []
    for r in rows:
        seats = list(r.seats)
        out.append(
            {
                "match": r.match_id,
                "game": r.game,
                "seat": r.seat,
                "status": r.status,
                "rated": bool(r.rated),
                "created": r.created,
                "ended": r.ended,
                "result": r.result,
                "rank": r.rank,
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
                "players": [s.get("name") for s in seats],
                "link": f"/m/{r.match_id}",
                "replay": f"/r/{r.match_id}",
            }
        )
    return out


def player_matches(engine: Engine, account: Account, game: str | None = None,
                   result: str | None = None, status: str | None = None, page: int = 1,
                   per_page: int = 20) -> dict[str, Any]:
    """One page of an account's matches, newest first. ``status``: live, finished."""
    if result is not None and result not in RESULTS:
        raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {result!r}")
    if status not in (None, "live", "finished"):
        raise ValueError(f"status must be live or finished, got {status!r}")
    if page < 1 or not 1 <= per_page <= MAX_PAGE:
        raise ValueError(f"page starts at 1; per_page is 1 to {MAX_PAGE}")
    where: list[Any] = []
    if game is not None:
        where.append(match_players.c.game == game)
    if result is not None:
        where.append(match_players.c.result == result)
    if status == "live":
        where.append(matches.c.status == "live")
    elif status == "finished":
        where.append(matches.c.status != "live")
    rows = _match_rows(engine, account.id, where, per_page + 1, (page - 1) * per_page)
    return {"page": page, "per_page": per_page, "more": len(rows) > per_page,
            "matches": rows[:per_page]}


def _opponents(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """Results against each account met in the last ``OPPONENT_MATCHES`` finished
    matches (a draw: the same rank)."""
    me = match_players.alias("me")
    them = match_players.alias("them")
    mine = (
        select(me.c.match_id, me.c.rank)
        .where(me.c.account_id == account_id, me.c.rank.is_not(None))
        .order_by(me.c.created.desc())
        .limit(OPPONENT_MATCHES)
        .subquery()
    )
    q = (
        select(accounts.c.name, accounts.c.kind, mine.c.rank, them.c.rank.label("their"))
        .select_from(mine)
        .join(them, and_(them.c.match_id == mine.c.match_id,
                         them.c.account_id != account_id, them.c.rank.is_not(None)))
        .join(accounts, accounts.c.id == them.c.account_id)
    )
    table: dict[str, dict[str, Any]] = {}
    with engine.connect() as conn:
        for r in conn.execute(q):
            row = table.setdefault(r.name, {"name": r.name, "kind": r.kind, "won": 0,
                                            "lost": 0, "drawn": 0})
            key = "won" if r.rank < r.their else "lost" if r.rank > r.their else "drawn"
            row[key] += 1
    return sorted(table.values(), key=lambda o: -(o["won"] + o["lost"] + o["drawn"]))[:50]


def coop_stats(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """Stellarion's results per set-up: played, won, win rate, the fewest moves of a
    win, the current and the longest winning streak."""
    mp = match_players
    with engine.connect() as conn:
        rows = conn.execute(
            select(mp.c.game, mp.c.setup, mp.c.result, mp.c.moves)
            .where(mp.c.account_id == account_id, mp.c.game.in_(cooperative_games()),
                   mp.c.result.in_(["win", "loss"]))
            .order_by(mp.c.ended)
        ).all()
    stats: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        s = stats.setdefault((r.game, r.setup), {
            "game": r.game, "setup": orjson.loads(r.setup), "played": 0, "won": 0,
            "fewest_moves": None, "streak": 0, "best_streak": 0})
        s["played"] += 1
        if r.result == "win":
            s["won"] += 1
            s["streak"] += 1
            s["best_streak"] = max(s["best_streak"], s["streak"])
            if r.moves is not None and (s["fewest_moves"] is None or r.moves < s["fewest_moves"]):
                s["fewest_moves"] = r.moves
        else:
            s["streak"] = 0
    for s in stats.values():
        s["win_rate"] = round(s["won"] / s["played"], 3)
    return sorted(stats.values(), key=lambda s: -s["played"])


def history(engine: Engine, account_id: int) -> dict[str, list[list[float]]]:
    """(time, shown rating) points per game, the last ``HISTORY_POINTS`` of each."""
    out: dict[str, list[list[float]]] = {}
    with engine.connect() as conn:
        games = [r[0] for r in conn.execute(
            select(ratings.c.game).where(ratings.c.account_id == account_id))]
        for game in games:
            rows = conn.execute(
                select(rating_history.c.t, rating_history.c.shown)
                .where(rating_history.c.account_id == account_id,
                       rating_history.c.game == game)
                .order_by(rating_history.c.t.desc())
                .limit(HISTORY_POINTS)
            ).all()
            # (Row.t is SQLAlchemy's tuple accessor, not the column)
            out[game] = [[r._mapping["t"], r._mapping["shown"]] for r in reversed(rows)]
    return out


def profile(engine: Engine, account: Account) -> dict[str, Any]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(ratings).where(ratings.c.account_id == account.id).order_by(ratings.c.game)
        ).all()
        counts = conn.execute(
            select(match_players.c.result, func.count())
            .where(match_players.c.account_id == account.id)
            .group_by(match_players.c.result)
        ).all()
    totals = {str(r[0] or "live"): int(r[1]) for r in counts}
    return {
        **account.public(),
        "ratings": [rating_json(r) for r in rows],
        "history": history(engine, account.id),
        "totals": totals,
        "opponents": _opponents(engine, account.id),
        "coop": coop_stats(engine, account.id),
        "current": player_matches(engine, account, status="live", per_page=50)["matches"],
    }


def leaderboard(engine: Engine, game: str, limit: int = 50,
                provisional: bool = False) -> list[dict[str, Any]]:
    """The best ratings of a game: the settled ones (``provisional`` too if asked)."""
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit is 1 to {MAX_PAGE}")
    q = (
        select(ratings, accounts.c.name, accounts.c.kind)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(ratings.c.game == game, accounts.c.deleted.is_(None))
        .order_by(ratings.c.shown.desc(), accounts.c.name)
        .limit(limit)
    )
    if not provisional:
        q = q.where(ratings.c.games >= PROVISIONAL_GAMES)
    with engine.connect() as conn:
        rows = conn.execute(q).all()
    return [
        {"place": i + 1, "name": r.name, "kind": r.kind, **rating_json(r)}
        for i, r in enumerate(rows)
    ]


def bot_ratings(engine: Engine) -> dict[str, dict[str, dict[str, Any]]]:
    """The rating of each AI level's bot account in every game it has played rated
    (game -> agent spec -> rating), in one query, for the lobby to say how strong each
    level plays; levels never rated are left out."""
    q = (
        select(ratings, accounts.c.agent)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(accounts.c.kind == "bot", accounts.c.agent.is_not(None))
    )
    out: dict[str, dict[str, dict[str, Any]]] = {}
    with engine.connect() as conn:
        for r in conn.execute(q).all():
            out.setdefault(str(r.game), {})[str(r.agent)] = rating_json(r)
    return out
