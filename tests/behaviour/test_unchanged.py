"""The redesign changes no behaviour: today's digests equal those recorded before it.

See ``digests.py`` for what each digest covers. A failure names every (front, set-up)
whose digest moved, so the commit that changed it is easy to find.
"""

from __future__ import annotations

import json

import pytest

from tests.behaviour import digests

EXPECTED = json.loads(digests.EXPECTED.read_text())
FRONTS = {
    "games": digests.game_digests,
    "tournaments": digests.tournament_digests,
    "rl": digests.rl_digests,
    "simulate": digests.simulate_digests,
}


@pytest.mark.parametrize("front", sorted(FRONTS))
def test_digests_unchanged(front: str) -> None:
    now = FRONTS[front]()
    before = EXPECTED[front]
    moved = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    assert not moved, f"{front}: behaviour changed for {moved}"


def test_a_changed_move_changes_the_digest() -> None:
    """The digest sees a one-character change in one recorded step (it can fail)."""
    step = [{"seat": 0, "action": "take 1"}, [], "view", [1]]
    changed = [{"seat": 0, "action": "take 2"}, [], "view", [1]]
    assert digests._hash([step]) != digests._hash([changed])
