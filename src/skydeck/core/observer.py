"""Fixed-size observations: named pieces of one flat float32 vector (the Observer
pattern of OpenSpiel's python games).

A game's observer declares its pieces once (name, shape, what it means) and fills them
from ``state.view(seat)`` only, so an observation can never carry hidden state. The
pieces are documented per game in docs/rl.md (``skydeck.rl.describe(game)`` prints
them). ``fill`` writes into a zeroed array. Single numpy element writes cost more than
the rest of the encoding, so observers gather flat indexes in Python lists and write
each list with one fancy-indexed assignment (Stellium, Stellar Conflict: tables made
once map a view's (name, value) pairs straight to indexes), or, simplest, write the
non-zero entries into a dict (index -> value) that :class:`SparseObserver` scatters
once (Stellarion, Stellar Expedition).

An RL step asks for an observation after every move, and building the whole view then
encoding it costs several engine steps. :meth:`Observer.observe` is the step's way in: by
default ``encode(state.view(seat), seat)``; a game's observer may override it to encode
straight from the state, re-encoding only the parts that changed since the last step
(remembered by what the view would show of them). Such a path must read only what the
view shows: tests/rl/test_state_observers.py compares it with the view's encoding over
random games of every game, seat and option set, after ``resample`` and ``from_view``
too, so the two can never drift apart.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

Vec = defaultdict[int, float]  # the non-zero entries of an observation being filled


class Piece:
    """One named slice of the observation vector."""

    __slots__ = ("doc", "name", "shape", "size", "start")

    def __init__(self, name: str, shape: tuple[int, ...], start: int, doc: str) -> None:
        self.name, self.shape, self.start, self.doc = name, shape, start, doc
        size = 1
        for d in shape:
            size *= d
        self.size = size


class Observer(ABC):
    """Base class: subclasses call :meth:`add` in ``__init__`` and implement
    :meth:`fill`."""

    def __init__(self) -> None:
        self.pieces: dict[str, Piece] = {}
        self.size = 0

    def add(self, name: str, shape: int | tuple[int, ...], doc: str) -> int:
        """Declare a piece; returns its first index in the flat vector."""
        if isinstance(shape, int):
            shape = (shape,)
        piece = Piece(name, shape, self.size, doc)
        self.pieces[name] = piece
        self.size += piece.size
        return piece.start

    @abstractmethod
    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        """Write the named pieces of ``seat``'s view into ``out`` (float32, zeros, of
        :attr:`size`), each game's observer."""

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """The observation of ``seat`` from its view."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(view, seat, out)
        return out

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The observation of ``seat`` in ``state``: its view's encoding (observers
        with a faster path from the state override this, equal by test)."""
        return self.encode(state.view(seat), seat)

    def unpack(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The named pieces of an observation, shaped (for tests and inspection)."""
        return {
            name: obs[p.start : p.start + p.size].reshape(p.shape)
            for name, p in self.pieces.items()
        }

    def describe(self) -> list[tuple[str, tuple[int, ...], int, str]]:
        return [(p.name, p.shape, p.start, p.doc) for p in self.pieces.values()]


class SparseObserver(Observer):
    """An observer that writes the non-zero entries into a dict (index -> value, ``+=``
    allowed), scattered into the array at once: :meth:`fill_entries`."""

    @abstractmethod
    def fill_entries(self, view: dict[str, Any], seat: int, vec: Vec) -> None:
        """Write the named pieces of ``seat``'s view into ``vec``."""

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        vec: Vec = defaultdict(float)
        self.fill_entries(view, seat, vec)
        k = len(vec)
        if k:
            out[np.fromiter(vec.keys(), np.intp, k)] = np.fromiter(vec.values(), np.float32, k)


def put(out: np.ndarray, indexes: list[int], values: list[float] | None = None) -> None:
    """``out[indexes] = values`` (1.0 where no values are given), through
    ``np.fromiter``: a third of the cost of numpy's conversion of a Python list."""
    k = len(indexes)
    at = np.fromiter(indexes, np.intp, k)
    out[at] = 1.0 if values is None else np.fromiter(values, np.float32, k)


def one_hot(vec: Vec, start: int, index: int | None) -> None:
    if index is not None and index >= 0:
        vec[start + index] = 1.0


def counts(
    vec: Vec, start: int, names: Iterable[str], index: dict[str, int], scale: float = 1.0
) -> None:
    """Add one (scaled) per name in ``names`` at its index."""
    for name in names:
        i = index.get(name)
        if i is not None:
            vec[start + i] += scale


def mark(vec: Vec, start: int, names: Sequence[str], index: dict[str, int]) -> None:
    for name in names:
        i = index.get(name)
        if i is not None:
            vec[start + i] = 1.0
