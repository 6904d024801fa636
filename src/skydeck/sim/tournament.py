"""Tournaments: many matches between agent specs, seats rotated, on a process pool.

Seating: match ``i`` puts ``agents[(i + k) % n]`` in seat ``k`` (n agents), so every
agent sits in every seat equally often over a full cycle. The deal is shared by a cycle
(seed ``seed + i // n``): with two agents each deal is played once from each side, which
removes much of the luck from the comparison.

Scoring of one seat in one match: 1 for a sole win, 0.5 for a shared win, 0 for a loss.
In cooperative games (and solo games) every seat gets the team's result: 1 or 0.
Pairs of seats held by different agents also give Elo outcomes: a winner beats a
non-winner; otherwise the higher score wins the pair, equal scores draw.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from skydeck.agents import make, parse_spec, support_for
from skydeck.core import Game
from skydeck.registry import load
from skydeck.sim.runner import MatchResult, play_match
from skydeck.sim.stats import elo, wilson


def load_game(name: str, options: dict[str, Any]) -> Game:
    """A registered game id, or ``package.module:Class`` for a game outside Skydeck."""
    if ":" not in name:
        return load(name, **options)
    module_name, _, cls_name = name.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load game {name!r}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise ValueError(f"{name!r} is not a Game class")
    return cls(**options)


def seating(agents: list[str], players: int, index: int) -> list[str]:
    n = len(agents)
    return [agents[(index + k) % n] for k in range(players)]


def match_seed(seed: int, agents: list[str], index: int) -> int:
    return seed + index // len(agents)


def agent_seed(seed: int, index: int, seat: int) -> int:
    return (seed * 1_000_003 + index * 97 + seat) & 0x7FFFFFFF


@dataclass(frozen=True)
class Setup:
    game: str
    options: dict[str, Any]
    agents: list[str]
    games: int
    seed: int = 0

    def validate(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent spec")
        for spec in self.agents:
            parse_spec(spec)
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, got {self.games}")
        game = load_game(self.game, self.options)
        for spec in set(self.agents):
            make(spec, game, seed=0)  # fails early, naming the spec


def play_one(setup: Setup, index: int) -> MatchResult:
    game = load_game(setup.game, setup.options)
    specs = seating(setup.agents, game.players, index)
    agents = [
        make(spec, game, seed=agent_seed(setup.seed, index, k)) for k, spec in enumerate(specs)
    ]
    return play_match(game, agents, match_seed(setup.seed, setup.agents, index), names=specs)


def _play_chunk(setup: Setup, indices: list[int]) -> list[tuple[int, MatchResult]]:
    return [(i, play_one(setup, i)) for i in indices]


def run_matches(
    setup: Setup, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> list[MatchResult]:
    """All matches of a setup, in index order, on ``jobs`` local processes."""
    setup.validate()
    results: dict[int, MatchResult] = {}
    if jobs <= 1:
        for i in range(setup.games):
            results[i] = play_one(setup, i)
            if progress:
                progress(1)
    else:
        chunks = [list(range(i, setup.games, jobs * 4)) for i in range(min(jobs * 4, setup.games))]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, setup, c) for c in chunks]
            for fut in futures:
                for i, r in fut.result():
                    results[i] = r
                if progress:
                    progress(len(fut.result()))
    return [results[i] for i in range(setup.games)]


@dataclass
class Standing:
    agent: str
    seats: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    score_total: float = 0.0
    decisions: int = 0
    think_seconds: float = 0.0
    longest: float = 0.0
    cpu_seconds: float = 0.0
    cpu_longest: float = 0.0
    elo: float | None = None

    @property
    def rate(self) -> float:
        return self.points / self.seats if self.seats else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.seats)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "agent": self.agent,
            "seats": self.seats,
            "wins": self.wins,
            "draws": self.draws,
            "points": self.points,
            "win_rate": self.rate,
            "ci95": [lo, hi],
            "elo": self.elo,
            "mean_score": self.score_total / self.seats if self.seats else 0.0,
            "mean_think_s": self.think_seconds / self.decisions if self.decisions else 0.0,
            "longest_think_s": self.longest,
            "mean_cpu_s": self.cpu_seconds / self.decisions if self.decisions else 0.0,
            "max_cpu_s": self.cpu_longest,
        }


@dataclass
class Report:
    setup: Setup
    players: int
    cooperative: bool
    standings: list[Standing]
    matches: list[MatchResult] = field(default_factory=list)

    def to_json(self, with_matches: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.setup.game,
            "options": self.setup.options,
            "players": self.players,
            "games": len(self.matches),
            "seed": self.setup.seed,
            "agents": self.setup.agents,
            "cooperative": self.cooperative,
            "standings": [s.to_json() for s in self.standings],
        }
        if with_matches:
            out["matches"] = [m.to_json() for m in self.matches]
        return out


def seat_points(result: MatchResult, cooperative: bool) -> Iterator[float]:
    winners = set(result.winners)
    for seat in range(len(result.seats)):
        if cooperative:
            yield 1.0 if winners else 0.0
        elif seat in winners:
            yield 1.0 if len(winners) == 1 else 0.5
        else:
            yield 0.0


def pair_outcomes(result: MatchResult) -> Iterator[tuple[str, str, float]]:
    winners = set(result.winners)
    seats = result.seats
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] == seats[j]:
                continue
            wi, wj = i in winners, j in winners
            if wi != wj:
                score = 1.0 if wi else 0.0
            elif result.scores[i] != result.scores[j]:
                score = 1.0 if result.scores[i] > result.scores[j] else 0.0
            else:
                score = 0.5
            yield seats[i], seats[j], score


def summarise(setup: Setup, matches: list[MatchResult], players: int, cooperative: bool) -> Report:
    table = {name: Standing(name) for name in dict.fromkeys(setup.agents)}
    outcomes: list[tuple[str, str, float]] = []
    for m in matches:
        for seat, pts in enumerate(seat_points(m, cooperative or players == 1)):
            st = table[m.seats[seat]]
            st.seats += 1
            st.points += pts
            st.wins += pts == 1.0
            st.draws += pts == 0.5
            st.score_total += m.scores[seat]
            if m.thinking:
                t = m.thinking[seat]
                st.decisions += t.decisions
                st.think_seconds += t.seconds
                st.longest = max(st.longest, t.longest)
                st.cpu_seconds += t.cpu_seconds
                st.cpu_longest = max(st.cpu_longest, t.cpu_longest)
        outcomes.extend(pair_outcomes(m))
    if len(table) > 1 and outcomes:
        ratings = elo(outcomes, table)
        for name, st in table.items():
            st.elo = ratings.get(name)
    return Report(setup, players, cooperative, list(table.values()), matches)


def run_tournament(
    game: str,
    agents: list[str],
    games: int,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Report:
    setup = Setup(game, dict(options or {}), list(agents), games, seed)
    matches = run_matches(setup, jobs, progress)
    g = load_game(game, setup.options)
    return summarise(setup, matches, g.players, support_for(g).cooperative)


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 1) - 1)
