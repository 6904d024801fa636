"""Accounts: who a person is on Skydeck, by name and password; and the bots, one
account per AI level, so that a level's strength reads on the same rating scale.

A name is 3-24 characters of ASCII letters, digits, '_' and '-', starting with a
letter, and unique without regard to case ("Ada" and "ada" are one name): a name is
read aloud and typed into links (``/p/NAME``), so no look-alike letters. Bots are named
"AI: hard" (a colon no person's name may hold). Deleting an account keeps its matches:
its row stays, renamed "deleted player", its password, sessions and name freed.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from skydeck.server.people_tables import accounts, match_players, sessions
from skydeck.server.storage import matches

MIN_NAME, MAX_NAME = 3, 24
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
DELETED_NAME = "deleted player"
#: Names a person may not take: they would read as the server's own words.
RESERVED = frozenset({"admin", "administrator", "skydeck", "guest", "bot", "ai", "system",
                      "moderator", "deleted", "me", "anonymous", "player"})


def name_key(name: str) -> str:
    return name.casefold()


def check_name(name: object) -> str:
    """A valid new account name (spaces around it stripped); ValueError naming the rule."""
    if not isinstance(name, str):
        raise ValueError("'name' must be a string")
    name = name.strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise ValueError(f"a name has {MIN_NAME} to {MAX_NAME} characters, got {len(name)}")
    if not NAME_RE.fullmatch(name):
        bad = next((c for c in name if not (c.isascii() and (c.isalnum() or c in "_-"))), None)
        if bad is not None:
            raise ValueError(
                f"a name holds only letters A-Z, digits, '_' and '-' (not {bad!r})"
            )
        raise ValueError("a name starts with a letter")
    if name_key(name) in RESERVED or re.fullmatch(r"player[0-9]+", name_key(name)):
        raise ValueError(f"the name {name!r} is reserved: choose another")
    return name


def bot_name(spec: str) -> str:
    """The account name of an AI level: "mcts:hard" -> "AI: hard", "random" -> "AI: random"."""
    level = spec.split(":", 1)[1] if spec.startswith("mcts:") else spec
    return f"AI: {level}"


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    kind: str
    password: str | None
    created: float
    deleted: float | None = None

    def public(self) -> dict[str, Any]:
        """What anybody may read of an account (never its password)."""
        return {"name": self.name, "kind": self.kind, "created": self.created}


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.kind, row.password, row.created, row.deleted)


class Accounts:
    """The accounts table; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, name: str, password_hash: str) -> Account:
        """A new person's account; ValueError when the name is taken (in any case)."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    insert(accounts).values(
                        name=name, name_key=name_key(name), kind="human",
                        password=password_hash, created=now,
                    )
                ).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise ValueError(f"the name {name!r} is taken (names ignore case)") from None
        return Account(int(new_id), name, "human", password_hash, now)

    def by_name(self, name: str) -> Account | None:
        """The live account of that name (any case); None if none or deleted."""
        if not isinstance(name, str) or len(name) > 64:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts).where(
                    accounts.c.name_key == name_key(name.strip()), accounts.c.deleted.is_(None)
                )
            ).first()
        return _account(row) if row is not None else None

    def by_id(self, account_id: int) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return _account(row) if row is not None else None

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password=password_hash)
            )

    def bot(self, spec: str) -> Account:
        """The bot account of an AI level, made on first use."""
        name = bot_name(spec)
        for _ in range(2):
            with self.engine.connect() as conn:
                row = conn.execute(
                    select(accounts).where(accounts.c.name_key == name_key(name))
                ).first()
            if row is not None:
                return _account(row)
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(accounts).values(
                            name=name, name_key=name_key(name), kind="bot", agent=spec,
                            password=None, created=time.time(),
                        )
                    )
            except IntegrityError:  # another worker made it first
                continue
        raise RuntimeError(f"the bot account {name!r} could not be made")

    def delete(self, account_id: int) -> list[tuple[str, int]]:
        """Delete an account: its sessions and password go, its name is freed and reads
        "deleted player" everywhere, its matches stay (their seats renamed). The
        (match, seat) pairs renamed, for the rooms in memory."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    name=DELETED_NAME, name_key=f"deleted:{account_id}", password=None,
                    deleted=time.time(),
                )
            )
            held = conn.execute(
                select(match_players.c.match_id, match_players.c.seat).where(
                    match_players.c.account_id == account_id
                )
            ).all()
            by_match: dict[str, list[int]] = {}
            for match_id, seat in held:
                by_match.setdefault(match_id, []).append(seat)
            for match_id, seats_held in by_match.items():
                row = conn.execute(select(matches.c.seats).where(matches.c.id == match_id)).first()
                if row is None:
                    continue
                seats = [dict(s) for s in row.seats]
                for seat in seats_held:
                    if 0 <= seat < len(seats):
                        seats[seat]["name"] = DELETED_NAME
                conn.execute(update(matches).where(matches.c.id == match_id).values(seats=seats))
        return [(m, s) for m, ss in by_match.items() for s in ss]
