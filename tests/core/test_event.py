"""Events are filtered per seat: private details reach only their seats."""

from __future__ import annotations

from skydeck.core import Event, filter_events, private


def test_public_event_reaches_everyone() -> None:
    e = Event("launched", {"galaxy": "alpha"})
    assert e.for_seat(0) == {"kind": "launched", "galaxy": "alpha"}
    assert e.for_seat(None) == {"kind": "launched", "galaxy": "alpha"}


def test_private_event_with_public_version() -> None:
    e = private("drew", 1, {"card": 7}, {"count": 1})
    assert e.for_seat(1) == {"kind": "drew", "card": 7}
    assert e.for_seat(0) == {"kind": "drew", "count": 1}
    assert e.for_seat(None) == {"kind": "drew", "count": 1}


def test_private_event_without_public_version_is_dropped() -> None:
    events = [private("peek", 0, {"card": 3}), Event("turn", {"seat": 1})]
    assert filter_events(events, 1) == [{"kind": "turn", "seat": 1}]
    assert filter_events(events, 0) == [{"kind": "peek", "card": 3}, {"kind": "turn", "seat": 1}]
    assert events[0].to_json()["seats"] == [0]


def test_the_event_kind_is_never_overwritten_by_its_data() -> None:
    e = Event("laser", {"kind": "ion", "strength": 2}, frozenset({0}), {"kind": "x"})
    assert e.for_seat(0)["kind"] == "laser"  # type: ignore[index]
    assert e.for_seat(1)["kind"] == "laser"  # type: ignore[index]
