"""What a ``skydeck simulate`` run plays: a grid of game options x agents x seatings.

Every combination of the grid's values is one *setting*. Each setting plays the same
``games`` matches: match ``i`` seats the agents rotated (``tournament.seating``) and
deals seed ``seed + i // len(agents)`` (``tournament.match_seed``), so two settings
compare on the very same deals and a full rotation shares one deal.

Everything is checked before anything is written: unknown game, agent, option or grid
key, a grid of no settings or of more than ``max_settings``: ValueError naming it.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from skydeck.agents import make, parse_spec
from skydeck.core.game import Game
from skydeck.sim.tournament import load_game

DEFAULT_CHUNK = 25
DEFAULT_MAX_SETTINGS = 1000


def parse_value(text: str) -> Any:
    """A value from the command line: JSON when it parses, ``[a,b]`` a list of values,
    anything else the text itself (``wiss``, ``[wiss,vak]``, ``3``, ``true``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [parse_value(p) for p in split_top(inner)] if inner else []
    return text


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--set KEY=VALUE`` items as game options, each value read by :func:`parse_value`
    (one spelling, ``modules=[player_powers]``, in every command); ValueError names a
    malformed item."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, raw = parse_assignment(item, "--set")
        out[key] = parse_value(raw)
    return out


def split_top(text: str) -> list[str]:
    """Split on commas outside brackets: ``[a,b],[c,d]`` -> ``["[a,b]", "[c,d]"]``."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def parse_assignment(item: str, flag: str) -> tuple[str, str]:
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"{flag} expects KEY=VALUE, got {item!r}")
    return key.strip(), raw.strip()


def parse_grid(items: list[str]) -> list[tuple[str, list[Any]]]:
    """``--grid KEY=V1,V2``: the values of one key (a JSON list is taken whole)."""
    grid: list[tuple[str, list[Any]]] = []
    for item in items:
        key, raw = parse_assignment(item, "--grid")
        if any(k == key for k, _ in grid):
            raise ValueError(f"--grid names {key!r} twice")
        whole = None
        if raw.startswith("[["):
            whole = parse_value(raw)
        values = whole if isinstance(whole, list) else [parse_value(p) for p in split_top(raw)]
        grid.append((key, values))
    return grid


def text(value: Any) -> str:
    """Short label text of an option value: ``[vak,wiss]``, ``war``, ``3``."""
    if isinstance(value, list | tuple):
        return "[" + ",".join(text(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)


@dataclass(frozen=True)
class Setting:
    number: int
    label: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Plan:
    game: str
    agents: list[str]
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    grid: list[tuple[str, list[Any]]] = field(default_factory=list)
    seed: int = 0
    chunk: int = DEFAULT_CHUNK
    max_settings: int = DEFAULT_MAX_SETTINGS

    def settings(self) -> list[Setting]:
        keys = [k for k, _ in self.grid]
        out = []
        for n, combo in enumerate(itertools.product(*(v for _, v in self.grid))):
            label = " ".join(f"{k}={text(v)}" for k, v in zip(keys, combo)) or "default"
            out.append(Setting(n, label, {**self.options, **dict(zip(keys, combo))}))
        return out

    def size(self) -> int:
        return math.prod(len(v) for _, v in self.grid)

    def check(self) -> list[tuple[Setting, Game]]:
        """Every setting with its game; ValueError naming the first thing wrong."""
        if not self.agents:
            raise ValueError("--agents names no agent")
        for spec in self.agents:
            parse_spec(spec)
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, got {self.games}")
        if self.chunk < 1:
            raise ValueError(f"--chunk must be at least 1, got {self.chunk}")
        base = load_game(self.game, self.options)
        known = {spec.name for spec in type(base).option_specs} | {"players"}
        for key, values in self.grid:
            if key not in known:
                raise ValueError(
                    f"unknown grid key {key!r} for {self.game}; known: {', '.join(sorted(known))}"
                )
            if key in self.options:
                raise ValueError(f"option {key!r} is given both by --set/--players and --grid")
            if not values:
                raise ValueError(f"--grid {key}= lists no values, so the grid has no settings")
        if self.size() > self.max_settings:
            raise ValueError(
                f"the grid expands to {self.size()} settings, more than the limit of "
                f"{self.max_settings} (raise it with --max-settings)"
            )
        checked: list[tuple[Setting, Game]] = []
        made: set[tuple[str, int]] = set()
        for setting in self.settings():
            try:
                game = load_game(self.game, setting.options)
            except ValueError as exc:
                raise ValueError(f"setting {setting.label}: {exc}") from None
            for spec in self.agents:
                if (spec, game.players) not in made:
                    make(spec, game, seed=0)  # e.g. "game 'x' has no heuristic agent"
                    made.add((spec, game.players))
            checked.append((setting, game))
        return checked

    def chunks(self) -> list[tuple[int, int, int]]:
        """(setting, first index, end index) of each unit of work, in order."""
        return [
            (s, start, min(self.games, start + self.chunk))
            for s in range(self.size())
            for start in range(0, self.games, self.chunk)
        ]

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["grid"] = [[k, v] for k, v in self.grid]
        del out["max_settings"]  # a guard on the command line, not part of the run
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Plan:
        return cls(
            game=obj["game"],
            agents=list(obj["agents"]),
            games=int(obj["games"]),
            options=dict(obj["options"]),
            grid=[(k, list(v)) for k, v in obj["grid"]],
            seed=int(obj["seed"]),
            chunk=int(obj["chunk"]),
        )
