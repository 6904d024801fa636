"""The tables of people on Skydeck (accounts, sessions, seats they hold, ratings),
beside the match tables of ``storage`` in the same ``metadata``: one schema, one set
of Alembic migrations (``0003_people``).

Kept apart from ``storage`` because guest play never touches them: a match whose
seats nobody signed in holds costs not one query here until it ends.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
)

from skydeck.server.storage import metadata

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # The name as its owner wrote it, and its folded form (unique: "Ada" and "ada"
    # are one name). A deleted account keeps its row (its matches stay) with the
    # name "deleted player" and a folded key that frees the old name.
    Column("name", String(40), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    # "human" or "bot" (an AI level, "AI: hard": no password, never signs in).
    Column("kind", String(8), nullable=False),
    Column("agent", String(80), nullable=True),
    # Argon2id, PHC string format (parameters and salt inside); None for bots and
    # deleted accounts.
    Column("password", String(200), nullable=True),
    Column("created", Float, nullable=False),
    Column("deleted", Float, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 of the cookie's token: the database never holds a usable session.
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

signin_failures = Table(
    "signin_failures",
    metadata,
    # "name:<folded name>" or "addr:<digest of the address>": failed sign-ins counted
    # in the database, so every worker of a cluster backs off alike.
    Column("key", String(100), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last", Float, nullable=False),
    Column("until", Float, nullable=False),
)

match_players = Table(
    "match_players",
    metadata,
    # One row per seat an account holds (a person's or a bot's); filled in with the
    # result when the match ends. The match's own row keeps its seats as they were.
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game", String(40), nullable=False),
    # The options, as canonical JSON: Stellarion's results are counted per set-up.
    Column("setup", String(400), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    # None while the match is live; then "win", "loss", "draw" or "abandoned".
    Column("result", String(12), nullable=True),
    Column("rank", Integer, nullable=True),
    Column("score", Float, nullable=True),
    Column("moves", Integer, nullable=True),
    Column("ended", Float, nullable=True),
    # The shown rating before and after this match (rated matches only).
    Column("rating_before", Integer, nullable=True),
    Column("rating_after", Integer, nullable=True),
)
Index("ix_match_players_account", match_players.c.account_id, match_players.c.created)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    # The one number people see (``ratings.shown``), kept for the leaderboard's index.
    Column("shown", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("ix_ratings_board", ratings.c.game, ratings.c.shown)

rating_history = Table(
    "rating_history",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("t", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
)
Index("ix_rating_history_t", rating_history.c.account_id, rating_history.c.game, rating_history.c.t)

#: Matches whose result has been counted (ratings, results): each is counted once,
#: whichever worker sees it end, and a restart finds the ones still to count.
match_outcomes = Table(
    "match_outcomes",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    # Why a rated match changed no rating ("a seat nobody signed in held"...), or None.
    Column("note", String(200), nullable=True),
    Column("t", Float, nullable=False),
)

#: "Play now": one place per signed-in person waiting for a match of a game, player
#: count and set-up. Kept in the database, so people who reached different workers
#: meet: whichever worker pairs them claims their places (``claim``), creates the
#: match and writes its id here for every worker to answer with.
queue_entries = Table(
    "queue_entries",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    # The options (players included), as canonical JSON (``holders.setup_key``).
    Column("setup", String(400), nullable=False),
    # The shown rating of the game when the person joined (SHOWN_BASE if unrated).
    Column("rating", Integer, nullable=False),
    Column("joined", Float, nullable=False),
    Column("polled", Float, nullable=False),
    # Set by the worker pairing this place (a random id) until the match is made.
    Column("claim", String(40), nullable=True),
    # The match made for this place; the place stays until its owner leaves or rejoins.
    Column("match_id", String(40), nullable=True),
)
Index("ix_queue_waiting", queue_entries.c.game, queue_entries.c.players,
      queue_entries.c.setup, queue_entries.c.joined)

#: A finished match's rematch (the same people, seats rotated): one per match, whoever
#: asks first makes it (the row, its ``new_match_id`` empty, is the claim) and whoever
#: asks after is sent to it.
rematches = Table(
    "rematches",
    metadata,
    Column("match_id", String(40), ForeignKey("matches.id"), primary_key=True),
    Column("new_match_id", String(40), nullable=True),
    Column("t", Float, nullable=False),
)

#: Open tables (``tables.py``): a table a signed-in person opened, waiting for people to
#: take its seats; its match is made when the last one is taken.
open_tables = Table(
    "open_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    # The options (players included), as canonical JSON (``holders.setup_key``).
    Column("setup", String(400), nullable=False),
    Column("host", Integer, ForeignKey("accounts.id"), nullable=False),
    # JSON list, one entry per seat: the account id sitting there, or null.
    Column("seats", String(400), nullable=False),
    # JSON: rated, private, move_seconds (the match's settings).
    Column("settings", String(400), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    # Bumped by every seat taken or given up: the conditional UPDATE's fence.
    Column("version", Integer, nullable=False),
    # The match made once full, "-" once its host closed it, else null (open).
    Column("match_id", String(40), nullable=True),
)
Index("ix_open_tables_listed", open_tables.c.match_id, open_tables.c.created)
