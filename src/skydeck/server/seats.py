"""Seats and their secret tokens.

A human seat is claimed with an unguessable token (192 random bits, URL-safe) carried in
the invite link's fragment, so it never reaches a server log. Only its SHA-256 is
stored; comparing digests in constant time keeps timing from leaking it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from typing import Any

MAX_NAME = 40
#: Characters that reorder the text around them (the "Trojan Source" controls): a name
#: holding one could make the lobby or the log read as something else.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Unicode categories refused in a name: controls, surrogates, private use, unassigned,
#: line and paragraph separators. (Other format characters stay: the zero-width joiner
#: builds emoji such as a family.)
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    return secrets.token_urlsafe(9)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_digest: str | None) -> bool:
    return stored_digest is not None and hmac.compare_digest(digest(token), stored_digest)


def creator_key(address: str) -> str:
    """What storage keeps of the client that created a match: a digest of its address,
    enough to count its unfinished matches, not the address itself."""
    return hashlib.sha256(f"skydeck-creator:{address}".encode()).hexdigest()[:32]


def check_name(name: str) -> str:
    """A seat's name as shown to everyone (surrounding spaces stripped); ValueError
    naming the first character that may not be in a name."""
    name = name.strip()
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, got {len(name)}")
    for pos, ch in enumerate(name):
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in REFUSED_CATEGORIES:
            what = unicodedata.name(ch, "a control character")
            raise ValueError(
                f"a name may not hold U+{ord(ch):04X} ({what.lower()}) (character {pos + 1})"
            )
    return name


def public_seat(seat: dict[str, Any], index: int) -> dict[str, Any]:
    """What anybody may know about a seat (never its token digest)."""
    return {
        "seat": index,
        "kind": seat["kind"],
        "name": seat["name"],
        "agent": seat.get("agent"),
    }
