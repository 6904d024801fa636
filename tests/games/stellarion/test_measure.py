"""The measuring helpers behind the reported figures."""

from __future__ import annotations

import pytest

from skydeck.games.stellarion.measure import speed, wilson, winrate


def test_wilson_interval() -> None:
    lo, hi = wilson(500, 1000)
    assert lo == pytest.approx(0.469, abs=1e-3) and hi == pytest.approx(0.531, abs=1e-3)
    lo, hi = wilson(0, 1000)
    assert lo == 0.0 and hi == pytest.approx(0.00383, abs=1e-4)


def test_speed_and_winrate_run() -> None:
    assert speed(0.2)["steps_per_s"] > 0
    result = winrate(2, reveal="all", samples=1)
    assert result["games"] == 2 and 0 <= result["wins"] <= 2
