"""Events: what happened, told to each seat only as far as it may know.

An event carries the full ``data`` for the seats in ``seats`` (everyone when ``seats`` is
None) and an optional ``public`` version for everybody else; with no ``public`` version
the others do not hear of the event at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple


class Event(NamedTuple):
    """Immutable; a NamedTuple because battles and playouts make many of them and a
    tuple is the cheapest immutable value to build."""

    kind: str
    data: dict[str, Any]
    seats: frozenset[int] | None = None
    public: dict[str, Any] | None = None

    def for_seat(self, seat: int | None) -> dict[str, Any] | None:
        """The JSON-ready form this seat may see (None: a spectator), or None if hidden."""
        if self.seats is None or (seat is not None and seat in self.seats):
            return {**self.data, "kind": self.kind}
        if self.public is not None:
            return {**self.public, "kind": self.kind}
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": self.data,
            "seats": None if self.seats is None else sorted(self.seats),
            "public": self.public,
        }


def filter_events(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` sees them, hidden ones dropped."""
    out = []
    for e in events:
        shown = e.for_seat(seat)
        if shown is not None:
            out.append(shown)
    return out


def private(
    kind: str, seat: int, data: dict[str, Any], public: dict[str, Any] | None = None
) -> Event:
    """An event only ``seat`` sees in full; others see ``public`` (or nothing)."""
    return Event(kind, data, frozenset((seat,)), public)
