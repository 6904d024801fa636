"""Skydeck's games as reinforcement-learning environments (extra ``skydeck[rl]``).

    import skydeck.rl
    env = skydeck.rl.aec_env("stellium", players=3)        # PettingZoo AEC
    env = skydeck.rl.parallel_env("conflict", players=2)   # PettingZoo parallel
    env = skydeck.rl.gym_env("stellarion")                 # Gymnasium, solo
    gymnasium.make("skydeck/Stellarion-v0")                # registered on import

Every environment runs the same engines as the rest of Skydeck; observations come from
``state.view(seat)`` only; actions are a fixed catalogue per game and option set (see
``catalogue.py`` and docs/rl.md).
"""

from __future__ import annotations

from typing import Any

from skydeck.core.catalogue import ActionCatalogue
from skydeck.encoding import tables


def env_ids() -> dict[str, str]:
    """Gymnasium's id of every game's environment (``Capabilities.environment_id``)."""
    from skydeck.registry import game_class, game_ids

    return {g: game_class(g).capabilities.environment_id(g) for g in game_ids()}


ENV_IDS = env_ids()


def aec_env(game: str, **options: Any) -> Any:
    """A PettingZoo AEC environment; ``render_mode``, ``reward`` ("outcome" or
    "margin"), ``max_cycles`` and the game's own options (as ``skydeck.load``)."""
    from skydeck.rl.aec import SkydeckAEC

    return SkydeckAEC(game, **options)


def parallel_env(game: str, **options: Any) -> Any:
    """A PettingZoo parallel environment (Stellar Conflict, Stellar Expedition)."""
    from skydeck.rl.parallel import SkydeckParallel

    return SkydeckParallel(game, **options)


def gym_env(game: str = "stellarion", **options: Any) -> Any:
    """A Gymnasium environment for one seat (``seat``), the others played by
    ``opponents`` (agent specs)."""
    from skydeck.rl.gym import SkydeckGym

    return SkydeckGym(game, **options)


def register() -> None:
    """Register ``skydeck/<Game>-v0`` with Gymnasium (done on import; idempotent)."""
    import gymnasium

    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point="skydeck.rl.gym:SkydeckGym", kwargs={"game": game}
            )


register()


def describe(game: str, **options: Any) -> str:
    """Markdown tables of a game's action catalogue and observation pieces for an
    option set (docs/rl.md is made of these)."""
    from skydeck.registry import load

    g = load(game, **options)
    catalogue, observer = tables(g)
    lines = [
        f"Options {g.options}: Discrete({catalogue.n}) actions, observation of "
        f"{observer.size} float32.",
        "",
        "| block | first index | size | example |",
        "|---|---:|---:|---|",
    ]
    for name, start, size, example in catalogue.describe():
        lines.append(f"| {name} | {start} | {size} | `{example}` |")
    lines += ["", "| piece | shape | offset | meaning |", "|---|---|---:|---|"]
    for name, shape, start, doc in observer.describe():
        lines.append(f"| {name} | {'x'.join(map(str, shape))} | {start} | {doc} |")
    return "\n".join(lines)


__all__ = [
    "ENV_IDS",
    "ActionCatalogue",
    "aec_env",
    "describe",
    "gym_env",
    "parallel_env",
    "register",
    "tables",
]
