"""Hypothesis profiles for the whole suite.

``make test`` (and CI) runs the property tests derandomized: the same examples on every
run, so a red build always comes from a change to the code, never from the luck of the
draw. ``make fuzz`` runs them with fresh random examples and five times as many, to
hunt for the cases the fixed draw misses (that is how the grazing-laser bug in Stellar
Conflict's battle trace was found); a failure prints its reproduce blob.

``ray_runtime``: one local Ray runtime for the whole test session (starting one takes
seconds, and Ray allows one per process), shared by the simulation and RL tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("fuzz", derandomize=False, print_blob=True, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def ray_runtime() -> Iterator[None]:
    ray = pytest.importorskip("ray")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
