"""Batch simulation: play matches between agents, tournaments and their statistics."""

from skydeck.sim.runner import MatchResult, Thinking, play_match
from skydeck.sim.stats import elo, wilson
from skydeck.sim.tournament import Report, Setup, Standing, run_tournament, seating

__all__ = [
    "MatchResult",
    "Report",
    "Setup",
    "Standing",
    "Thinking",
    "elo",
    "play_match",
    "run_tournament",
    "seating",
    "wilson",
]
