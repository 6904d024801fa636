"""`skydeck report`: the statistics behind it, the page and its PNGs, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from skydeck.cli import main
from skydeck.sim import findings as fx
from skydeck.sim.balance_report import write_report
from skydeck.sim.plan import Plan, parse_grid
from skydeck.sim.simulate import run

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def conflict_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("conflict") / "run"
    grid = parse_grid(["races=[wiss,vak],[vak,wiss]"])
    run(Plan("conflict", ["random"], 16, {}, grid, 5), out)
    return out


def seat(match_id: int, seat: int, points: float, faction: str | None = None) -> dict:  # type: ignore[type-arg]
    return {
        "match_id": match_id, "seat": seat, "agent": "random", "faction": faction,
        "powers": [], "order": None, "points": points, "score": points,
    }  # fmt: skip


def fake_run(first_wins: int, games: int) -> fx.Run:
    """Two-player matches in which Player 1 wins ``first_wins`` of ``games``."""
    matches = [{"match_id": i, "players": 2, "label": "default"} for i in range(games)]
    seats = []
    for i in range(games):
        won = i < first_wins
        seats += [seat(i, 0, 1.0 if won else 0.0), seat(i, 1, 0.0 if won else 1.0)]
    return fx.Run(Path("."), {"settings": [{}]}, matches, seats, [], [])


def test_a_fair_coin_is_not_an_imbalance_and_a_loaded_one_is() -> None:
    found, tests = fx.imbalances({"seat": fx.by_seat(fake_run(204, 400))})
    assert (found, tests) == ([], 2)
    found, _ = fx.imbalances({"seat": fx.by_seat(fake_run(250, 400))})
    assert [f.text.split(" wins")[0] for f in found] == ["seat: Player 1", "seat: Player 2"]
    assert "62.5% of 400 seats" in found[0].text and "fair share of 50.0%" in found[0].text


def test_rate_p_value_and_bonferroni_threshold() -> None:
    r = fx.Rate("x", 400, 220.0, 0.5)  # z = 2.0
    assert r.p == pytest.approx(0.0455, abs=1e-3)
    # Significant alone at 5%, but not among two tests (threshold 0.025).
    found, tests = fx.imbalances({"a": [r], "b": [fx.Rate("y", 400, 200.0, 0.5)]})
    assert tests == 2 and found == []


def test_card_impact_compares_within_the_faction_that_used_it() -> None:
    matches = [{"match_id": i, "players": 2, "label": "d"} for i in range(40)]
    seats, usage = [], []
    for i in range(40):
        seats += [seat(i, 0, float(i % 2), "wiss"), seat(i, 1, float(1 - i % 2), "vak")]
        if i % 2:  # the Wiss seat used the card in exactly the matches it won
            usage.append({"match_id": i, "seat": 0, "component": "wiss.lancer_1", "count": 1})
        else:
            usage.append({"match_id": i, "seat": 0, "component": "wiss.glimmer_1", "count": 1})
    impact = fx.card_impact(fx.Run(Path("."), {}, matches, seats, [], usage))
    lancer = next(i for i in impact if i.component == "wiss.lancer_1")
    assert (lancer.used.n, lancer.unused.n) == (20, 20)  # Vak seats are not "unused"
    assert (lancer.used.rate, lancer.unused.rate) == (1.0, 0.0)
    assert impact[0].p < 1e-6


def test_report_page_and_plots(conflict_run: Path, tmp_path: Path) -> None:
    page, pngs = write_report(conflict_run, tmp_path / "out" / "conflict.html")
    text = page.read_text()
    for name in ("win_by_seat", "win_by_faction", "win_by_setting", "scores", "length", "actions",
                 "card_impact"):  # fmt: skip
        assert (tmp_path / "out" / f"conflict-{name}.png").read_bytes().startswith(PNG)
    assert len(pngs) == text.count("data:image/png;base64,")  # every plot embedded
    assert "http" not in text  # self-contained: nothing fetched
    assert "Multiple comparisons" in text and "Bonferroni" in text
    assert "races=[wiss,vak]: Player 1 (wiss)" in text
    assert "<h2>Summary</h2>" in text
    tables = page.with_suffix(".md").read_text()  # the same tables in Markdown, for docs
    assert "| races=[wiss,vak]: Player 1 (wiss) | 16 |" in tables


def test_report_of_solo_runs_shows_the_drone_ladder(tmp_path: Path) -> None:
    grid = parse_grid(["solo_rank=commander,captain,admiral"])
    run(Plan("expedition", ["random"], 2, {"players": 1}, grid, 1), tmp_path / "solo")
    page, _ = write_report(tmp_path / "solo")
    text = page.read_text()
    assert "Solo win rate by drone rank" in text
    assert text.index(">commander<") < text.index(">captain<") < text.index(">admiral<")
    assert "co-operative or solo" in text


def test_report_of_a_ray_run(tmp_path: Path, ray_runtime: None) -> None:
    run(Plan("stellarion", ["random"], 4, {"players": 2}, [], 0), tmp_path / "r", ray="")
    page, pngs = write_report(tmp_path / "r")
    assert page.is_file() and pngs


def test_report_errors_name_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("hello")
    assert main(["report", str(tmp_path / "mine")]) == 2
    assert "not a skydeck simulate run" in capsys.readouterr().err
    assert not list((tmp_path / "mine").glob("*.html"))


def test_a_run_whose_matches_all_failed_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skydeck.sim import play

    def broken(*args: object, **kw: object) -> None:
        raise RuntimeError("no engine today")

    monkeypatch.setattr(play, "play_match", broken)
    run(Plan("stellarion", ["random"], 2, {"players": 1}, [], 0), tmp_path / "r")
    assert main(["report", str(tmp_path / "r")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "all 2 matches failed" in err and "RuntimeError: no engine today" in err


def test_matches_without_a_winner_lower_the_fair_share_for_everyone() -> None:
    matches = [{"match_id": i, "players": 2, "label": "players=2"} for i in range(4)]
    seats = []
    for i in range(4):  # Player 1 wins two, one goes to Player 2, one is an unbroken tie
        a, b = [(1.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0)][i]
        seats += [seat(i, 0, a), seat(i, 1, b)]
        seats[-2]["order"], seats[-1]["order"] = (0, 1) if i % 2 == 0 else (1, 0)
    run = fx.Run(Path("."), {"settings": [{}, {}]}, matches, seats, [], [])
    assert [(r.label, r.points, r.fair) for r in fx.by_seat(run)] == [
        ("Player 1", 2.0, 0.375), ("Player 2", 1.0, 0.375)
    ]  # fmt: skip
    orders = fx.by_setting_order(run)
    assert [(r.label, r.n, r.points) for r in orders] == [
        ("players=2: first", 4, 1.0), ("players=2: second", 4, 2.0)
    ]  # fmt: skip


def test_report_pools_runs_of_one_game_and_refuses_a_deal_twice(
    conflict_run: Path, tmp_path: Path
) -> None:
    other = tmp_path / "more"
    grid = parse_grid(["races=[wiss,vak],[vak,wiss]"])
    run(Plan("conflict", ["random"], 8, {}, grid, 500), other)
    one, more = fx.load_run(conflict_run), fx.load_run(other)
    pooled = fx.pool_runs([one, more])
    assert len(pooled.matches) == len(one.matches) + len(more.matches)
    assert len({m["match_id"] for m in pooled.matches}) == len(pooled.matches)
    assert len(pooled.seats) == len(one.seats) + len(more.seats)
    assert pooled.manifest["pooled"] == [str(conflict_run), str(other)]
    by = {r.label: r.n for r in fx.by_setting(pooled)}
    alone = {r.label: r.n for r in fx.by_setting(one)}
    assert all(by[label] > n for label, n in alone.items())  # more seats in every group
    out = tmp_path / "pooled.html"
    assert main(["report", str(conflict_run), str(other), "--out", str(out)]) == 0
    assert "pooled from 2 runs" in out.read_text()
    assert "pooled from" in out.with_suffix(".md").read_text()
    with pytest.raises(ValueError, match="both hold the match of setting"):
        fx.pool_runs([one, fx.load_run(conflict_run)])


def test_report_refuses_to_pool_different_games(conflict_run: Path, tmp_path: Path, capsys) -> None:
    solo = tmp_path / "solo"
    run(Plan("stellarion", ["random"], 2, {"players": 1}, parse_grid([]), 0), solo)
    assert main(["report", str(conflict_run), str(solo)]) == 2
    assert "different games" in capsys.readouterr().err
