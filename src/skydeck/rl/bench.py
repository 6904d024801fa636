"""``skydeck bench rl GAME``: what the environment adds to the engine's own step.

Three loops over random legal play, on one core, same options:
- engine: ``legal_actions`` + a random choice + ``apply`` (as ``skydeck bench``);
- env step: the AEC environment's ``legal_indices()`` (the mask's non-zeros) + a random
  one + ``step``: the engine's loop through the environment, index mapping included;
- env step + observation: ``last()`` (observation from the view, and the mask) + a
  random index + ``step`` (what a learning agent pays per move).
Each prints CPU microseconds per step and its ratio to the engine's step. The loops play
the same matches (the environments take ``match_seed``) with the same random choices
(the legal indexes keep the engine's order), seat choice in simultaneous phases apart.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from skydeck.core import Rng
from skydeck.registry import load


@dataclass
class RLBench:
    game: str
    options: dict[str, Any]
    engine_us: float
    env_step_us: float
    env_observe_us: float
    catalogue: int
    observation: int

    @property
    def step_ratio(self) -> float:
        return self.env_step_us / self.engine_us

    @property
    def observe_ratio(self) -> float:
        return self.env_observe_us / self.engine_us

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["step_ratio"] = round(self.step_ratio, 3)
        out["observe_ratio"] = round(self.observe_ratio, 3)
        return out


class _Loop:
    """One of the three loops, run in slices so the loops interleave: on a shared
    machine the quietest slice of each (the minimum) compares like with like."""

    def __init__(self, game_id: str, options: dict[str, Any], seed: int, mode: str) -> None:
        self.mode, self.seed = mode, seed
        self.rng = Rng(seed)
        self.games = 0
        if mode == "engine":
            self.game = load(game_id, **options)
            self.state = self.game.new(seed)
        else:
            from skydeck.rl.aec import SkydeckAEC

            self.env = SkydeckAEC(game_id, **options)
            self.env.reset(options={"match_seed": seed})

    def run(self, seconds: float) -> float:
        """CPU microseconds per step over about ``seconds`` (whole steps, games
        restart). CPU time, not wall time: on a shared machine the wait for a core is
        not the loop's cost."""
        rng = self.rng
        steps = 0
        cpu = time.process_time()
        deadline = time.perf_counter() + seconds
        if self.mode == "engine":
            state = self.state
            while True:
                for _ in range(50):
                    if state.is_over:
                        self.games += 1
                        state = self.state = self.game.new(self.seed + self.games)
                    movers = state.to_move
                    seat = movers[0] if len(movers) == 1 else movers[rng.below(len(movers))]
                    actions = state.legal_actions(seat)
                    state.apply(actions[rng.below(len(actions))], seat)
                steps += 50
                if time.perf_counter() >= deadline:
                    break
        else:
            env = self.env
            observe = self.mode == "observe"
            while True:
                for _ in range(50):
                    while not env.agents or env.terminations[env.agent_selection]:
                        if not env.agents:
                            self.games += 1
                            env.reset(options={"match_seed": self.seed + self.games})
                        else:
                            env.step(None)
                    if observe:
                        # the pick is the bench's agent, not the environment: the
                        # mask read as booleans (same indexes, same order), since
                        # numpy's nonzero of int8 costs 40 µs on Stellium's 13982
                        legal = env.last()[0]["action_mask"].view(np.bool_).nonzero()[0]
                        env.step(int(legal[rng.below(len(legal))]))
                    else:
                        indices = env.legal_indices()
                        env.step(indices[rng.below(len(indices))])
                steps += 50
                if time.perf_counter() >= deadline:
                    break
        return (time.process_time() - cpu) / steps * 1e6


def bench_rl(
    game_id: str, seconds: float = 3.0, seed: int = 0, slices: int = 10, **options: Any
) -> RLBench:
    """About ``seconds`` per loop, in ``slices`` interleaved slices; the fastest slice
    of each loop is reported."""
    from skydeck.encoding import tables

    game = load(game_id, **options)
    catalogue, observer = tables(game)
    loops = {mode: _Loop(game_id, options, seed, mode) for mode in ("engine", "step", "observe")}
    best = dict.fromkeys(loops, float("inf"))
    for _ in range(slices):
        for mode, loop in loops.items():
            best[mode] = min(best[mode], loop.run(seconds / slices))
    return RLBench(
        game=game_id,
        options=dict(game.options),
        engine_us=round(best["engine"], 2),
        env_step_us=round(best["step"], 2),
        env_observe_us=round(best["observe"], 2),
        catalogue=catalogue.n,
        observation=observer.size,
    )


def report(result: RLBench) -> Any:
    """A rich table of the three loops."""
    from rich.table import Table

    table = Table(title=f"{result.game}: environment step vs engine step", header_style="bold")
    table.add_column("loop")
    table.add_column("CPU µs / step", justify="right")
    table.add_column("x engine", justify="right")
    table.add_row("engine (legal_actions + apply)", f"{result.engine_us:.1f}", "1.00")
    table.add_row(
        "env step (legal indices + step)", f"{result.env_step_us:.1f}", f"{result.step_ratio:.2f}"
    )
    table.add_row(
        "env step + observation (last + step)",
        f"{result.env_observe_us:.1f}",
        f"{result.observe_ratio:.2f}",
    )
    return table


def command(args: Any) -> int:
    """``skydeck bench rl GAME [--seconds S] [--players N] [--set K=V] [--json]``."""
    import json

    from rich.console import Console

    from skydeck.registry import game_ids

    console = Console()
    if args.rl_game not in game_ids():
        console.print(
            f"[red]bench rl needs a game: one of {', '.join(game_ids())} "
            f"(got {args.rl_game!r})[/red]"
        )
        return 2
    from rich.markup import escape

    from skydeck.sim.plan import parse_options

    try:  # one spelling in every command: modules=[player_powers,objectives]
        options = parse_options(args.set)
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return 2
    if args.players is not None:
        options["players"] = args.players
    try:
        result = bench_rl(args.rl_game, seconds=args.seconds or 6.0, seed=args.seed, **options)
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    console.print(report(result))
    console.print(
        f"options: {result.options}; {result.catalogue} actions, observation of "
        f"{result.observation} floats; the fastest of 10 interleaved slices per loop"
    )
    return 0
