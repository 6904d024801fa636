"""Behaviour cloning: start a policy from a Skydeck agent's play, then let PPO improve it.

Why: solo Stellarion pays only at the end and a fresh policy almost never wins, so PPO
alone spends most of its steps learning what the game's own heuristic already knows.
Cloning that heuristic first (maximum likelihood of its choices under the action mask,
and the critic fitted to the discounted returns of the same episodes) gives PPO a start
near the heuristic's strength; the demonstrations come from the same environment and
observations as training, the agent deciding from the seat's view and legal actions
like any player.

The heuristic costs about 20 ms of CPU a decision (it plays each candidate's turn out
on sampled deals), so demonstrations are worth keeping: ``save``/``load`` write them to
one compressed ``.npz`` that later runs reuse. Whole episodes are held out for a
validation agreement (rows of one episode are too alike to test on each other), and
DAgger (Ross, Gordon and Bagnell 2011) adds the states the clone itself reaches,
labelled with the agent's choice there: a clone that only saw the heuristic's states
drifts into positions it never learned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: ``driver(obs, mask) -> index``: who plays the move while the agent only labels it
Driver = Callable[[np.ndarray, np.ndarray], int]


@dataclass
class Demonstrations:
    """Observations, masks, chosen indexes and discounted returns, one row a decision."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    wins: int
    #: the episode (0..episodes-1) of each row: validation holds out whole episodes
    episode: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))

    def __len__(self) -> int:
        return len(self.actions)


def collect(
    env: Any,
    agent: Any,
    episodes: int,
    seed: int,
    gamma: float,
    driver: Driver | None = None,
) -> Demonstrations:
    """Play ``episodes`` in ``env``, recording ``agent``'s choice at each of the learner's
    decisions; ``driver`` (DAgger) plays the move instead when given, else the agent's
    choice is played. ``wins`` counts the episodes the player of the moves won."""
    inner: Any = env.inner
    match = inner.match
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    acts: list[int] = []
    rets: list[float] = []
    eps: list[int] = []
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
            mask = env.action_masks().copy()
            obs_rows.append(obs)
            mask_rows.append(mask)
            acts.append(index[0])
            eps.append(e)
            move = index[0] if driver is None else driver(obs, mask)
            obs, reward, term, trunc, info = env.step(move)
            rewards.append(float(reward))
            done = term or trunc
        wins += info.get("outcome", 0.0) > 0
        rets.extend(discounted(rewards, gamma))
    return Demonstrations(
        np.asarray(obs_rows, dtype=np.float32),
        np.asarray(mask_rows, dtype=bool),
        np.asarray(acts, dtype=np.int64),
        np.asarray(rets, dtype=np.float32),
        episodes,
        wins,
        np.asarray(eps, dtype=np.int32),
    )


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The return from each step to the episode's end."""
    ret = 0.0
    back = []
    for r in reversed(rewards):
        ret = r + gamma * ret
        back.append(ret)
    return back[::-1]


# --- keeping demonstrations ----------------------------------------------------------
def save(demos: Demonstrations, path: str | Path) -> None:
    """One compressed ``.npz`` (observations are sparse; masks packed to bits)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    part = p.with_name(p.name + ".part.npz")  # written whole, then renamed
    np.savez_compressed(
        part,
        obs=demos.obs,
        legal=np.packbits(demos.masks, axis=1),
        width=demos.masks.shape[1],
        actions=demos.actions,
        returns=demos.returns,
        episode=demos.episode,
        episodes=demos.episodes,
        wins=demos.wins,
    )
    part.replace(p)


def load(path: str | Path, width: int | None = None) -> Demonstrations:
    """The demonstrations ``save`` wrote; ValueError when they do not fit ``width``
    actions (another game or option set)."""
    try:
        z = np.load(Path(path))
    except (OSError, ValueError) as exc:
        raise ValueError(f"imitation: cannot read demonstrations {str(path)!r}: {exc}") from None
    with z:
        stored = int(z["width"])
        if width is not None and stored != width:
            raise ValueError(
                f"imitation: {str(path)!r} holds demonstrations for {stored} actions, "
                f"this environment has {width}"
            )
        masks = np.unpackbits(z["legal"], axis=1, count=stored).astype(bool)
        return Demonstrations(
            z["obs"], masks, z["actions"], z["returns"],
            int(z["episodes"]), int(z["wins"]), z["episode"],
        )


def concat(parts: list[Demonstrations]) -> Demonstrations:
    """Several sets as one, episodes renumbered so they stay apart."""
    offsets = np.cumsum([0] + [d.episodes for d in parts[:-1]])
    return Demonstrations(
        np.concatenate([d.obs for d in parts]),
        np.concatenate([d.masks for d in parts]),
        np.concatenate([d.actions for d in parts]),
        np.concatenate([d.returns for d in parts]),
        sum(d.episodes for d in parts),
        sum(d.wins for d in parts),
        np.concatenate([d.episode + o for d, o in zip(parts, offsets, strict=True)]),
    )


# --- fitting -------------------------------------------------------------------------
def holdout(demos: Demonstrations, share: float, seed: int) -> np.ndarray:
    """Boolean rows of the validation episodes: each episode held out with chance
    ``share`` (at least one and not all, given two or more). The draw for episode e
    does not depend on how many follow, so appending DAgger episodes keeps the same
    demonstrations held out and the agreement stays a held-out one."""
    n = demos.episodes
    draw = np.random.default_rng(seed).random(n)
    chosen = draw < share
    if share > 0 and n >= 2 and not chosen.any():
        chosen[np.argmin(draw)] = True
    if n >= 2 and chosen.all():
        chosen[np.argmax(draw)] = False
    out: np.ndarray = chosen[demos.episode]
    return out


def masked_logits(policy: Any, obs: Any, masks: Any) -> Any:
    """The actor's masked logits (illegal indexes at -inf): the cross-entropy straight
    from them is the masked log-likelihood without building a distribution a batch."""
    features = policy.extract_features(obs, policy.pi_features_extractor)
    logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
    return logits.masked_fill(~masks, float("-inf"))


def _values(policy: Any, obs: Any) -> Any:
    features = policy.extract_features(obs, policy.vf_features_extractor)
    return policy.value_net(policy.mlp_extractor.forward_critic(features)).flatten()


def agreement(policy: Any, obs: Any, masks: Any, acts: Any) -> float:
    """Share of rows where the policy's most likely legal index is the demonstrated one."""
    import torch

    if len(acts) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for lo in range(0, len(acts), 4096):
            sl = slice(lo, lo + 4096)
            hits += int((masked_logits(policy, obs[sl], masks[sl]).argmax(1) == acts[sl]).sum())
    return hits / len(acts)


def pretrain(
    model: Any,
    demos: Demonstrations,
    epochs: int,
    batch: int = 256,
    seed: int = 0,
    lr: float | None = None,
    validation: float = 0.0,
    validation_seed: int = 0,
) -> dict[str, Any]:
    """Fit the policy to the demonstrations (masked cross-entropy + value regression) at
    learning rate ``lr`` (default: the model's); ``validation`` holds out that share of
    the episodes and keeps the epoch's weights that agree with them best. Returns the
    first and last epoch's mean negative log-likelihood, the agreement of the policy's
    argmax with the demonstrated choice on the fitted rows and (if any) the held-out
    ones, the epoch kept and the held-out agreement after each epoch."""
    import torch

    policy = model.policy
    optimizer = policy.optimizer
    held = holdout(demos, validation, validation_seed)  # none when validation is 0
    obs = torch.as_tensor(demos.obs)
    masks = torch.as_tensor(demos.masks)
    acts = torch.as_tensor(demos.actions)
    rets = torch.as_tensor(demos.returns)
    fit = np.flatnonzero(~held)
    val = torch.as_tensor(np.flatnonzero(held))
    rng = np.random.default_rng(seed)
    saved_lr = [g["lr"] for g in optimizer.param_groups]
    for g in optimizer.param_groups:
        g["lr"] = lr if lr is not None else g["lr"]
    nll_per_epoch: list[float] = []
    curve: list[float] = []  # held-out agreement after each epoch
    best: tuple[float, int, dict[str, Any] | None] = (-1.0, 0, None)  # agreement, epoch, weights
    try:
        for epoch in range(epochs):
            policy.set_training_mode(True)
            nll_per_epoch.append(_epoch(policy, optimizer, obs, masks, acts, rets, fit, rng, batch))
            if len(val):
                policy.set_training_mode(False)
                score = agreement(policy, obs[val], masks[val], acts[val])
                curve.append(score)
                if score > best[0]:
                    weights = {k: v.clone() for k, v in policy.state_dict().items()}
                    best = (score, epoch + 1, weights)
    finally:
        for g, old in zip(optimizer.param_groups, saved_lr, strict=True):
            g["lr"] = old
        policy.set_training_mode(False)
    if best[2] is not None:
        policy.load_state_dict(best[2])
    fitted = torch.as_tensor(fit)
    figures: dict[str, Any] = {
        "nll_first": nll_per_epoch[0] if nll_per_epoch else float("nan"),
        "nll_last": nll_per_epoch[-1] if nll_per_epoch else float("nan"),
        "agreement": agreement(policy, obs[fitted], masks[fitted], acts[fitted]),
    }
    if len(val):
        figures |= {"validation_agreement": best[0], "kept_epoch": best[1],
                    "validation_rows": len(val), "validation_by_epoch": curve}
    return figures


def _epoch(
    policy: Any, optimizer: Any, obs: Any, masks: Any, acts: Any, rets: Any,
    rows: np.ndarray, rng: np.random.Generator, batch: int,
) -> float:
    """One pass over ``rows`` in random batches; the mean negative log-likelihood."""
    import torch
    import torch.nn.functional as F

    total = 0.0
    order = rows[rng.permutation(len(rows))]
    for lo in range(0, len(order), batch):
        idx = torch.as_tensor(order[lo : lo + batch])
        nll = F.cross_entropy(masked_logits(policy, obs[idx], masks[idx]), acts[idx])
        value_loss = F.mse_loss(_values(policy, obs[idx]), rets[idx])
        loss = nll + 0.5 * value_loss
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimizer.step()
        total += float(nll.detach()) * len(idx)
    return total / max(len(order), 1)
