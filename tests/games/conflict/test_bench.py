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


def test_shapely_reference_resolves_the_same_battles() -> None:
    from skydeck.games.conflict.bench import compare

    figures = compare(tables=3, seed=21, rounds=1)
    assert figures["identical results"] == "3/3"
    assert figures["shots per battle"] > 10
    assert figures["engine battle ms"] > 0 and figures["shapely reference battle ms"] > 0


def test_outcome_notices_a_different_battle() -> None:
    """The comparison can fail: one extra damage token changes the outcome."""
    from skydeck.games.conflict import battle as b
    from skydeck.games.conflict.bench import outcome, resolve, shapely_resolve

    st = war_table(3)
    a, r = st.clone(), st.clone()
    steps_a, steps_r = resolve(a), shapely_resolve(r)
    assert outcome(a, steps_a) == outcome(r, steps_r)
    alive = next(c for c in r.cards if c[b.C_ALIVE] and c[b.C_OWNER] >= 0)
    alive[b.C_DAMAGE] = alive[b.C_DAMAGE] + (0,)
    assert outcome(a, steps_a) != outcome(r, steps_r)


def test_report_keys() -> None:
    from skydeck.games.conflict.bench import report

    figures = report(0.1)
    assert figures["war tables (2 x 15 ships)"] >= 5
    assert figures["identical results"].endswith(f"/{figures['war tables (2 x 15 ships)']}")
    assert figures["speed ratio (reference / engine)"] > 1
