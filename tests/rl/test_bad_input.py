"""Bad input gets the standard errors, each naming what was wrong: unknown games and
options (ValueError), actions outside the mask or the space (IllegalAction, a
ValueError), stepping before a reset or after the end (gymnasium's ResetNeeded)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gymnasium.error import ResetNeeded

import skydeck.rl
from skydeck.core.errors import IllegalAction


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        skydeck.rl.aec_env("chess")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        skydeck.rl.gym_env("chess")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        skydeck.rl.parallel_env("chess")


def test_unknown_options() -> None:
    with pytest.raises(ValueError, match=r"unknown option.*colour"):
        skydeck.rl.aec_env("stellarion", colour="red")
    with pytest.raises(ValueError, match="unknown expansion 'comets'"):
        skydeck.rl.gym_env("stellarion", expansions=["comets"])
    with pytest.raises(ValueError, match="players must be one of"):
        skydeck.rl.aec_env("stellium", players=7)
    with pytest.raises(ValueError, match="unknown reward 'points'"):
        skydeck.rl.aec_env("stellium", reward="points")
    with pytest.raises(ValueError, match="unknown render_mode 'human'"):
        skydeck.rl.aec_env("stellium", render_mode="human")
    with pytest.raises(ValueError, match="unknown illegal 'ignore'"):
        skydeck.rl.gym_env("stellarion", illegal="ignore")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        skydeck.rl.gym_env("stellium", players=2, seat=2)
    with pytest.raises(ValueError, match="opponents lists 1 agent"):
        skydeck.rl.gym_env("stellium", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="no_such_agent"):
        skydeck.rl.gym_env("stellium", players=2, opponents="no_such_agent")
    with pytest.raises(ValueError, match="stellarion has no simultaneous phases"):
        skydeck.rl.parallel_env("stellarion")


def _masked_out(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[1])  # index 0 is wait: take a real action


def test_aec_action_outside_mask_leaves_state_alone() -> None:
    env = skydeck.rl.aec_env("stellarion", illegal="raise")
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)
    bad = _masked_out(obs["action_mask"])
    text = str(env.match.catalogue.actions[bad])
    with pytest.raises(
        IllegalAction, match=re.escape(f"player_0: action {bad} ('{text}') is outside")
    ):
        env.step(bad)
    again = env.observe(env.agent_selection)
    assert np.array_equal(obs["observation"], again["observation"])
    assert np.array_equal(obs["action_mask"], again["action_mask"])


def test_aec_action_outside_mask_ends_the_episode_by_default() -> None:
    """PettingZoo classic's convention: the offender loses (-1), the others get 0,
    every agent terminates, the reason is in its info, and the state is untouched."""
    env = skydeck.rl.aec_env("stellium", players=3)
    env.reset(seed=4)
    agent = env.agent_selection
    before = env.match.live.clone()
    obs = env.observe(agent)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[2])  # 0 wait, 1 the clock's timeout
    assert env.match.catalogue.actions[bad].kind == "place"  # a draw step: no placing
    env.step(bad)
    assert env.rewards == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}
    assert all(env.terminations.values())
    assert f"action {bad}" in env.infos[agent]["illegal_action"]
    assert "outside the action mask" in env.infos[agent]["illegal_action"]
    assert env.match.live.to_json() == before.to_json()
    _obs, reward, term, _trunc, _info = env.last()
    assert (reward, term) == (-1.0, True)
    for _a in env.agent_iter():  # every agent leaves with None, as after any end
        env.step(None)
    assert env.agents == []


def test_the_server_clocks_action_is_never_an_agents() -> None:
    """Stellium's engine accepts ``timeout`` in the draw step (the 5-second clock's
    random draw, sent by the server); an agent sending it is outside its mask."""
    env = skydeck.rl.aec_env("stellium", players=2, illegal="raise")
    env.reset(seed=4)
    timeout = env.match.catalogue.encode(skydeck.Action("timeout"))
    assert env.action_mask()[timeout] == 0
    before = env.match.live.to_json()
    with pytest.raises(IllegalAction, match="the server clock's action, never an agent's"):
        env.step(timeout)
    assert env.match.live.to_json() == before
    gym = skydeck.rl.gym_env("stellium", players=2)
    gym.reset(seed=4)
    _obs, reward, terminated, _trunc, info = gym.step(timeout)
    assert (reward, terminated) == (-1.0, True)
    assert "never an agent's" in info["illegal_action"]


def test_aec_malformed_actions_raise_even_by_default() -> None:
    """Only a well-formed action of the space can be a lost move; anything else is a
    bug in the caller and raises under every ``illegal`` setting."""
    env = skydeck.rl.aec_env("stellium", players=2)
    env.reset(seed=1)
    n = env.action_space("player_0").n
    with pytest.raises(IllegalAction, match="outside the action space"):
        env.step(n)
    assert not any(env.terminations.values())


def test_aec_index_outside_space_and_wait() -> None:
    env = skydeck.rl.aec_env("stellium", players=2)
    env.reset(seed=1)
    n = env.action_space("player_0").n
    with pytest.raises(IllegalAction, match=rf"outside the action space Discrete\({n}\)"):
        env.step(n)
    with pytest.raises(IllegalAction, match="must be an int"):
        env.step("draw planet")
    with pytest.raises(IllegalAction, match="wait"):
        env.step(0)
    with pytest.raises(IllegalAction, match="None is only the action of a finished agent"):
        env.step(None)


def _finish_aec(env: object) -> None:
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        _obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
        else:
            env.step(int(rng.choice(env.legal_indices(agent))))  # type: ignore[attr-defined]


def test_aec_step_before_reset_and_after_the_end() -> None:
    env = skydeck.rl.aec_env("stellarion")
    with pytest.raises(ResetNeeded, match="call reset"):
        env.step(1)
    env.reset(seed=2)
    _finish_aec(env)
    assert env.agents == []
    with pytest.raises(ResetNeeded, match="episode is over"):
        env.step(1)


def test_aec_finished_agent_takes_only_none() -> None:
    env = skydeck.rl.aec_env("stellarion")
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_indices())))
    assert env.rewards["player_0"] in (1.0, -1.0)
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(1)


def test_gym_errors() -> None:
    env = skydeck.rl.gym_env("stellarion", illegal="raise")
    with pytest.raises(ResetNeeded, match="call reset"):
        env.step(1)
    _, info = env.reset(seed=9)
    bad = _masked_out(info["action_mask"])
    with pytest.raises(IllegalAction, match=f"action {bad} .* is outside the action mask"):
        env.step(bad)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _obs, reward, terminated, _truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
    assert reward in (1.0, -1.0)
    with pytest.raises(ResetNeeded, match="episode is over"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]) if info["action_mask"].any() else 1)


def test_gym_illegal_lose_ends_the_episode() -> None:
    env = skydeck.rl.gym_env("stellarion")  # "lose" is the default
    assert env.illegal == "lose"
    _, info = env.reset(seed=9)
    bad = _masked_out(info["action_mask"])
    _, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert f"action {bad}" in info["illegal_action"]
    with pytest.raises(ResetNeeded):
        env.step(bad)


def test_parallel_errors() -> None:
    env = skydeck.rl.parallel_env("conflict", players=2, illegal="raise")
    with pytest.raises(ResetNeeded, match="call reset"):
        env.step({})
    obs, _ = env.reset(seed=3)
    legal = {a: np.flatnonzero(o["action_mask"]) for a, o in obs.items()}
    ok = {a: int(v[0]) for a, v in legal.items()}
    with pytest.raises(IllegalAction, match="player_1 must act now"):
        env.step({"player_0": ok["player_0"]})
    with pytest.raises(IllegalAction, match="player_0: action 0 \\(wait\\)"):
        env.step({**ok, "player_0": 0})
    bad = _masked_out(obs["player_1"]["action_mask"])
    with pytest.raises(IllegalAction, match=f"player_1: action {bad} .* outside the action mask"):
        env.step({**ok, "player_1": bad})
    with pytest.raises(ValueError, match="unknown or finished agent 'player_7'"):
        env.step({**ok, "player_7": 1})
    rng = np.random.default_rng(0)
    while env.agents:
        obs, *_ = env.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        )
    with pytest.raises(ResetNeeded, match="episode is over"):
        env.step(ok)


def test_parallel_action_outside_mask_ends_the_episode_by_default() -> None:
    env = skydeck.rl.parallel_env("conflict", players=2)
    obs, _ = env.reset(seed=3)
    before = env.match.live.to_json()
    ok = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    bad = _masked_out(obs["player_1"]["action_mask"])
    _obs, rewards, terms, truncs, infos = env.step({**ok, "player_1": bad})
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert terms == {"player_0": True, "player_1": True}
    assert not any(truncs.values())
    assert "outside the action mask" in infos["player_1"]["illegal_action"]
    assert env.match.live.to_json() == before  # player_0's action is not applied either
    assert env.agents == []


def test_parallel_waiting_seat_may_only_wait() -> None:
    env = skydeck.rl.parallel_env("expedition", players=2)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(200):  # find a step where one seat acts alone
        movers = env.match.live.to_move
        if len(movers) == 1:
            break
        obs, *_ = env.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        )
    waiting = next(a for a in env.agents if obs[a]["action_mask"][0])
    assert obs[waiting]["action_mask"].sum() == 1
    acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
    acts[waiting] = 5
    with pytest.raises(IllegalAction, match=f"{waiting} may not act now"):
        env.step(acts)
