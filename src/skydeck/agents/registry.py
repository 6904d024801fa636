"""Agent specs and the registry: ``make("mcts:hard", game, seed=3)``.

A spec is ``NAME[:LEVEL][:KEY=VALUE...]``: ``random``, ``heuristic``, ``mcts``,
``mcts:easy``, ``mcts:hard:seconds=0:iterations=400``, ``pimc:samples=4`` and
``lookahead:top=5`` (a game's own agents: Stellarion's solver-based player and its
two-turn planner), ``greedy`` (Stellium's one-step player), ``policy:PATH`` (a model
trained by `skydeck train`; everything after ``policy:`` is the path). Parameters are
only for mcts and a game's own agents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skydeck.agents.mcts import DEFAULT_LEVEL, LEVELS, MctsAgent, level_with
from skydeck.agents.simple import RandomAgent, game_agent, heuristic_class
from skydeck.agents.support import support_for
from skydeck.core import Game
from skydeck.registry import game_ids, game_module


@dataclass(frozen=True)
class Spec:
    name: str
    level: str | None
    params: dict[str, str]

    def __str__(self) -> str:
        if self.name == "policy":
            return f"policy:{self.params['path']}"
        parts = [self.name]
        if self.level:
            parts.append(self.level)
        parts += [f"{k}={v}" for k, v in self.params.items()]
        return ":".join(parts)


def parse_spec(spec: str) -> Spec:
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    name, *rest = spec.strip().split(":")
    if name == "policy":
        path = spec.strip()[len("policy:") :]
        if not path:
            raise ValueError("agent spec 'policy' needs a model file: policy:PATH")
        return Spec("policy", None, {"path": path})
    own = game_agent_params()
    kinds = agent_kinds()
    if name not in kinds:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(kinds)}")
    level: str | None = None
    params: dict[str, str] = {}
    for part in rest:
        key, eq, value = part.partition("=")
        if eq:
            params[key] = value
        elif level is None:
            level = part
        else:
            raise ValueError(f"agent spec {spec!r}: two levels ({level!r}, {part!r})")
    if name not in ("mcts", *own) and (level or params):
        raise ValueError(f"agent {name!r} takes no level or parameters (spec {spec!r})")
    if name in own and level:
        raise ValueError(f"agent {name!r} takes parameters, not a level (spec {spec!r})")
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown mcts level {level!r}; known: {', '.join(LEVELS)}")
    return Spec(name, level, params)


def make(spec: str, game: Game, seed: int = 0) -> Any:
    """Build an agent for ``game``; ValueError naming what is wrong with ``spec``."""
    parsed = parse_spec(spec)
    if parsed.name == "random":
        return RandomAgent(game, seed)
    if parsed.name == "heuristic":
        cls = heuristic_class(game.id)
        if cls is None:
            raise ValueError(f"game {game.id!r} has no heuristic agent")
        agent = cls(game, seed=seed)
        if not hasattr(agent, "name"):
            agent.name = "heuristic"
        return agent
    if parsed.name in game_agent_params():
        return _make_game_agent(parsed, game, seed)
    if parsed.name == "policy":
        from skydeck.agents.policy import PolicyAgent

        return PolicyAgent(game, parsed.params["path"], seed)
    level_name = parsed.level or DEFAULT_LEVEL
    level = level_with(LEVELS[level_name], parsed.params)
    agent = MctsAgent(game, seed, level)
    agent.name = str(parsed) if parsed.params or parsed.level else "mcts"
    return agent


def _own(game_id: str, table: str) -> dict[str, Any]:
    """A table of the game's ``ai`` module (``PARAMS``, ``SUMMARIES``), or {}."""
    module = game_module(game_id, "ai")
    return dict(getattr(module, table, {})) if module is not None else {}


def game_agent_params() -> dict[str, dict[str, type]]:
    """The games' own agents, by spec name, with each parameter's type: each game
    declares its own in its ``ai`` module (``PARAMS``; e.g. Stellarion's ``pimc`` and
    ``lookahead``, Stellium's ``greedy``), beside ``AGENTS``."""
    out: dict[str, dict[str, type]] = {}
    for g in game_ids():
        for name, params in _own(g, "PARAMS").items():
            out.setdefault(name, {}).update(params)
    return out


def agent_kinds() -> tuple[str, ...]:
    """Every agent name a spec may start with: the generic ones and the games' own."""
    own = tuple(n for n in game_agent_params() if n not in _GENERIC)
    return (*_GENERIC[:2], *own, *_GENERIC[2:])


def _make_game_agent(parsed: Spec, game: Game, seed: int) -> Any:
    name = parsed.name
    factory = game_agent(game.id, name)
    if factory is None:
        raise ValueError(f"game {game.id!r} has no {name} agent")
    known = _own(game.id, "PARAMS").get(name, {})
    if parsed.params and not known:
        raise ValueError(f"agent {name!r} takes no parameters (spec {parsed})")
    kwargs: dict[str, Any] = {}
    for key, value in parsed.params.items():
        kind = known.get(key)
        if kind is None:
            raise ValueError(f"{name}: unknown parameter {key!r}; known: {', '.join(known)}")
        try:
            kwargs[key] = kind(value)
        except ValueError:
            raise ValueError(f"{name}: {key} must be a number, got {value!r}") from None
    agent = factory(game, seed=seed, **kwargs)
    agent.name = str(parsed)
    return agent


@dataclass(frozen=True)
class AgentInfo:
    spec: str
    summary: str
    games: tuple[str, ...]
    notes: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "summary": self.summary,
            "games": list(self.games),
            "notes": self.notes,
        }


def agents() -> list[AgentInfo]:
    """Every agent spec with the registered games it plays."""
    ids = game_ids()
    out = [AgentInfo("random", "uniform random legal actions", tuple(ids), {})]
    with_heuristic = tuple(g for g in ids if heuristic_class(g) is not None)
    out.append(AgentInfo("heuristic", "the game's own rule-based player", with_heuristic, {}))
    notes = {}
    for g in ids:
        sup = support_for(g)
        how = "views" if sup.from_view is not None else "match record replay"
        if sup.playout is not None:
            policy = "the game's own playout"
        elif sup.rollout is not None:
            policy = "game policy"
        else:
            policy = "random playouts"
        shape = "flat search (root only)" if sup.flat else "tree search"
        notes[g] = f"belief from {how}; {policy}; {shape}"
    summaries: dict[str, str] = {}
    for g in ids:
        for name, summary in _own(g, "SUMMARIES").items():
            summaries.setdefault(name, summary)
    for name, summary in summaries.items():
        playing = tuple(g for g in ids if game_agent(g, name) is not None)
        if playing:
            out.append(AgentInfo(name, summary, playing, {}))
    for name, level in LEVELS.items():
        budget = f"{level.iterations} iterations / {level.seconds} s"
        playouts = "game playouts" if level.use_policy else "random playouts"
        out.append(AgentInfo(f"mcts:{name}", f"ISMCTS, {budget}, {playouts}", tuple(ids), notes))
    return out


def specs_for(game_id: str) -> list[str]:
    """The agent specs offered for a game (the server's lobby lists these)."""
    return [info.spec for info in agents() if game_id in info.games]


#: The agents every game has (``heuristic`` where its ``ai`` module gives one); the
#: games' own come between ``heuristic`` and ``mcts`` (``agent_kinds``).
_GENERIC = ("random", "heuristic", "mcts", "policy")
