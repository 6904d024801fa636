"""An index means the same move for the same option set, release after release (a
trained policy's output units depend on it): the catalogue's actions, in order, hash
to the recorded digest. A change that means to renumber updates the digest and says so
in docs/rl.md."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

import skydeck
from skydeck.encoding import tables

RECORDED = [
    ("stellium", {"players": 2}, 13982, "8f8d86cd5ef29ca6"),
    ("stellium", {"players": 4}, 13982, "8f8d86cd5ef29ca6"),
    ("conflict", {"players": 2}, 360, "628f1d37571b4fc4"),
    ("conflict", {"players": 4}, 399, "a3dab8a4b0dbbfdd"),
    ("stellarion", {"players": 1}, 3764, "affdf432bc58d280"),
    ("expedition", {"players": 2}, 6445, "eb4ed5ba9c4341fd"),
]


@pytest.mark.parametrize(("game", "options", "size", "digest"), RECORDED)
def test_catalogue_order_is_unchanged(
    game: str, options: dict[str, Any], size: int, digest: str
) -> None:
    catalogue, _ = tables(skydeck.load(game, **options))
    assert catalogue.n == size
    text = "\n".join(map(str, catalogue.actions))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
    for i in (0, 1, size // 2, size - 1):  # encode and decode agree with the order
        assert catalogue.encode(catalogue.decode(i)) == i


def test_the_partners_meteor_trade_is_indexed_last() -> None:
    """Issue 54, item 6 added ``meteor <voyage> <seat>`` (co-op, Glaucous Sun): its block
    comes after every earlier index, so a two-player catalogue without it is the same
    up to its size, and every partner trade has an index."""
    with_sun, _ = tables(skydeck.load("stellarion", players=2, expansions=["glaucous_sun"]))
    partner = [a for a in with_sun.actions if a.kind == "meteor" and len(a.args) == 2]
    assert partner and list(with_sun.actions[-len(partner) :]) == partner
    assert all(with_sun.encode(a) >= with_sun.n - len(partner) for a in partner)


def test_expeditions_issue_54_actions_were_appended() -> None:
    """Issue 54 (items 9, 10, 12) added the build discount's split, mixed Warp Jump
    payments and flights over a Hazard after every earlier block: the first 5,831
    indexes still hash to the digest recorded before them."""
    catalogue, _ = tables(skydeck.load("expedition", players=2))
    text = "\n".join(map(str, catalogue.actions[:5831]))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "e3b69e122eaf6031"
