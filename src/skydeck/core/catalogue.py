"""A game's fixed discrete action space: every engine action it could ever offer,
numbered once per game and option set.

Why a catalogue and not "the i-th legal action": a policy's output unit must mean the
same move in every position, or it cannot learn. Each game module lists its actions
in named blocks (``launch``, ``coordinate`` ...) built from the content, so the space
depends only on the options (never on a deal) and is documented per game in
docs/rl.md. Index 0 is ``wait``: not an engine action, the one choice of a seat that may
not act now in a parallel environment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from skydeck.core.action import Action
from skydeck.core.errors import IllegalAction

WAIT = Action("wait")


class ActionCatalogue:
    """Numbered actions of one game and option set: ``encode``/``decode`` both ways,
    ``mask`` from a legal list."""

    def __init__(self, game_id: str, blocks: Iterable[tuple[str, Iterable[Action]]]) -> None:
        self.game_id = game_id
        actions: list[Action] = [WAIT]
        self.blocks: dict[str, tuple[int, int]] = {"wait": (0, 1)}
        for name, items in blocks:
            start = len(actions)
            actions.extend(items)
            lo, _ = self.blocks.get(name, (start, start))
            self.blocks[name] = (min(lo, start), len(actions))
        self.actions: tuple[Action, ...] = tuple(actions)
        self.index: dict[Action, int] = {}
        for i, a in enumerate(actions):
            if a in self.index:
                raise ValueError(f"{game_id}: action '{a}' listed twice in the catalogue")
            self.index[a] = i
        self.n = len(actions)
        #: id(action) -> index (-1: not catalogued). Engines hand out the same Action
        #: objects again and again (memoised notation), and a look-up by identity runs
        #: in C, skipping the dataclass's Python-level __hash__/__eq__. ``_kept`` holds
        #: every learned action alive, so no other object can take its id while cached;
        #: the catalogue's own actions (``actions`` keeps them) are there from the start,
        #: so an engine whose memo built them (Stellar Expedition) never needs learning.
        self._by_id: dict[int, int] = {}
        self._seed()
        #: (kind, args) -> index: the same look-up as ``index`` with a plain tuple key,
        #: hashed in C (an Action's dataclass hash runs Python code)
        self._by_key: dict[tuple[str, tuple[Any, ...]], int] = {
            (a.kind, a.args): i for a, i in self.index.items()
        }
        self._kept: list[Action] = []
        self._limit = max(20_000, 2 * self.n)
        self._overflows = 0

    def _seed(self) -> None:
        self._by_id.update(zip(map(id, self.actions), range(self.n)))

    def __len__(self) -> int:
        return self.n

    def encode(self, action: Action) -> int:
        """The index of an engine action; ValueError when the catalogue lacks it."""
        i = self.index.get(action)
        if i is None:
            raise ValueError(f"{self.game_id}: '{action}' has no index in the action space")
        return i

    def decode(self, index: int) -> Action:
        """The engine action of an index; IllegalAction naming the index otherwise."""
        if type(index) is int and 0 <= index < self.n:
            return self.actions[index]
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IllegalAction(f"{self.game_id}: an action index must be an int, got {index!r}")
        if not 0 <= index < self.n:
            raise IllegalAction(
                f"{self.game_id}: action {int(index)} is outside the action space "
                f"Discrete({self.n})"
            )
        return self.actions[index]

    def mask(self, legal: Sequence[Action], out: np.ndarray | None = None) -> np.ndarray:
        """int8 mask over the space (1 = legal). Legal actions the catalogue lacks are
        left out; :meth:`missing` names them (the tests check it never happens)."""
        m = np.zeros(self.n, dtype=np.int8) if out is None else out
        idx = self.indices(legal)
        if idx:
            m[idx] = 1
        return m

    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The indexes of a legal list (the mask's non-zeros, without the dense mask)."""
        got = list(map(self._by_id.get, map(id, legal), repeat(-2)))  # one C-level pass
        if -2 in got:  # action objects seen for the first time (or uncatalogued)
            got = [self._learn(a) if g == -2 else g for a, g in zip(legal, got, strict=True)]
            return [g for g in got if g >= 0]
        return got

    def _learn(self, action: Action) -> int:
        """Index by (kind, args), and remember the object for the identity path (-1 for
        an action the catalogue lacks, which is not remembered: it never comes in a
        working game, the tests check). An engine that memoises its actions fills the
        cache once; one that builds fresh objects overflows it again and again, and
        keeping them all only feeds the garbage collector (measured: Stellar
        Expedition's step 1.42x -> 1.22x the engine's without it), so after three
        overflows new objects are no longer kept."""
        i = self._by_key.get((action.kind, action.args), -1)
        if i >= 0 and self._overflows < 3:
            if len(self._kept) > self._limit:
                self._by_id.clear()
                self._kept.clear()
                self._seed()
                self._overflows += 1
            self._by_id[id(action)] = i
            self._kept.append(action)
        return i

    def missing(self, legal: Sequence[Action]) -> list[Action]:
        return [a for a in legal if a not in self.index]

    def block_of(self, index: int) -> str:
        for name, (lo, hi) in self.blocks.items():
            if lo <= index < hi:
                return name
        raise IllegalAction(f"{self.game_id}: action {index} is outside Discrete({self.n})")

    def describe(self) -> list[tuple[str, int, int, str]]:
        """(block, first index, size, an example) for the docs."""
        out = []
        for name, (lo, hi) in sorted(self.blocks.items(), key=lambda kv: kv[1][0]):
            out.append((name, lo, hi - lo, str(self.actions[lo]) if hi > lo else ""))
        return out
