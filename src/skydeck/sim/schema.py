"""The Parquet tables of a ``skydeck simulate`` run (documented in docs/simulate.md).

A run folder holds ``run.json`` (what was asked: game, grid, agents, seeds) and one
folder per table, each a Parquet dataset of part files, one part per chunk of matches:

    DIR/run.json
    DIR/matches/part-S-C.parquet   one row per match (failed matches too)
    DIR/seats/...                  one row per seat of each finished match
    DIR/actions/...                per match and seat: how often each action kind was taken
    DIR/usage/...                  per match and seat: how often each card/component was used
    DIR/records/...                the match records, compact (``skydeck replay DIR --match ID``)

Part files let an interrupted run resume chunk by chunk and let every backend write the
same bytes-for-bytes rows; any Parquet reader takes the folder as one table
(``pl.read_parquet("DIR/matches/*.parquet")``, DuckDB's ``read_parquet``). Seats are
0-based here as everywhere in JSON and data.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 1

MATCHES = pa.schema(
    [
        ("match_id", pa.int64()),  # setting * games + index: unique in the run
        ("setting", pa.int32()),  # which grid combination (run.json "settings")
        ("index", pa.int32()),  # the match's number within its setting
        ("label", pa.string()),  # the grid values of the setting, "scale=war races=[vak,wiss]"
        ("game", pa.string()),
        ("options", pa.string()),  # the game's full options, JSON
        ("players", pa.int8()),
        ("agents", pa.list_(pa.string())),  # agent spec per seat
        ("seed", pa.int64()),  # the deal: same index, same seed in every setting
        ("status", pa.string()),  # "ok" or "failed"
        ("error", pa.string()),  # the failure's message, null when ok
        ("winners", pa.list_(pa.int8())),
        ("scores", pa.list_(pa.float64())),
        ("length", pa.int32()),  # actions applied
        ("duration_s", pa.float64()),  # wall time of the match (the one non-reproducible field)
    ]
)

SEATS = pa.schema(
    [
        ("match_id", pa.int64()),
        ("setting", pa.int32()),
        ("seat", pa.int8()),
        ("agent", pa.string()),
        ("faction", pa.string()),  # Conflict race / Expedition faction, null elsewhere
        ("powers", pa.list_(pa.string())),  # Expedition player powers
        ("order", pa.int8()),  # 0 = first player; null where no seat moves first
        ("score", pa.float64()),
        ("win", pa.bool_()),
        ("points", pa.float64()),  # 1 sole win, 0.5 shared, 0 loss; co-op: the team's result
        ("decisions", pa.int32()),
        ("think_s", pa.float64()),
    ]
)

ACTIONS = pa.schema(
    [
        ("match_id", pa.int64()),
        ("seat", pa.int8()),
        ("kind", pa.string()),
        ("count", pa.int32()),
    ]
)

USAGE = pa.schema(
    [
        ("match_id", pa.int64()),
        ("seat", pa.int8()),
        ("component", pa.string()),  # a card or component id from the game's data files
        ("count", pa.int32()),
    ]
)

RECORDS = pa.schema(
    [
        ("match_id", pa.int64()),
        ("game", pa.string()),
        ("options", pa.string()),  # JSON
        ("seed", pa.int64()),
        ("names", pa.list_(pa.string())),  # who sat where (agent specs)
        ("seats", pa.list_(pa.int8())),  # the acting seat of each action
        ("actions", pa.list_(pa.string())),  # each action in the game's text notation
    ]
)

TABLES: dict[str, pa.Schema] = {
    "matches": MATCHES,
    "seats": SEATS,
    "actions": ACTIONS,
    "usage": USAGE,
    "records": RECORDS,
}

#: Columns that differ between two runs of the same seeds (timing only).
TIMING = {"matches": ("duration_s",), "seats": ("think_s",)}
