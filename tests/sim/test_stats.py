"""Tournament statistics on known inputs: Wilson intervals, Elo, seating, scoring."""

from __future__ import annotations

import math

import pytest

from skydeck.sim import MatchResult, Setup, elo, seating, wilson
from skydeck.sim.tournament import pair_outcomes, seat_points, summarise


def wilson_by_quadratic(x: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The interval's ends solve (p_hat - p)^2 = z^2 p (1 - p) / n: an independent check."""
    ph = x / n
    a = 1 + z * z / n
    b = -(2 * ph + z * z / n)
    c = ph * ph
    disc = math.sqrt(b * b - 4 * a * c)
    return (-b - disc) / (2 * a), (-b + disc) / (2 * a)


@pytest.mark.parametrize(("x", "n"), [(8, 10), (50, 100), (95, 100), (1, 3), (999, 1000)])
def test_wilson_matches_the_quadratic(x: int, n: int) -> None:
    lo, hi = wilson(x, n)
    elo_, ehi = wilson_by_quadratic(x, n)
    assert lo == pytest.approx(elo_, abs=1e-12) and hi == pytest.approx(ehi, abs=1e-12)
    assert lo < x / n < hi


def test_wilson_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)  # z^2 / (n + z^2)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(500, 1000)
    assert hi - lo == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 1000), rel=0.01)


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(-1, 10)


def test_elo_of_a_three_to_one_record_is_about_191_points() -> None:
    outcomes = [("A", "B", 1.0)] * 3000 + [("A", "B", 0.0)] * 1000
    r = elo(outcomes)
    assert r["A"] - r["B"] == pytest.approx(400 * math.log10(3), abs=1.0)
    assert (r["A"] + r["B"]) / 2 == pytest.approx(1500)


def test_elo_equal_records_equal_ratings() -> None:
    r = elo([("A", "B", 1.0), ("A", "B", 0.0), ("B", "A", 0.5)])
    assert r["A"] == pytest.approx(r["B"])


def test_elo_is_finite_for_an_unbeaten_agent_and_ordered() -> None:
    outcomes = [("A", "B", 1.0)] * 20 + [("B", "C", 1.0)] * 20 + [("A", "C", 1.0)] * 20
    r = elo(outcomes)
    assert all(math.isfinite(v) for v in r.values())
    assert r["A"] > r["B"] > r["C"]


def test_elo_rejects_bad_scores() -> None:
    with pytest.raises(ValueError):
        elo([("A", "B", 2.0)])


def test_seating_rotates_every_agent_through_every_seat() -> None:
    assert [seating(["A", "B"], 2, i) for i in range(2)] == [["A", "B"], ["B", "A"]]
    assert seating(["A", "B"], 4, 1) == ["B", "A", "B", "A"]
    three = [seating(["A", "B", "C"], 3, i) for i in range(3)]
    for seat in range(3):
        assert sorted(s[seat] for s in three) == ["A", "B", "C"]
    assert seating(["A"], 1, 5) == ["A"]


def result(seats: list[str], scores: list[float], winners: list[int]) -> MatchResult:
    return MatchResult(seed=0, seats=seats, scores=scores, winners=winners, steps=1)


def test_seat_points_win_draw_loss_and_coop() -> None:
    assert list(seat_points(result(["A", "B"], [3, 1], [0]), False)) == [1.0, 0.0]
    assert list(seat_points(result(["A", "B"], [2, 2], [0, 1]), False)) == [0.5, 0.5]
    assert list(seat_points(result(["A", "B"], [1, 1], [0, 1]), True)) == [1.0, 1.0]
    assert list(seat_points(result(["A", "B"], [0, 0], []), True)) == [0.0, 0.0]


def test_pair_outcomes_use_winners_then_scores() -> None:
    r = result(["A", "B", "C", "A"], [5, 7, 3, 1], [1])
    pairs = list(pair_outcomes(r))
    assert ("A", "B", 0.0) in pairs and ("B", "C", 1.0) in pairs
    assert ("A", "C", 1.0) in pairs  # neither won: the higher score takes the pair
    assert ("C", "A", 1.0) in pairs  # seat 2 (3 points) against seat 3 (1 point)
    assert all(a != b for a, b, _ in pairs)  # the same agent is never paired with itself


def test_summarise_counts_and_rates() -> None:
    setup = Setup("toy", {}, ["A", "B"], 4)
    matches = [
        result(["A", "B"], [3, 1], [0]),
        result(["B", "A"], [3, 1], [1]),
        result(["A", "B"], [2, 2], [0, 1]),
        result(["B", "A"], [5, 1], [0]),
    ]
    rep = summarise(setup, matches, players=2, cooperative=False)
    a, b = rep.standings
    assert (a.agent, a.seats, a.wins, a.draws, a.points) == ("A", 4, 2, 1, 2.5)
    assert (b.agent, b.seats, b.wins, b.draws, b.points) == ("B", 4, 1, 1, 1.5)
    assert b.rate == pytest.approx(0.375)
    assert b.interval == wilson(1.5, 4)
    assert a.elo is not None and b.elo is not None and a.elo > b.elo
    js = rep.to_json()
    assert js["standings"][0]["ci95"] == list(a.interval)
    assert js["standings"][0]["mean_score"] == pytest.approx((3 + 1 + 2 + 1) / 4)


def test_solo_summary_has_no_elo() -> None:
    setup = Setup("toy", {}, ["A"], 3)
    matches = [result(["A"], [1], [0]), result(["A"], [0], []), result(["A"], [1], [0])]
    rep = summarise(setup, matches, players=1, cooperative=False)
    (a,) = rep.standings
    assert (a.wins, a.seats, a.elo) == (2, 3, None)
