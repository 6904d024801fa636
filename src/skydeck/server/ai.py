"""AI seats: agents from ``skydeck.agents``, built from specs the server has checked.

Agents see a view and the legal actions, never the state (the Agent protocol).

A spec that comes from the network goes through ``network_spec`` once, when the match
is made: it is normalised before any check, then only what the lobby offers for the
game is accepted, budgets only within the server's limits (``Settings.ai_max_seconds``,
``ai_max_iterations``), and a model only by a name the models folder lists. What it
returns is stored and is all ``make_agent`` builds, on every move and after a restart.
The command line (``skydeck tournament``/``simulate``) calls ``skydeck.agents.make``
directly and keeps every override.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Agent, Game, Rng

if TYPE_CHECKING:
    from skydeck.server.settings import Settings


class RandomAgent:
    """Uniform among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        return self.rng.choice(legal_actions)


#: the models folder when the caller names none (``Settings.models``'s default)
DEFAULT_MODELS = Path("skydeck-data/models")

#: the longest spec a lobby request may send (a model's file name fits)
MAX_SPEC = 300

#: the parameters a lobby request may set, per agent: the thinking budget only, as
#: ``key: (stored key, kind)``; the aliases of mcts are stored under one name
NETWORK_PARAMS: dict[str, dict[str, tuple[str, str]]] = {
    "mcts": {
        "seconds": ("seconds", "seconds"),
        "time": ("seconds", "seconds"),
        "iterations": ("iterations", "iterations"),
        "iters": ("iterations", "iterations"),
    },
    "pimc": {"seconds": ("seconds", "seconds")},
    "lookahead": {
        "seconds": ("seconds", "seconds"),
        "endgame_seconds": ("endgame_seconds", "seconds"),
    },
}

#: said of a parameter the network may not set
FOR_THE_COMMAND_LINE = (
    "over the network only a budget may be set, within this server's limits "
    "(mcts: seconds, iterations; pimc: seconds; lookahead: seconds, endgame_seconds); "
    "other parameters are for the command line (`skydeck tournament`, `skydeck simulate`)"
)

#: the one answer to a model name that is refused, whatever the reason, so that no
#: answer tells whether some other path exists
NO_SUCH_MODEL = "policy: no such model in this server's models folder"


def models_dir(models: Path | None = None) -> Path:
    """The models folder: the server's ``Settings.models``; None: the default folder."""
    return DEFAULT_MODELS if models is None else Path(models)


def _model_file(folder: Path, name: str) -> Path | None:
    """The file a model name stands for, symlinks resolved, when the name is a plain
    ``*.zip`` file name and the file lies inside ``folder``; None otherwise. Loading a
    model unpickles code, so nothing outside the folder may be reached."""
    if (
        not name.endswith(".zip")
        or name.startswith(".")
        or any(c in name for c in "/\\")
        or any(c.isspace() for c in name)  # network_spec refuses spaces: never listed
        or not name.isprintable()
    ):
        return None
    try:
        root = folder.resolve(strict=True)
        path = (root / name).resolve(strict=True)
        inside = path.is_relative_to(root) and path != root and path.is_file()
    except (OSError, RuntimeError, ValueError):  # missing, a link loop, a bad name
        return None
    return path if inside else None


def model_specs(game_id: str, models: Path | None = None) -> list[str]:
    """``policy:NAME`` for each model in the models folder trained for ``game_id``
    (a file that is not a Skydeck model, or a link out of the folder, is left out, not
    an error in the lobby)."""
    folder = models_dir(models)
    try:
        from skydeck.agents.model_file import read_meta
    except ImportError:  # the rl extra is not installed: no policies to offer
        return []
    out = []
    try:
        names = sorted(p.name for p in folder.glob("*.zip")) if folder.is_dir() else []
    except OSError:
        return []
    for name in names:
        path = _model_file(folder, name)
        if path is None:
            continue
        try:
            meta = read_meta(path)
        except (ValueError, OSError):
            continue
        if isinstance(meta, dict) and meta.get("game") == game_id:
            out.append(f"policy:{name}")
    return out


def model_path(spec: str, models: Path | None = None) -> str:
    """``policy:NAME`` -> ``policy:<file inside the models folder>``; ValueError, the
    same for every refused name, when NAME is not a model file inside the folder."""
    name = spec.strip()[len("policy:") :] if spec.strip().startswith("policy:") else ""
    path = _model_file(models_dir(models), name)
    if path is None:
        raise ValueError(NO_SUCH_MODEL)
    return f"policy:{path}"


def available_specs(game_id: str, models: Path | None = None) -> list[str]:
    """Agent specs the lobby offers for a game (``random`` always), then the trained
    models of the models folder for that game."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        infos = agents.agents()
        specs = [str(i.spec) for i in infos if game_id in i.games]
    except Exception:  # an agents package mid-construction must not break the lobby
        return ["random"]
    specs = specs if "random" in specs else ["random", *specs]
    return specs + model_specs(game_id, models)


def levels(game: str, specs: list[str], rated: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """What each AI the lobby offers is (issue 51: a level says what it is): its bot
    account's name, a sentence on how it plays (with the game's own note, e.g. a flat
    search), and the bot's rating in this game once it has played rated matches."""
    from skydeck.server.accounts import bot_name

    try:
        agents: Any = importlib.import_module("skydeck.agents")
        known = {str(i.spec): i for i in agents.agents()}
    except Exception:  # as available_specs: a broken agents package must not break the lobby
        known = {}
    out = []
    for spec in specs:
        info = known.get(spec)
        if info is not None:
            summary = info.summary
        elif spec.startswith("policy:"):
            summary = "a trained policy from the server's models folder"
        else:
            summary = "an AI player"
        note = None if info is None else info.notes.get(game)
        out.append(
            {
                "spec": spec,
                "name": bot_name(spec),
                "summary": summary if note is None else f"{summary} ({note})",
                "rating": rated.get(spec),
            }
        )
    return out


def network_spec(spec: Any, game_id: str, settings: Settings) -> str:
    """The spec to store for an AI seat a lobby request asked for; ValueError naming
    what is wrong. Normalised once (outer whitespace stripped) before any check; then
    only an agent the lobby offers for ``game_id``, budget overrides within the
    server's limits, or ``policy:NAME`` with NAME exactly as the models folder lists it."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec must be a string, got {type(spec).__name__}")
    text = spec.strip()
    if not text:
        raise ValueError("an agent spec must not be empty")
    if len(text) > MAX_SPEC:
        raise ValueError(f"an agent spec has at most {MAX_SPEC} characters")
    if any(c.isspace() for c in text) or not text.isprintable():
        raise ValueError(f"agent spec {text!r}: no spaces or control characters inside a spec")
    offered = available_specs(game_id, settings.models)
    if text == "policy" or text.startswith("policy:"):
        if text not in offered:  # exact: no case folding, decoding or path of any kind
            listed = [s for s in offered if s.startswith("policy:")]
            raise ValueError(
                f"{NO_SUCH_MODEL} for {game_id!r}; name one it lists: {', '.join(listed) or 'none'}"
            )
        return text

    from skydeck.agents.mcts import DEFAULT_LEVEL, LEVELS, level_with
    from skydeck.agents.registry import parse_spec

    parsed = parse_spec(text)
    base = parsed.name if parsed.level is None else f"{parsed.name}:{parsed.level}"
    if (f"mcts:{DEFAULT_LEVEL}" if base == "mcts" else base) not in offered:
        raise ValueError(
            f"agent {base!r} is not offered for {game_id!r}; offered: {', '.join(offered)}"
        )
    allowed = NETWORK_PARAMS.get(parsed.name, {})
    params: dict[str, str] = {}
    for key, raw in parsed.params.items():
        if key not in allowed:
            raise ValueError(f"{text}: parameter {key!r} is not accepted: {FOR_THE_COMMAND_LINE}")
        stored, kind = allowed[key]
        params.pop(stored, None)  # a later alias wins, as it would when built
        params[stored] = _budget(text, stored, kind, raw, settings)
    if parsed.name == "mcts":
        level = level_with(LEVELS[parsed.level or DEFAULT_LEVEL], params)
        if level.seconds is None and level.iterations is None:  # unreachable, kept honest
            raise ValueError(f"{text}: a search needs a limit (0 means no limit)")
    parts = [base, *(f"{k}={v}" for k, v in params.items())]
    return ":".join(parts)


def _budget(spec: str, key: str, kind: str, raw: str, settings: Settings) -> str:
    """One budget value of a lobby request, checked against the server's limit and
    written back plainly; ValueError naming the limit."""
    if kind == "iterations":
        try:
            n = int(raw)
        except ValueError:
            raise ValueError(f"{spec}: {key} must be a whole number, got {raw!r}") from None
        if n < 1:
            raise ValueError(f"{spec}: {key} must be at least 1 (0 would mean no limit)")
        if n > settings.ai_max_iterations:
            raise ValueError(
                f"{spec}: {key} may be at most {settings.ai_max_iterations} on this server "
                "(ai_max_iterations)"
            )
        return str(n)
    try:
        t = float(raw)
    except ValueError:
        raise ValueError(f"{spec}: {key} must be a number of seconds, got {raw!r}") from None
    if not math.isfinite(t) or t <= 0:
        raise ValueError(f"{spec}: {key} must be above 0 (0 would mean no limit), got {raw!r}")
    if t > settings.ai_max_seconds:
        raise ValueError(
            f"{spec}: {key} may be at most {settings.ai_max_seconds:g} on this server "
            "(ai_max_seconds)"
        )
    return str(int(t)) if t == int(t) else repr(t)


def make_agent(spec: str, game: Game, seed: int, models: Path | None = None) -> Agent:
    """The agent of a stored spec (one ``network_spec`` returned): ``policy:NAME`` is
    the model file inside the models folder, re-checked there; the rest is
    ``skydeck.agents.make(spec, game, seed)``, random if that package is missing."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        make = agents.make
    except (ImportError, AttributeError):
        return RandomAgent(seed)
    spec = spec.strip()
    if spec == "policy" or spec.startswith("policy:"):
        spec = model_path(spec, models)
    try:
        agent: Agent = make(spec, game, seed=seed)
    except (ValueError, KeyError, TypeError):
        if spec != "random":
            raise
        return RandomAgent(seed)
    return agent
