"""Sessions: who a browser is signed in as.

A session is 256 random bits in a cookie (``HttpOnly``: no script reads it;
``SameSite=Lax``: no other site's request carries it, but for top-level links;
``Secure`` behind https). The database keeps only its SHA-256, with an expiry: a
copy of the database signs nobody in, and every worker of a cluster validates any
session. Sign-in always makes a new token (a token planted in a browser before it
signs in never becomes that person's: no session fixation); sign out deletes the
row, "sign out everywhere" and a new password delete every row of the account.

CSRF: a state change made with the cookie must carry ``X-Skydeck-CSRF`` with the
session's CSRF token, which is SHA-256 of "skydeck-csrf:" + the session token. The
page learns it from the sign-in answer and ``GET /api/me``; another site can neither
read those answers nor the cookie, so cannot forge the header (and a cross-site request
with a custom header needs a CORS preflight, which this server never grants). The
request's Origin, when sent, must also be the server's own (the WebSocket check).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Engine, delete, insert, select

from skydeck.server.accounts import Account, _account
from skydeck.server.people_tables import accounts, sessions

COOKIE = "skydeck_session"
CSRF_HEADER = "x-skydeck-csrf"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The CSRF token of a session (derived: nothing more to store)."""
    return hashlib.sha256(f"skydeck-csrf:{token}".encode()).hexdigest()


def csrf_ok(token: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(csrf_token(token), given)


@dataclass(frozen=True)
class Session:
    token: str
    account: Account
    expires: float


class Sessions:
    """The sessions table; each method is one transaction."""

    def __init__(self, engine: Engine, days: float) -> None:
        self.engine = engine
        self.seconds = days * 86400.0

    def start(self, account: Account, replacing: str | None = None) -> Session:
        """A fresh session for ``account``; the browser's old one (``replacing``), if it
        had one, is deleted in the same transaction."""
        token = new_token()
        now = time.time()
        with self.engine.begin() as conn:
            if replacing:
                conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash(replacing)))
            conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token), account_id=account.id, created=now,
                    expires=now + self.seconds,
                )
            )
        return Session(token, account, now + self.seconds)

    def find(self, token: str | None) -> Session | None:
        """The live session of a cookie's token; None when unknown, expired or its
        account deleted (an expired row is deleted as it is found)."""
        if not token or len(token) > 100:
            return None
        digest = token_hash(token)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions.c.expires, accounts)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.token_hash == digest)
            ).first()
        if row is None or row.deleted is not None:
            return None
        if row.expires <= time.time():
            self.end(token)
            return None
        return Session(token, _account(row), row.expires)

    def end(self, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash(token)))

    def end_all(self, account_id: int) -> int:
        """Every session of the account ends (sign out everywhere); how many there were."""
        with self.engine.begin() as conn:
            result = conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        return int(result.rowcount or 0)
