"""A trained model's file: the ``skydeck.json`` inside its zip, and the extra it needs.

Here, beside the agent that plays a model, and not in ``rl/train.py``, which writes
it: the trainer imports the agents (its opponents and teachers), so a policy agent
reading the file through the trainer was an import cycle, ``agents.policy`` ->
``rl.train`` -> ``agents`` (issue 47). The server's models folder reads it too.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

META_NAME = "skydeck.json"
TRAIN_EXTRA = "pip install 'skydeck[train]' (PyTorch, Stable-Baselines3, sb3-contrib)"


def require_trainer() -> None:
    """ImportError naming the extra when PyTorch or sb3-contrib is missing."""
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"training and policy agents need {TRAIN_EXTRA}: {exc}") from None


def read_meta(path: str | Path) -> dict[str, Any]:
    """The ``skydeck.json`` of a trained model; ValueError naming what is wrong."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"policy: no model file at {str(p)!r}")
    try:
        with zipfile.ZipFile(p) as z:
            if META_NAME not in z.namelist():
                raise ValueError(
                    f"policy: {str(p)!r} is not a Skydeck model (no {META_NAME} inside; "
                    "train one with `skydeck train`)"
                )
            meta: dict[str, Any] = json.loads(z.read(META_NAME))
    except zipfile.BadZipFile:
        raise ValueError(f"policy: {str(p)!r} is not a model zip file") from None
    return meta
