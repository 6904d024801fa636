"""Play one match between agents, giving each only its view and legal actions.

Simultaneous phases are handled explicitly: every seat in ``to_move`` decides from the
same moment (none sees another's pending choice), then the choices are applied in seat
order. Should an earlier one make a later one illegal, that seat is asked again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from skydeck.core import Game, IllegalAction
from skydeck.core.record import Match

MAX_STEPS = 100_000


@dataclass
class Thinking:
    """How long one seat's agent took per decision: wall time, and the CPU time of its
    process (what a budget per move is about; on a shared machine wall time also
    counts the wait for a core)."""

    decisions: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    cpu_seconds: float = 0.0
    cpu_longest: float = 0.0

    def add(self, seconds: float, cpu: float = 0.0) -> None:
        self.decisions += 1
        self.seconds += seconds
        self.longest = max(self.longest, seconds)
        self.cpu_seconds += cpu
        self.cpu_longest = max(self.cpu_longest, cpu)

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "seconds": self.seconds,
            "longest": self.longest,
            "cpu_seconds": self.cpu_seconds,
            "cpu_longest": self.cpu_longest,
        }


@dataclass
class MatchResult:
    seed: int
    seats: list[str]
    scores: list[float]
    winners: list[int]
    steps: int
    thinking: list[Thinking] = field(default_factory=list)
    #: The finished match (record and final state), kept only when asked for: studies
    #: count actions, read factions and store replays; tournaments do not need it.
    match: Match | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "seats": self.seats,
            "scores": self.scores,
            "winners": self.winners,
            "steps": self.steps,
            "thinking": [t.to_json() for t in self.thinking],
        }


def play_match(
    game: Game,
    agents: list[Any],
    seed: int,
    names: list[str] | None = None,
    max_steps: int = MAX_STEPS,
    keep_match: bool = False,
) -> MatchResult:
    """Play ``agents[seat]`` in every seat until the match ends (``keep_match``: the
    result carries the finished match, its record and final state, too)."""
    if len(agents) != game.players:
        raise ValueError(f"{game.id}: {game.players} seats but {len(agents)} agents")
    match = Match(game, seed, names)
    for agent in agents:
        bind = getattr(agent, "bind", None)
        if bind is not None:
            bind(match.record)
    thinking = [Thinking() for _ in agents]
    state = match.state
    steps = 0
    while not state.is_over:
        if steps >= max_steps:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {max_steps} actions")
        to_move = state.to_move
        picks = [(seat, _decide(agents[seat], state, seat, thinking[seat])) for seat in to_move]
        for seat, action in picks:
            if seat not in state.to_move:
                continue
            try:
                match.play(seat, action, t=0.0)
            except IllegalAction:
                match.play(seat, _decide(agents[seat], state, seat, thinking[seat]), t=0.0)
            steps += 1
            state = match.state
    return MatchResult(
        seed=seed,
        seats=list(names or [getattr(a, "name", type(a).__name__) for a in agents]),
        scores=list(state.scores),
        winners=list(state.winners),
        steps=steps,
        thinking=thinking,
        match=match if keep_match else None,
    )


def _decide(agent: Any, state: Any, seat: int, thinking: Thinking) -> Any:
    view = state.view(seat)
    legal = state.legal_actions(seat)
    start, cpu = time.perf_counter(), time.process_time()
    action = agent.choose(view, legal, seat)
    thinking.add(time.perf_counter() - start, time.process_time() - cpu)
    return action
