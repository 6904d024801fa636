"""Small finished matches for the analysis tests (heuristic on every seat)."""

from __future__ import annotations

from functools import lru_cache

from skydeck.analysis.selfplay import heuristic_record
from skydeck.core.record import MatchRecord
from skydeck.registry import load


@lru_cache(maxsize=8)
def _record(game_id: str, players: int, seed: int, plant: int | None) -> tuple[str, int | None]:
    import json

    record, planted = heuristic_record(load(game_id, players=players), seed, plant=plant)
    return json.dumps(record.to_json()), planted


def record(
    game_id: str = "stellium", players: int = 2, seed: int = 1, plant: int | None = None
) -> tuple[MatchRecord, int | None]:
    import json

    text, planted = _record(game_id, players, seed, plant)
    return MatchRecord.from_json(json.loads(text)), planted
