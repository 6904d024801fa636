"""Match records stored by ``skydeck simulate``: one compact row per match (seats and
actions in the game's text notation), turned back into a :class:`MatchRecord` for
``skydeck replay DIR --match ID``."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from skydeck.core.errors import IllegalAction
from skydeck.core.record import Entry, MatchRecord
from skydeck.registry import load


def load_record(run: str | Path, match_id: int | None) -> MatchRecord:
    """The record of match ``match_id`` of the run in folder ``run``; ValueError
    naming what is missing."""
    folder = Path(run)
    if not (folder / "records").is_dir():
        raise ValueError(f"{folder} holds no skydeck simulate run (no records/ folder)")
    if match_id is None:
        raise ValueError(f"{folder} is a simulate run of many matches: add --match ID")
    rows = pq.read_table(folder / "records", filters=[("match_id", "=", match_id)]).to_pylist()
    if not rows:
        raise ValueError(
            f"{folder} has no record of match {match_id} (failed matches keep none; "
            "see matches/ for the ids)"
        )
    row = rows[0]
    game = load(row["game"], **json.loads(row["options"]))
    record = MatchRecord(game.id, dict(game.options), int(row["seed"]), list(row["names"]))
    for i, (seat, text) in enumerate(zip(row["seats"], row["actions"], strict=True)):
        try:
            record.entries.append(Entry(int(seat), game.parse_action(text), 0.0))
        except IllegalAction as exc:
            msg = f"match {match_id}: action #{i} {text!r} is malformed: {exc}"
            raise ValueError(msg) from None
    return record
