"""Observation values stay what they were: speed work on the encoders must not change a
single float. ``data/observation_digests.json`` holds, for seeded positions of every
game (random play from a seed, every seat), a digest of each named piece's float32
bytes; this test re-encodes the same positions and compares piece by piece, so a
failure names the game, the position, the seat and the piece.

The digests were written by the encoders as they stood before the speed work (run this
file as a script to rewrite them, only for a change that means to alter values). A
piece removed from an observer is simply no longer compared; a piece added must be
recorded (the test fails on a piece it has no digest for).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from skydeck.rl.match import Match
from tests.rl.helpers import advance

DATA = Path(__file__).resolve().parent / "data" / "observation_digests.json"
#: (game, options, seeds, steps of random play before each observation)
POSITIONS: list[tuple[str, dict[str, Any], tuple[int, ...], tuple[int, ...]]] = [
    ("stellium", {"players": 2}, (0, 1), (0, 3, 10, 30, 80, 200, 10_000)),
    ("stellium", {"players": 4}, (2,), (5, 40, 150)),
    ("conflict", {"players": 2}, (0, 1), (0, 3, 10, 30, 60, 10_000)),
    ("conflict", {"players": 3}, (2,), (8, 40)),
    ("stellarion", {"players": 1}, (0, 1), (0, 10, 40, 10_000)),
    ("expedition", {"players": 2}, (0,), (0, 20, 120)),
]


def _key(game: str, options: dict[str, Any], seed: int, steps: int, seat: int) -> str:
    return f"{game} {json.dumps(options, sort_keys=True)} seed={seed} steps={steps} seat={seat}"


def _positions() -> Any:
    """(key, piece name, piece array) for every recorded position, seat and piece."""
    for game, options, seeds, steps_list in POSITIONS:
        match = Match(game, **options)
        for seed in seeds:
            for steps in steps_list:
                advance(match, steps, seed)
                for seat in range(match.players):
                    key = _key(game, options, seed, steps, seat)
                    pieces = match.observer.unpack(match.observe(seat))
                    yield key, pieces


def _digest(piece: np.ndarray) -> str:
    data = np.ascontiguousarray(piece, dtype=np.float32).tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def _record() -> dict[str, dict[str, str]]:
    return {key: {n: _digest(p) for n, p in pieces.items()} for key, pieces in _positions()}


def test_observations_match_the_recorded_digests() -> None:
    assert DATA.exists(), f"{DATA} is missing: run this file as a script to record it"
    recorded = json.loads(DATA.read_text())
    seen = 0
    for key, pieces in _positions():
        assert key in recorded, f"no digests recorded for {key}"
        for name, piece in pieces.items():
            assert name in recorded[key], f"{key}: piece {name!r} has no recorded digest"
            assert _digest(piece) == recorded[key][name], f"{key}: piece {name!r} changed"
            seen += 1
    assert seen > 500


def test_the_digests_tell_pieces_apart() -> None:
    """A digest that ignored the values would pass anything: changing one float in one
    piece must change that piece's digest."""
    key, pieces = next(iter(_positions()))
    name, piece = next((n, p) for n, p in pieces.items() if p.size)
    changed = piece.copy()
    changed.flat[0] += 0.5
    assert _digest(changed) != _digest(piece), (key, name)


if __name__ == "__main__":  # rewrite the digests (only for an intended change of values)
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(_record(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {DATA}")
