"""Perfect-information Monte Carlo for Stellarion: an honest player built on the
clairvoyant solver (solve.py).

The agent sees only its view. For each decision it deals several complete states
consistent with that view (``view.from_view``: known cards in place, the unknown middle
of each deck shuffled, a fresh Rng for the shuffles to come), asks the solver for a
winning line in each with a small budget, and votes: every sample whose line wins
names its first action. The most-named legal action is played; when no sample finds a
win (hard deals, or a budget too small), the heuristic agent decides.

Why it can beat the heuristic: the heuristic looks one turn ahead; a sampled solver line
plans to the end of the game. Its known weakness ("strategy fusion"): each sample's line
is planned as if that sample's hidden cards were known, so an action that only works
with hindsight may win votes; voting over several samples damps this.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from skydeck.core import Action, Game, Rng
from skydeck.games.stellarion.agents import HeuristicAgent
from skydeck.games.stellarion.solve import WON, Solver
from skydeck.games.stellarion.view import from_view

SAMPLE_LIMITS = (0, 1, 2)  # a sample's solve: the heuristic's line and near departures


class PimcAgent:
    """``samples`` deals per decision, each solved within ``nodes`` positions, all of
    them within ``seconds`` (the last sample is skipped rather than the clock overrun).
    The clock is this process's CPU time: the budget is one core's work, so a loaded
    machine makes the answer slower, not weaker."""

    name = "pimc"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        samples: int = 6,
        nodes: int = 2_000,
        seconds: float = 1.2,
        clock: Callable[[], float] = time.process_time,
    ) -> None:
        if samples < 1 or nodes < 1 or seconds <= 0:
            raise ValueError(
                f"pimc agent: samples, nodes and seconds must be positive, got "
                f"{samples}, {nodes}, {seconds}"
            )
        self.game = game
        self.rng = Rng(seed)
        self.samples = samples
        self.nodes = nodes
        self.seconds = seconds
        self.clock = clock
        self.fallback = HeuristicAgent(game, seed=seed)
        self.last_votes: dict[str, int] = {}

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        if not legal_actions:
            raise ValueError(f"pimc agent: seat {seat} was given no legal action")
        self.last_votes = {}
        if len(legal_actions) == 1:
            return legal_actions[0]
        for a in legal_actions:  # free and never harmful (solve.py, pruning 1)
            if a.kind == "prove":
                return a
        start = self.clock()
        deadline = start + self.seconds
        legal = set(legal_actions)
        votes: dict[Action, int] = {}
        for i in range(self.samples):
            left = deadline - self.clock()
            if left <= 0:
                break
            sample = from_view(self.game, view, self.rng)
            if sample.is_over:
                continue
            share = left / (self.samples - i)
            result = Solver(
                sample,
                seconds=share,
                max_nodes=self.nodes,
                clock=self.clock,
                limits=SAMPLE_LIMITS,
                beams={},  # a beam needs tens of thousands of positions, not a sample's few
            ).solve()
            if result.status == WON and result.line:
                first = result.line[0][1]
                if first in legal:
                    votes[first] = votes.get(first, 0) + 1
        self.last_votes = {str(a): n for a, n in votes.items()}
        if not votes:
            return self.fallback.choose(view, legal_actions, seat)
        order = {a: i for i, a in enumerate(legal_actions)}
        return max(votes, key=lambda a: (votes[a], -order[a]))
