"""The environments against the standard API tests, for every game and player count.

Cycles are few (the API tests check the protocol, not the games); the catalogue
coverage test plays whole random games per configuration.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import skydeck
import skydeck.rl
from skydeck.core import Rng
from skydeck.encoding import tables

GAMES = skydeck.rl.ENV_IDS.keys()
PLAYER_COUNTS = [
    (g, n) for g in sorted(GAMES) for n in skydeck.registry.game_class(g).player_counts
]
SIMULTANEOUS = [(g, n) for g, n in PLAYER_COUNTS if g in ("conflict", "expedition")]


def _quiet() -> Any:
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    # the classic dict observation ({"observation", "action_mask"}) draws two advisory
    # warnings from api_test, as PettingZoo's own classic games do
    warnings.filterwarnings("ignore", message="Observation space for each agent")
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    return ctx


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_aec_api(game: str, players: int) -> None:
    ctx = _quiet()
    try:
        api_test(skydeck.rl.aec_env(game, players=players), num_cycles=60)
    finally:
        ctx.__exit__(None, None, None)


@pytest.mark.parametrize(("game", "players"), SIMULTANEOUS)
def test_parallel_api(game: str, players: int) -> None:
    parallel_api_test(skydeck.rl.parallel_env(game, players=players), num_cycles=40)


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_gym_check_env(game: str, players: int) -> None:
    """check_env steps an action it sampled before a reset to another deal: the
    environment ends such an episode (illegal="lose", the default) instead of raising."""
    env = skydeck.rl.gym_env(game, players=players, opponents="random")
    ctx = warnings.catch_warnings()
    with ctx:
        warnings.filterwarnings("ignore", message=".*Box observation space m")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", sorted(skydeck.rl.ENV_IDS.values()))
def test_gym_check_env_on_the_default_environment(env_id: str) -> None:
    """Exactly what a user gets from ``gymnasium.make(id)``, with no argument."""
    env = gymnasium.make(env_id)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space m")
        check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_make() -> None:
    env = gymnasium.make("skydeck/Stellarion-v0")
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].sum() > 0
    for game, env_id in skydeck.rl.ENV_IDS.items():
        assert gymnasium.spec(env_id).kwargs == {"game": game}


def _random_episode(env: Any, seed: int, steps: int) -> list[tuple[int, float]]:
    """(action, reward) trail of a masked random player, its choices seeded apart."""
    rng = np.random.default_rng(1234)
    obs, info = env.reset(seed=seed)
    trail = []
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        trail.append((action, float(reward), float(obs.sum())))
        if terminated or truncated:
            break
    return trail


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seed_reproduces_episode(game: str) -> None:
    players = skydeck.registry.game_class(game).player_counts[0]
    env = skydeck.rl.gym_env(game, players=players, opponents="random")
    first = _random_episode(env, seed=11, steps=60)
    again = _random_episode(env, seed=11, steps=60)
    other = _random_episode(env, seed=12, steps=60)
    assert first == again
    assert first != other


@pytest.mark.parametrize("game", sorted(GAMES))
def test_aec_seed_reproduces_observations(game: str) -> None:
    players = skydeck.registry.game_class(game).player_counts[-1]

    def run() -> list[np.ndarray]:
        env = skydeck.rl.aec_env(game, players=players)
        env.reset(seed=5)
        rng = np.random.default_rng(0)
        seen = []
        for _agent in env.agent_iter(max_iter=40):
            obs, _, term, trunc, _ = env.last()
            seen.append(obs["observation"])
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen

    a, b = run(), run()
    assert len(a) == len(b)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("game", "config"),
    [
        (g, c)
        for g in sorted(GAMES)
        for c in skydeck.registry.game_class(g).conformance_configs()
    ],
)
def test_catalogue_covers_every_legal_action(game: str, config: dict[str, Any]) -> None:
    """Random games: every legal action has an index, decodes back to itself, and
    every observation has the declared size and stays finite."""
    g = skydeck.load(game, **config)
    catalogue, observer = tables(g)
    rng = Rng(7)
    for seed in range(2):
        state = g.new(seed)
        steps = 0
        while not state.is_over and steps < 3000:
            seat = state.to_move[rng.below(len(state.to_move))]
            legal = state.legal_actions(seat)
            assert catalogue.missing(legal) == []
            for a in legal:
                assert catalogue.decode(catalogue.encode(a)) == a
            # the identity-keyed fast path agrees with the plain look-up
            assert catalogue.indices(legal) == [catalogue.encode(a) for a in legal]
            obs = observer.encode(state.view(seat), seat)
            assert obs.shape == (observer.size,)
            assert np.isfinite(obs).all()
            state.apply(legal[rng.below(len(legal))], seat)
            steps += 1


def test_conflict_continuous_variant_apis() -> None:
    ctx = _quiet()
    try:
        env = skydeck.rl.aec_env("conflict", players=2, placement="continuous")
        for agent in env.possible_agents:  # one shared space: its samples are now seeded
            env.action_space(agent).seed(0)
        api_test(env, num_cycles=60)
    finally:
        ctx.__exit__(None, None, None)
    par = skydeck.rl.parallel_env("conflict", players=3, placement="continuous")
    for agent in par.possible_agents:
        par.action_space(agent).seed(1)
    parallel_api_test(par, num_cycles=30)
    gym_env = skydeck.rl.gym_env(
        "conflict", players=2, placement="continuous", opponents="random", illegal="lose"
    )
    check_env(gym_env, skip_render_check=True)


def test_conflict_place_any() -> None:
    """place_any is legal exactly when a card is in hand; its Box gives any whole-mm
    spot, not only the grid's; a spot that touches a card is refused, naming it."""
    env = skydeck.rl.aec_env("conflict", players=2, placement="continuous", illegal="raise")
    env.reset(seed=2)
    match = env.match
    n = match.catalogue.n
    assert env.action_space("player_0")[0].n == n + 1
    while match.live.view(None)["phase"] == "preparation":
        env.step(match.catalogue.encode(skydeck.Action("ready")))
    seat = match.live.to_move[0]
    env.agent_selection, env._seat = f"player_{seat}", seat
    mask = env.action_mask()
    assert mask[n] == 1
    env.step((n, np.array([123.4 / 900, 321.6 / 600, 47.2 / 360], dtype=np.float32)))
    cards = match.live.view(None)["cards"]
    assert (cards[-1]["x"], cards[-1]["y"], cards[-1]["angle"]) == (123, 322, 47)
    seat = env._seat
    assert env.action_mask()[n] == 1
    with pytest.raises(skydeck.IllegalAction, match=r"place 125 320 0"):
        env.step((n, [125 / 900, 320 / 600, 0.0]))  # on top of the card just placed
    with pytest.raises(skydeck.IllegalAction, match="needs"):
        env.step(n)


def test_continuous_is_conflicts_only() -> None:
    with pytest.raises(ValueError, match=r"stellium has no continuous choices.* is for conflict$"):
        skydeck.rl.aec_env("stellium", placement="continuous")
    with pytest.raises(ValueError, match="unknown placement 'free'"):
        skydeck.rl.aec_env("conflict", placement="free")


def test_match_seed_plays_that_exact_match() -> None:
    env = skydeck.rl.aec_env("stellium", players=3)
    env.reset(seed=1, options={"match_seed": 7})
    assert env.match.live.to_json() == skydeck.load("stellium", players=3).new(7).to_json()
    gym_env = skydeck.rl.gym_env("stellarion")
    gym_env.reset(options={"match_seed": 7})
    assert gym_env.match.live.to_json() == skydeck.load("stellarion").new(7).to_json()
    with pytest.raises(ValueError, match="match_seed must be a non-negative int"):
        env.reset(options={"match_seed": "7"})


def test_margin_reward_is_the_score_margin() -> None:
    env = skydeck.rl.aec_env("stellium", players=3, reward="margin")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_indices())))
    scores = env.match.live.scores
    for seat, agent in enumerate(env.possible_agents):
        others = [x for i, x in enumerate(scores) if i != seat]
        assert env.rewards[agent] == scores[seat] - max(others)


def test_outcome_rewards_follow_the_winners() -> None:
    env = skydeck.rl.aec_env("stellium", players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_indices())))
    winners = env.match.live.winners
    for seat, agent in enumerate(env.possible_agents):
        want = (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0
        assert env.rewards[agent] == want


def test_parallel_collision_lets_the_later_seat_choose_again() -> None:
    """Two seats aim at one grid spot in one step: seat 0 places, seat 1 is told it
    collided and still holds its card."""
    env = skydeck.rl.parallel_env("conflict", players=2)
    obs, _ = env.reset(seed=0)
    ready = env.match.catalogue.encode(skydeck.Action("ready"))
    while env.match.live.view(None)["phase"] == "preparation":
        obs, *_ = env.step({a: ready if obs[a]["action_mask"][ready] else 0 for a in env.agents})
    common = np.flatnonzero(obs["player_0"]["action_mask"] & obs["player_1"]["action_mask"])
    spot = int(next(i for i in common if env.match.catalogue.actions[i].kind == "place"))
    cards = len(env.match.live.view(None)["cards"])
    obs, _, _, _, infos = env.step({"player_0": spot, "player_1": spot})
    assert infos["player_1"].get("collided") is True
    assert "collided" not in infos["player_0"]
    view = env.match.live.view(1)
    assert len(view["cards"]) == cards + 1 and view["cards"][-1]["owner"] == 0
    assert view["seats"][1]["holding"]
    assert not obs["player_1"]["action_mask"][spot]
