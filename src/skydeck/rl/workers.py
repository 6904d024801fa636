"""Self-play's environments spread over workers: in this process, local processes, or Ray
actors, with the same results from each.

Why the results match: PPO's own work (the policy's forward passes, the sampling of the
learner's actions, the updates) stays in the main process, and each worker holds a fixed
block of the environments (``blocks``). An environment is fully determined by its seed,
the actions it is sent and the league it is told about, and it is told the same things
in the same order whatever holds it; the workers only run it. So ``--jobs 1``, ``--jobs
N`` and ``--ray`` give the same steps, episodes, evaluations and weights for one seed
(``tests/rl/test_selfplay.py`` compares them). Ray actors live on one machine here: the
league's snapshots are files the actors read, so a cluster would need the output folder
shared.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

#: ``(config fields, env index) -> env``: must be importable by name (processes pickle it)
EnvFactory = Callable[[dict[str, Any], int], gymnasium.Env]


def blocks(envs: int, jobs: int) -> list[list[int]]:
    """Env indexes of each worker: contiguous blocks, sizes differing by at most one."""
    jobs = max(1, min(jobs, envs))
    size, extra = divmod(envs, jobs)
    out, start = [], 0
    for w in range(jobs):
        end = start + size + (1 if w < extra else 0)
        out.append(list(range(start, end)))
        start = end
    return out


class EnvGroup:
    """Some of the environments, stepped in turn; auto-resets like SB3's DummyVecEnv."""

    def __init__(self, factory: EnvFactory, fields: dict[str, Any], indexes: list[int]) -> None:
        import torch

        torch.set_num_threads(1)  # opponents' forward passes: one thread, the same sums
        self.envs = [factory(fields, i) for i in indexes]

    def reset(self, seeds: list[int | None]) -> tuple[np.ndarray, np.ndarray]:
        obs = [env.reset(seed=s)[0] for env, s in zip(self.envs, seeds, strict=True)]
        return np.stack(obs), self.masks()

    def masks(self) -> np.ndarray:
        return np.stack([env.get_wrapper_attr("action_masks")() for env in self.envs])

    def step(
        self, actions: list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]], np.ndarray]:
        obs, rewards, dones, infos = [], [], [], []
        for env, action in zip(self.envs, actions, strict=True):
            o, r, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
            info = {k: v for k, v in info.items() if k != "action_mask"}  # masks go apart
            info["TimeLimit.truncated"] = truncated and not terminated
            if done:
                info["terminal_observation"] = o
                o, _ = env.reset()
            obs.append(o)
            rewards.append(r)
            dones.append(done)
            infos.append(info)
        return (
            np.stack(obs), np.asarray(rewards, np.float32), np.asarray(dones, bool), infos,
            self.masks(),
        )

    def call(self, method: str, *args: Any) -> list[Any]:
        """``env.method(*args)`` on each environment (the league's updates)."""
        return [env.get_wrapper_attr(method)(*args) for env in self.envs]

    def get_attr(self, name: str) -> list[Any]:
        return [env.get_wrapper_attr(name) for env in self.envs]

    def set_attr(self, name: str, value: Any, which: list[int]) -> None:
        """Set ``name`` on the group's environments at positions ``which``."""
        for k in which:
            self.envs[k].set_wrapper_attr(name, value)

    def call_some(
        self, method: str, which: list[int], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> list[Any]:
        """``env.method(*args, **kwargs)`` on the environments at positions ``which``."""
        return [self.envs[k].get_wrapper_attr(method)(*args, **kwargs) for k in which]

    def run(self, task: Callable[..., Any], *args: Any) -> Any:
        """Any picklable function, on this worker (evaluation matches)."""
        return task(*args)


# --- backends: submit to a worker, then gather, in worker order ------------------------
class InProcess:
    """``--jobs 1``: the groups in this process."""

    def __init__(self, groups: list[tuple[EnvFactory, dict[str, Any], list[int]]]) -> None:
        self.groups = [EnvGroup(*g) for g in groups]

    def submit(self, worker: int, method: str, *args: Any) -> Any:
        return getattr(self.groups[worker], method)(*args)

    def gather(self, handles: list[Any]) -> list[Any]:
        return handles

    def close(self) -> None:
        self.groups = []


def _serve(conn: Any, factory: EnvFactory, fields: dict[str, Any], indexes: list[int]) -> None:
    """A worker process: build the group, then answer ``(method, args)`` until ``None``."""
    try:
        group = EnvGroup(factory, fields, indexes)
        conn.send(("ok", None))
    except Exception as exc:  # reported to the trainer, which raises it
        conn.send(("error", exc))
        return
    while True:
        message = conn.recv()
        if message is None:
            break
        method, args = message
        try:
            conn.send(("ok", getattr(group, method)(*args)))
        except Exception as exc:
            conn.send(("error", exc))
    conn.close()


class Processes:
    """``--jobs N``: one local process per group (spawned: no forked PyTorch state)."""

    def __init__(self, groups: list[tuple[EnvFactory, dict[str, Any], list[int]]]) -> None:
        context = multiprocessing.get_context("spawn")
        self.conns: list[Any] = []
        self.procs: list[Any] = []
        for g in groups:
            parent, child = context.Pipe()
            proc = context.Process(target=_serve, args=(child, *g), daemon=True)
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        self.gather(list(range(len(groups))))  # each worker says it is ready (or why not)

    def submit(self, worker: int, method: str, *args: Any) -> Any:
        self.conns[worker].send((method, args))
        return worker

    def gather(self, handles: list[Any]) -> list[Any]:
        out = []
        for worker in handles:
            status, value = self.conns[worker].recv()
            if status == "error":
                raise value
            out.append(value)
        return out

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(None)
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        self.conns, self.procs = [], []


class RayActors:
    """``--ray``: one Ray actor per group, on the running Ray or a local one started here
    (with as many CPUs as groups) and shut down at the end."""

    def __init__(self, groups: list[tuple[EnvFactory, dict[str, Any], list[int]]]) -> None:
        import os

        import ray

        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            ray.init(num_cpus=len(groups), include_dashboard=False, log_to_driver=False)
        actor = ray.remote(num_cpus=0)(EnvGroup)
        self.actors: list[Any] = [actor.remote(*g) for g in groups]

    def submit(self, worker: int, method: str, *args: Any) -> Any:
        return getattr(self.actors[worker], method).remote(*args)

    def gather(self, handles: list[Any]) -> list[Any]:
        out: list[Any] = self.ray.get(handles)
        return out

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
        if self.started:
            self.ray.shutdown()


def backend(
    factory: EnvFactory, fields: dict[str, Any], envs: int, jobs: int, ray: bool
) -> InProcess | Processes | RayActors:
    """The workers for ``envs`` environments: Ray actors, processes, or this process."""
    groups = [(factory, fields, b) for b in blocks(envs, jobs)]
    if ray:
        return RayActors(groups)
    if len(groups) == 1:
        return InProcess(groups)
    return Processes(groups)


def make_vec_env(
    factory: EnvFactory, fields: dict[str, Any], envs: int, jobs: int = 1, ray: bool = False
) -> Any:
    """An SB3 ``VecEnv`` whose environments live on the chosen workers."""
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv

    class WorkerVecEnv(VecEnv):
        """SB3's VecEnv over the workers; the masks come back with every step, so
        MaskablePPO's ``env_method("action_masks")`` costs no second round trip."""

        def __init__(self) -> None:
            self.workers = backend(factory, fields, envs, jobs, ray)
            self.blocks = blocks(envs, jobs)
            probe = factory(fields, 0)  # the spaces (a throwaway env, never stepped)
            width = int(probe.action_space.n)  # type: ignore[attr-defined]
            self._masks = np.zeros((envs, width), dtype=np.bool_)
            super().__init__(envs, probe.observation_space, probe.action_space)
            probe.close()

        def everywhere(self, method: str, *per_worker: Sequence[Any]) -> list[Any]:
            """``method`` on every worker at once, each given its slice of the args."""
            handles = [
                self.workers.submit(w, method, *[[a[i] for i in b] for a in per_worker])
                for w, b in enumerate(self.blocks)
            ]
            return self.workers.gather(handles)

        def broadcast(self, method: str, *args: Any) -> list[Any]:
            handles = [self.workers.submit(w, "call", method, *args) for w in self.workers_ids()]
            return [x for part in self.workers.gather(handles) for x in part]

        def workers_ids(self) -> range:
            return range(len(self.blocks))

        def run(self, task: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> list[Any]:
            """``task(*args)`` for each args tuple, spread over the workers in order."""
            handles = [
                self.workers.submit(i % len(self.blocks), "run", task, *args)
                for i, args in enumerate(jobs)
            ]
            return self.workers.gather(handles)

        def reset(self) -> Any:
            parts = self.everywhere("reset", self._seeds)
            self._reset_seeds()
            self._reset_options()
            self._masks = np.concatenate([m for _, m in parts])
            return np.concatenate([o for o, _ in parts])

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = [int(a) for a in actions]

        def step_wait(self) -> Any:
            parts = self.everywhere("step", self._actions)
            self._masks = np.concatenate([p[4] for p in parts])
            return (
                np.concatenate([p[0] for p in parts]),
                np.concatenate([p[1] for p in parts]),
                np.concatenate([p[2] for p in parts]),
                [info for p in parts for info in p[3]],
            )

        def close(self) -> None:
            self.workers.close()

        def has_attr(self, attr_name: str) -> bool:
            return attr_name == "action_masks" or super().has_attr(attr_name)

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            handles = [self.workers.submit(w, "get_attr", attr_name) for w in self.workers_ids()]
            values = [x for part in self.workers.gather(handles) for x in part]
            return [values[i] for i in self._get_indices(indices)]

        def _located(self, indices: Any) -> list[tuple[int, list[int], list[int]]]:
            """(worker, its local positions, their global indexes) of ``indices``."""
            wanted = set(self._get_indices(indices))
            out = []
            for w, block in enumerate(self.blocks):
                here = [(k, g) for k, g in enumerate(block) if g in wanted]
                if here:
                    out.append((w, [k for k, _ in here], [g for _, g in here]))
            return out

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            located = self._located(indices)
            handles = [
                self.workers.submit(w, "set_attr", attr_name, value, k) for w, k, _ in located
            ]
            self.workers.gather(handles)

        def env_method(
            self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
        ) -> list[Any]:
            if method_name == "action_masks":
                return [self._masks[i] for i in self._get_indices(indices)]
            if indices is None and not method_kwargs:
                return self.broadcast(method_name, *method_args)
            located = self._located(indices)
            handles = [
                self.workers.submit(w, "call_some", method_name, k, method_args, method_kwargs)
                for w, k, _ in located
            ]
            found = {
                g: value
                for (_, _, where), part in zip(located, self.workers.gather(handles), strict=True)
                for g, value in zip(where, part, strict=True)
            }
            return [found[i] for i in self._get_indices(indices)]

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]

    return WorkerVecEnv()
