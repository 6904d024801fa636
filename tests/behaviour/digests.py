"""Digests of what the games do, to show that a move of code changed nothing.

Issue 47 moves most of the package. Before anything moved, these digests were written
to ``expected.json``; every commit of the redesign must leave them equal. Each covers
what a user sees of one front:

- ``games``: seeded random matches of every game and every conformance set-up: every
  action, event and view (each seat's and the spectator's) and the final state;
- ``tournaments``: heuristic, random and a fixed-iteration MCTS playing fixed seeds;
- ``rl``: PettingZoo AEC observations, masks and rewards over seeded random play;
- ``simulate``: the rows of every table of a small ``skydeck simulate`` study (timings
  left out: they are the only part that may differ).

Only budgets in iterations, never seconds, so the digests are the same on every
machine. Run ``python -m tests.behaviour.digests --write`` to record them anew (only
when a change of behaviour is meant, and say so in the commit).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from skydeck.agents import make
from skydeck.registry import game_class, game_ids
from skydeck.sim.runner import play_match
from skydeck.sim.tournament import Setup, run_matches

EXPECTED = Path(__file__).with_name("expected.json")

#: Seeds of the random matches per set-up, and of the AEC runs per game.
GAME_SEEDS = (0, 1)
RL_SEEDS = (0, 1)
RL_STEPS = 150
#: The MCTS of the tournaments: few iterations, no clock (the same on every machine).
MCTS = "mcts:easy:seconds=0:iterations=12"
#: Fields of the simulate tables that hold timings, not behaviour.
TIMING_FIELDS = ("duration_s", "seconds", "longest", "think_s", "think_max_s")


def _hash(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _config_key(game_id: str, config: dict[str, Any]) -> str:
    return f"{game_id} {json.dumps(config, sort_keys=True)}"


def game_digests() -> dict[str, str]:
    """One digest per (game, set-up): its seeded random matches replayed step by step."""
    out: dict[str, str] = {}
    for game_id in game_ids():
        cls = game_class(game_id)
        for config in cls.conformance_configs():
            game = cls(**config)
            parts: list[Any] = []
            for seed in GAME_SEEDS:
                agents = [make("random", game, seed=seed * 31 + k) for k in range(game.players)]
                result = play_match(game, agents, seed, keep_match=True)
                assert result.match is not None
                record = result.match.record
                steps: list[Any] = []
                for state, entry, events in record.replay():
                    views = [state.view(seat) for seat in range(game.players)]
                    steps.append(
                        [
                            None if entry is None else entry.to_json(),
                            [event.to_json() for event in events],
                            _hash([*views, state.view(None)]),
                            list(state.to_move),
                        ]
                    )
                final = record.final_state()
                parts.append(
                    [_hash(steps), final.to_json(), list(final.scores), list(final.winners)]
                )
            out[_config_key(game_id, config)] = _hash(parts)
    return out


def tournament_digests() -> dict[str, str]:
    """Fixed-seed tournaments per game: who won each match and with what scores."""
    out: dict[str, str] = {}
    for game_id in game_ids():
        players = game_class(game_id).player_counts
        for agents in (["heuristic", "random"], [MCTS, "heuristic"]):
            count = min(players) if min(players) > 1 else 1
            options = {"players": count}
            setup = Setup(game_id, options, agents if count > 1 else agents[:1], games=2, seed=7)
            results = run_matches(setup)
            rows = [[r.seats, r.scores, r.winners, r.steps] for r in results]
            out[f"{game_id} {' v '.join(setup.agents)}"] = _hash(rows)
    return out


def rl_digests() -> dict[str, str]:
    """AEC observations, masks and rewards over seeded random legal play."""
    from skydeck.rl import aec_env

    out: dict[str, str] = {}
    for game_id in game_ids():
        for players in game_class(game_id).player_counts[:2]:
            env = aec_env(game_id, players=players)
            parts: list[Any] = []
            for seed in RL_SEEDS:
                env.reset(seed=seed)
                rng = np.random.default_rng(seed)
                for _ in range(RL_STEPS):
                    agent = env.agent_selection
                    obs, reward, term, trunc, _info = env.last()
                    mask = obs["action_mask"]
                    parts.append(
                        [
                            agent,
                            hashlib.sha256(np.ascontiguousarray(obs["observation"])).hexdigest(),
                            hashlib.sha256(np.ascontiguousarray(mask)).hexdigest(),
                            float(reward),
                            bool(term),
                            bool(trunc),
                        ]
                    )
                    if term or trunc:
                        env.step(None)
                        if not env.agents:
                            break
                        continue
                    env.step(int(rng.choice(np.flatnonzero(mask))))
            env.close()
            out[f"{game_id} players={players}"] = _hash(parts)
    return out


def _strip_timings(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip_timings(v) for k, v in obj.items() if k not in TIMING_FIELDS}
    if isinstance(obj, list):
        return [_strip_timings(v) for v in obj]
    return obj


def simulate_digests() -> dict[str, str]:
    """Every table of a small study per game (timings stripped)."""
    from skydeck.sim.plan import Plan
    from skydeck.sim.play import play_chunk

    out: dict[str, str] = {}
    for game_id in game_ids():
        count = game_class(game_id).player_counts[0]
        agents = ["heuristic"] if count == 1 else ["heuristic", "random"]
        plan = Plan(game=game_id, agents=agents, games=3, seed=11, options={"players": count})
        rows = play_chunk(plan, 0, 0, plan.games)
        out[game_id] = _hash(_strip_timings(rows))
    return out


def all_digests() -> dict[str, dict[str, str]]:
    return {
        "games": game_digests(),
        "tournaments": tournament_digests(),
        "rl": rl_digests(),
        "simulate": simulate_digests(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {EXPECTED.name}")
    args = parser.parse_args()
    digests = all_digests()
    text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
    if args.write:
        EXPECTED.write_text(text)
        print(f"wrote {EXPECTED}")
    else:
        print(text)


if __name__ == "__main__":
    main()
