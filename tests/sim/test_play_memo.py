"""The runner's per-game memo (action texts and components) changes no row."""

from __future__ import annotations

from skydeck.sim import play
from skydeck.sim.plan import Plan


def test_rows_are_the_same_with_a_warm_memo_and_a_cold_one():
    plan = Plan("stellarion", ["random"], 6, {}, [], 11)
    play._MEMOS.clear()
    cold = play.play_chunk(plan, 0, 0, 6)
    assert play._MEMOS["stellarion"].texts, "the memo kept no text"
    warm = play.play_chunk(plan, 0, 0, 6)
    for rows in (cold, warm):
        for row in rows["matches"]:
            row.pop("duration_s")
        for row in rows["seats"]:
            row.pop("think_s")
    assert warm == cold
    for record in warm["records"]:
        assert all(isinstance(t, str) and t for t in record["actions"])


def test_the_memo_starts_again_when_full(monkeypatch):
    monkeypatch.setattr(play, "MEMO_MAX", 4)
    play._MEMOS.clear()
    plan = Plan("stellarion", ["random"], 2, {}, [], 11)
    play.play_chunk(plan, 0, 0, 2)
    memo = play._MEMOS["stellarion"]
    assert len(memo.texts) <= 4
    assert play._memo("stellarion") is not memo or len(memo.uses) < 4
