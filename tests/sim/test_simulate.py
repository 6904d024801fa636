"""`skydeck simulate`: grids, seatings, shared deals, the tables, resume, failures,
local processes and Ray all giving the same rows, and bad input refused whole."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skydeck.cli import main
from skydeck.sim import play as play_module
from skydeck.sim.plan import Plan, parse_grid, parse_value
from skydeck.sim.records import load_record
from skydeck.sim.schema import TABLES
from skydeck.sim.simulate import run
from tests.sim.helpers import table, tables

SOLO = Plan("stellarion", ["random"], 6, {"players": 1}, parse_grid(["shooting_stars=1,2"]), 4, 4)


def test_grid_values_read_lists_words_and_json() -> None:
    assert parse_value("war") == "war"
    assert parse_value("3") == 3
    assert parse_value("[wiss,vak]") == ["wiss", "vak"]
    assert parse_grid(["races=[wiss,vak],[vak,wiss]"]) == [
        ("races", [["wiss", "vak"], ["vak", "wiss"]])
    ]
    assert parse_grid(['races=[["wiss","vak"]]']) == [("races", [["wiss", "vak"]])]
    assert parse_grid(["scale=dispute,war"]) == [("scale", ["dispute", "war"])]


@given(
    games=st.integers(1, 200),
    chunk=st.integers(1, 60),
    sizes=st.lists(st.integers(1, 4), min_size=0, max_size=3),
)
def test_chunks_cover_every_match_once(games: int, chunk: int, sizes: list[int]) -> None:
    grid = [(f"k{i}", list(range(n))) for i, n in enumerate(sizes)]
    plan = Plan("stellarion", ["random"], games, {}, grid, 0, chunk)
    ids = [s * games + i for s, a, b in plan.chunks() for i in range(a, b)]
    assert sorted(ids) == list(range(plan.size() * games))
    assert len(plan.settings()) == plan.size()
    assert len({x.label for x in plan.settings()}) == plan.size()


def test_every_setting_plays_the_same_deals_with_seats_rotated(tmp_path: Path) -> None:
    plan = Plan("conflict", ["random", "heuristic"], 4, {}, parse_grid(["scale=dispute,war"]), 7)
    run(plan, tmp_path / "r")
    matches = table(tmp_path / "r", "matches")
    assert [m["label"] for m in matches] == ["scale=dispute"] * 4 + ["scale=war"] * 4
    assert [m["seed"] for m in matches] == [7, 7, 8, 8] * 2  # one deal per rotation
    rotation = [["random", "heuristic"], ["heuristic", "random"]]
    assert [m["agents"] for m in matches[:4]] == rotation * 2
    assert [json.loads(m["options"])["scale"] for m in matches] == ["dispute"] * 4 + ["war"] * 4
    seats = table(tmp_path / "r", "seats")
    assert len(seats) == 16
    assert {s["faction"] for s in seats} == {"wiss", "vak"}  # Conflict's races by seat
    for m in matches:
        mine = [s for s in seats if s["match_id"] == m["match_id"]]
        assert [s["win"] for s in mine] == [k in m["winners"] for k in range(2)]
        assert [s["score"] for s in mine] == m["scores"]
    usage = table(tmp_path / "r", "usage")
    buys = sum(a["count"] for a in table(tmp_path / "r", "actions") if a["kind"] == "buy")
    assert buys == sum(u["count"] for u in usage) > 0  # every ship bought is a use
    assert all(u["component"].split(".")[0] in {"wiss", "vak"} for u in usage)


def test_results_are_identical_whatever_jobs(tmp_path: Path) -> None:
    run(SOLO, tmp_path / "one", jobs=1)
    run(SOLO, tmp_path / "two", jobs=2)
    assert tables(tmp_path / "one") == tables(tmp_path / "two")


def test_resume_plays_only_what_is_missing(tmp_path: Path) -> None:
    run(SOLO, tmp_path / "whole")

    class Stop(Exception):
        pass

    def stop_after_one(n: int, failed: int) -> None:
        raise Stop

    with pytest.raises(Stop):  # interrupted after its first chunk was written
        run(SOLO, tmp_path / "cut", progress=stop_after_one)
    assert len(list((tmp_path / "cut" / "matches").glob("*.parquet"))) == 1
    # A chunk whose matches part is missing counts as not played, even with other parts.
    # A part cut off mid-write (a crash) stays hidden from readers of the folder.
    (tmp_path / "cut" / "seats" / ".part-00009-0000000.parquet.tmp").write_bytes(b"PAR1 cut")
    outcome = run(SOLO, tmp_path / "cut", resume=True)
    assert (outcome.played, outcome.skipped) == (8, 4)
    assert tables(tmp_path / "cut") == tables(tmp_path / "whole")
    again = run(SOLO, tmp_path / "cut", resume=True)
    assert (again.played, again.skipped) == (0, 12)


def test_a_crashing_match_is_a_failed_row_with_its_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = play_module.play_match

    def flaky(game, agents, seed, **kw):  # type: ignore[no-untyped-def]
        if seed == 5:
            raise RuntimeError("the engine broke")
        return real(game, agents, seed, **kw)

    monkeypatch.setattr(play_module, "play_match", flaky)
    outcome = run(SOLO, tmp_path / "r")
    assert outcome.failed == 2  # seed 5 in both settings
    failed = [m for m in table(tmp_path / "r", "matches") if m["status"] == "failed"]
    assert [(m["seed"], m["error"]) for m in failed] == [(5, "RuntimeError: the engine broke")] * 2
    assert len(table(tmp_path / "r", "matches")) == 12
    assert len(table(tmp_path / "r", "records")) == 10  # a failed match has no record


def test_records_replay_to_the_recorded_result(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = Plan("stellium", ["random"], 3, {}, [], 1)
    run(plan, tmp_path / "r")
    for m in table(tmp_path / "r", "matches"):
        state = load_record(tmp_path / "r", m["match_id"]).final_state()
        assert (list(state.scores), list(state.winners)) == (m["scores"], m["winners"])
    orders = [s["order"] for s in table(tmp_path / "r", "seats")]
    assert sorted(orders) == [0, 0, 0, 1, 1, 1]  # one first player per match
    assert main(["replay", str(tmp_path / "r"), "--match", "2"]) == 0
    assert "scores:" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "r"), "--match", "99"]) == 2
    assert "no record of match 99" in " ".join(capsys.readouterr().out.split())


def test_expedition_seats_carry_faction_and_powers(tmp_path: Path) -> None:
    plan = Plan("expedition", ["random"], 2, {"modules": ["player_powers"]}, [], 3)
    run(plan, tmp_path / "r")
    seats = table(tmp_path / "r", "seats")
    assert [s["faction"] for s in seats] == ["unec", "tognath"] * 2
    assert all(len(s["powers"]) >= 1 for s in seats)
    assert [s["order"] for s in seats] == [0, 1, 0, 1]


def test_tables_read_without_skydeck(tmp_path: Path) -> None:
    run(SOLO, tmp_path / "r")
    frame = pl.read_parquet(tmp_path / "r" / "matches" / "*.parquet")
    assert frame.height == 12 and frame["status"].to_list() == ["ok"] * 12
    con = duckdb.connect()
    path = str(tmp_path / "r" / "seats" / "*.parquet")
    (n,) = con.execute(f"select count(*) from read_parquet('{path}')").fetchone()  # type: ignore[misc]
    assert n == 12
    for name, schema in TABLES.items():
        assert pq.read_table(tmp_path / "r" / name).schema.equals(schema)


def test_ray_gives_the_local_tables(tmp_path: Path, ray_runtime: None) -> None:
    run(SOLO, tmp_path / "local", jobs=1)
    run(SOLO, tmp_path / "ray", ray="")
    assert tables(tmp_path / "ray") == tables(tmp_path / "local")


def test_cli_ray_flag_runs_on_the_session_runtime(tmp_path: Path, ray_runtime: None) -> None:
    out = tmp_path / "r"
    args = ["simulate", "stellarion", "--agents", "random", "--games", "3", "--players", "1"]
    assert main([*args, "--ray", "--quiet", "--out", str(out)]) == 0
    assert len(table(out, "matches")) == 3


BAD = [
    (["nope"], "unknown game 'nope'"),
    (["stellarion", "--agents", "bob"], "unknown agent 'bob'"),
    (["stellarion", "--set", "colour=red"], "unknown option(s) colour"),
    (["stellarion", "--grid", "colour=red,blue"], "unknown grid key 'colour'"),
    (["stellarion", "--grid", "expansions="], "lists no values"),
    (["stellarion", "--grid", "shooting_stars=1,2,3", "--max-settings", "2"], "3 settings"),
    (["stellarion", "--games", "0"], "--games must be at least 1"),
    (["stellarion", "--players", "5"], "players must be one of"),
]


@pytest.mark.parametrize(("words", "message"), BAD)
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    out = tmp_path / "r"
    argv = ["simulate", words[0], "--agents", "random", "--games", "2", *words[1:]]
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_a_folder_of_another_game_or_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    base = ["simulate", "stellarion", "--agents", "random", "--players", "1", "--quiet"]
    assert main([*base, "--games", "2", "--out", str(out)]) == 0
    before = sorted(p.name for p in out.rglob("*"))
    capsys.readouterr()
    cases = [
        (["simulate", "conflict", "--agents", "random", "--games", "2"], "holds a stellarion run"),
        ([*base, "--games", "2"], "add --resume"),
        ([*base, "--games", "3", "--resume"], "games differ"),
    ]
    for argv, message in cases:
        assert main([*argv, "--out", str(out)]) == 2
        assert message in capsys.readouterr().err
    assert sorted(p.name for p in out.rglob("*")) == before
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert main([*base, "--games", "2", "--out", str(tmp_path / "other")]) == 2
    assert "holds no skydeck run" in capsys.readouterr().err


def test_the_docs_reading_examples_run_in_the_venv(tmp_path: Path) -> None:
    """docs/simulate.md's block of readers, run as written on a real run folder (it once
    imported pandas, which the venv does not have)."""
    run(SOLO, tmp_path / "r")
    doc = (Path(__file__).parents[2] / "docs" / "simulate.md").read_text()
    after = doc.split("no Skydeck needed")[1]
    block = after.split("```python\n")[1].split("```")[0]
    assert "read_parquet" in block
    exec(block.replace("DIR", str(tmp_path / "r")), {})
