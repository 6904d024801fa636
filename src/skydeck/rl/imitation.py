"""Behaviour cloning: start a policy from a Skydeck agent's play, then let PPO improve it.

Why: solo Stellarion pays only at the end and a fresh policy almost never wins, so PPO
alone spends most of its steps learning what the game's own heuristic already knows.
Cloning that heuristic first (maximum likelihood of its choices under the action mask,
and the critic fitted to the discounted returns of the same episodes) gives PPO a start
near the heuristic's strength; the demonstrations come from the same environment and
observations as training, the agent deciding from the seat's view and legal actions
like any player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Demonstrations:
    """Observations, masks, chosen indexes and discounted returns, one row a decision."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    wins: int


def collect(env: Any, agent: Any, episodes: int, seed: int, gamma: float) -> Demonstrations:
    """Play ``episodes`` with ``agent`` choosing the learner's moves in ``env``."""
    inner: Any = env.inner
    match = inner.match
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    acts: list[int] = []
    rets: list[float] = []
    wins = 0
    for e in range(episodes):
        obs, _ = env.reset(seed=seed + e)
        rewards: list[float] = []
        done = False
        info: dict[str, Any] = {}
        while not done:
            seat = inner.seat
            state = match.live
            legal = state.legal_actions(seat)
            choice = agent.choose(state.view(seat), legal, seat)
            index = match.catalogue.indices([choice])
            if not index:
                raise ValueError(f"imitation: '{choice}' has no index in the action space")
            obs_rows.append(obs)
            mask_rows.append(env.action_masks())
            acts.append(index[0])
            obs, reward, term, trunc, info = env.step(index[0])
            rewards.append(float(reward))
            done = term or trunc
        wins += info.get("outcome", 0.0) > 0
        ret = 0.0
        back = []
        for r in reversed(rewards):
            ret = r + gamma * ret
            back.append(ret)
        rets.extend(reversed(back))
    return Demonstrations(
        np.asarray(obs_rows, dtype=np.float32),
        np.asarray(mask_rows, dtype=bool),
        np.asarray(acts, dtype=np.int64),
        np.asarray(rets, dtype=np.float32),
        episodes,
        wins,
    )


def pretrain(
    model: Any, demos: Demonstrations, epochs: int, batch: int = 256, seed: int = 0
) -> dict[str, float]:
    """Fit the policy to the demonstrations (masked cross-entropy + value regression);
    returns the first and last epoch's mean negative log-likelihood and the agreement
    of the policy's argmax with the demonstrated choice."""
    import torch

    policy = model.policy
    optimizer = policy.optimizer
    n = len(demos.actions)
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(demos.obs)
    masks = demos.masks
    acts = torch.as_tensor(demos.actions)
    rets = torch.as_tensor(demos.returns)
    first = last = float("nan")
    policy.set_training_mode(True)
    for epoch in range(epochs):
        order = rng.permutation(n)
        total, count = 0.0, 0
        for lo in range(0, n, batch):
            idx = order[lo : lo + batch]
            values, log_prob, _ = policy.evaluate_actions(obs[idx], acts[idx], masks[idx])
            nll = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), rets[idx])
            loss = nll + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total += float(nll.detach()) * len(idx)
            count += len(idx)
        mean = total / max(count, 1)
        first = mean if epoch == 0 else first
        last = mean
    policy.set_training_mode(False)
    hits = 0
    with torch.no_grad():
        for lo in range(0, n, 4096):
            dist = policy.get_distribution(obs[lo : lo + 4096], action_masks=masks[lo : lo + 4096])
            hits += int((dist.distribution.probs.argmax(dim=1) == acts[lo : lo + 4096]).sum())
    agree = hits / max(n, 1)
    return {"nll_first": first, "nll_last": last, "agreement": agree}
