"""Seats and their secret tokens.

A human seat is claimed with an unguessable token (192 random bits, URL-safe) carried in
the invite link's fragment, so it never reaches a server log. Only its SHA-256 is
stored; comparing digests in constant time keeps timing from leaking it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

MAX_NAME = 40


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    return secrets.token_urlsafe(9)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_digest: str | None) -> bool:
    return stored_digest is not None and hmac.compare_digest(digest(token), stored_digest)


def public_seat(seat: dict[str, Any], index: int) -> dict[str, Any]:
    """What anybody may know about a seat (never its token digest)."""
    return {
        "seat": index,
        "kind": seat["kind"],
        "name": seat["name"],
        "agent": seat.get("agent"),
    }
