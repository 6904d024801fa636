"""The small word helpers every game's sentences share (log lines, move menus), so
that counts and lists read alike in every game: "1 point" / "3 points", "a, b and c"."""

from __future__ import annotations

from collections.abc import Sequence


def capitalised(text: str) -> str:
    """The first letter in upper case, the rest as written: "the Alpha deck" -> "The
    Alpha deck" (``str.capitalize`` would lower "Alpha")."""
    return text[:1].upper() + text[1:]


def counted(n: int, one: str, many: str | None = None) -> str:
    """ "1 point", "3 points"; ``many`` where the plural is not ``one`` + "s"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def listed(items: Sequence[str], word: str = "and") -> str:
    """ "a", "a and b", "a, b and c" (``word`` may be "or"); "nothing" for no item. An
    empty item says nothing, so it is left out."""
    items = [i for i in items if i]
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]
