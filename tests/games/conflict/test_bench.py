"""The benchmark's War table and the floating-point reference agree with the engine."""

from __future__ import annotations

from skydeck.games.conflict.bench import run, war_table


def test_war_table_has_fifteen_cards_a_side() -> None:
    st = war_table(1)
    assert [sum(1 for c in st.cards if c[1] == s) for s in (0, 1)] == [15, 15]


def test_engine_and_reference_trace_the_same_shots() -> None:
    result = run(tables=3, seed=5)
    assert result["shots"] > 20
    assert result["identical_shots"] == result["shots"]
