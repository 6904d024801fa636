"""The state's own seeded random number generator.

We do not use :mod:`random`: its algorithms may change between Python versions, and a
match record must replay identically forever. SplitMix64 has a single 64-bit integer of
state, so cloning a state copies one int and the state is trivially JSON-ready.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64. ``draws`` counts every number produced, so callers can tell whether
    randomness was consumed between two moments (undo uses this)."""

    __slots__ = ("draws", "state")

    def __init__(self, seed: int = 0, draws: int = 0) -> None:
        self.state = seed & _MASK
        self.draws = draws

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        self.draws += 1
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n). The modulo bias is below n / 2**64: negligible."""
        if n <= 0:
            raise ValueError(f"Rng.below needs a positive bound, got {n}")
        return self.next64() % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (a die: randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("Rng.choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: for i from the end, swap with ``below(i + 1)``. The
        generator is inlined (the same numbers as ``below``, without two calls a card):
        search agents deal hidden cards by shuffling, thousands of times a move."""
        n = len(items)
        if n < 2:
            return
        state = self.state
        for i in range(n - 1, 0, -1):
            state = z = (state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state
        self.draws += n - 1

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot sample {k} from {len(pool)} items")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def spawn(self) -> Rng:
        """An independent child generator (for resampling or agents)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        return Rng(self.state, self.draws)

    def to_json(self) -> dict[str, object]:
        # A hex string: JSON readers in browsers lose precision past 2**53.
        return {"state": f"{self.state:016x}", "draws": self.draws}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> Rng:
        try:
            return cls(int(str(obj["state"]), 16), int(obj["draws"]))  # type: ignore[call-overload]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed RNG state {obj!r}: {exc}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.state, self.draws) == (other.state, other.draws)

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x}, draws={self.draws})"


def as_rng(rng: Rng | int | None) -> Rng:
    """Accept an Rng, a seed, or None (seed 0) wherever a generator is wanted."""
    if isinstance(rng, Rng):
        return rng
    return Rng(0 if rng is None else int(rng))
