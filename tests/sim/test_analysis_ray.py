"""``skydeck analyse --ray``: the analysis's tasks on Ray give the same analysis as in
this process (here: the session's one local Ray runtime, see conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.analysis import analyse
from skydeck.analysis.runners import ray_tasks
from tests.analysis.helpers import record


def _strip(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "cost"}


@pytest.mark.usefixtures("ray_runtime")
def test_ray_gives_the_same_analysis_as_this_process() -> None:
    rec, _ = record("stellium", 2, seed=1)
    here = analyse(rec, seats=[0], playouts=2, width=1, seed=9)
    on_ray = analyse(
        rec, seats=[0], playouts=2, width=1, seed=9, runner=lambda t: ray_tasks(t, None)
    )
    assert _strip(on_ray) == _strip(here)
    import ray

    assert ray.is_initialized(), "a runtime it did not start is left running"
