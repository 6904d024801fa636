"""Passwords: NIST SP 800-63B's rules, and Argon2id hashes through argon2-cffi.

Why argon2-cffi: it is the reference Argon2 (the C code of the winners of the Password
Hashing Competition) behind a small, maintained API (``PasswordHasher``: hash, verify,
``check_needs_rehash``), and pwdlib itself hashes through it; Skydeck needs nothing of
pwdlib's multi-algorithm layer, and fastapi-users would bring its own user model,
ORM layer and routes beside the ones this server has. Argon2id with RFC 9106's
"low memory" parameters (t=3, p=4, 64 MiB, ``Settings.password_memory``); a hash keeps
its parameters, so changing them later still verifies old hashes (and rehashes them at
the next sign-in).

The rules (SP 800-63B 5.1.1.2): at least 8 characters, at most 256, every character
allowed (Unicode normalised to NFKC first), no composition rules; refused when the
password is one of the commonly used ones (``data/common_passwords.txt``, made by
``tools/make_common_passwords.py``), is a single repeated character, or is the name.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_LENGTH = 256
COMMON_FILE = Path(__file__).parent / "data" / "common_passwords.txt"
#: RFC 9106's second recommended option ("low memory"): 64 MiB, 3 passes, 4 lanes.
DEFAULT_MEMORY_KIB = 64 * 1024


@functools.cache
def common_passwords() -> frozenset[str]:
    """The refused list, lower case (read once per process)."""
    lines = COMMON_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def normalise(password: str) -> str:
    """NFKC, as SP 800-63B asks of Unicode passwords (one password, however typed)."""
    return unicodedata.normalize("NFKC", password)


def check_new(password: object, name: str = "") -> str:
    """The password to hash, normalised; ValueError saying which rule it breaks (never
    repeating the password)."""
    if not isinstance(password, str):
        raise ValueError("'password' must be a string")
    pw = normalise(password)
    if len(pw) < MIN_LENGTH:
        raise ValueError(f"a password has at least {MIN_LENGTH} characters, this has {len(pw)}")
    if len(pw) > MAX_LENGTH:
        raise ValueError(f"a password has at most {MAX_LENGTH} characters, this has {len(pw)}")
    lowered = pw.lower()
    if lowered in common_passwords():
        raise ValueError("this password is one of the most common ones: choose another")
    if len(set(lowered)) == 1:
        raise ValueError("a password of one repeated character is too easy to guess")
    if name and lowered == name.lower():
        raise ValueError("a password must not be your name")
    return pw


class Hasher:
    """Argon2id hashing with the server's parameters."""

    def __init__(self, memory_kib: int = DEFAULT_MEMORY_KIB) -> None:
        self._ph = PasswordHasher(time_cost=3, memory_cost=memory_kib, parallelism=4)
        # A hash to verify against when the name is unknown: the answer then takes as
        # long as for a known name, so its timing does not tell which names exist.
        self._dummy = self._ph.hash("skydeck: no such account")

    def hash(self, password: str) -> str:
        return self._ph.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from (None: no account,
        the same work is done and False returned)."""
        try:
            right = self._ph.verify(stored or self._dummy, normalise(password))
            return right and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return self._ph.check_needs_rehash(stored)
