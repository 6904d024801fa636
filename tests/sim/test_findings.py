"""The report's statistics against the wrong conclusions they once drew (issue 53): a
pair off in both seatings missed, a seat imbalance made by the rotation of a mix of
agents, intervals that counted replayed deals as new evidence, and a Markdown report
silent about failed and missing matches."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from skydeck.sim import findings as fx
from skydeck.sim import play
from skydeck.sim.balance_report import markdown, write_report
from skydeck.sim.plan import Plan
from skydeck.sim.simulate import part_name, run

PNG = b"\x89PNG\r\n\x1a\n"


def seat(
    match_id: int,
    seat: int,
    points: float,
    agent: str = "heuristic",
    faction: str | None = None,
    powers: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "match_id": match_id, "seat": seat, "agent": agent, "faction": faction,
        "powers": powers or [], "order": None, "points": points, "score": points,
    }  # fmt: skip


def conflict_round_robin(games: int = 500) -> fx.Run:
    """Three races x three scales, both seatings: at scale=conflict Vak beats Hexai,
    Hexai beats Wiss and Wiss beats Vak, each 281 of 500 in each seating (56.2%), all
    else even. Every race averages 50%, and no single seating is off beyond chance."""
    pairs = [("vak", "hexai"), ("hexai", "wiss"), ("wiss", "vak")]  # (stronger, weaker)
    matches: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    settings = []
    for scale in ("dispute", "conflict", "war"):
        for strong, weak in pairs:
            for races in ((strong, weak), (weak, strong)):
                label = f"races=[{races[0]},{races[1]}] scale={scale}"
                settings.append({"label": label})
                number = len(settings) - 1
                wins = round(games * (0.562 if scale == "conflict" else 0.5))
                strong_wins = set(random.Random(number).sample(range(games), wins))
                for i in range(games):
                    mid = number * games + i
                    matches.append(
                        {
                            "match_id": mid,
                            "players": 2,
                            "label": label,
                            "seed": i,
                            "options": "{}",
                            "length": 10,
                        }
                    )
                    for k, race in enumerate(races):
                        won = (i in strong_wins) == (race == strong)
                        seats.append(seat(mid, k, float(won), faction=race))
    return fx.Run(Path("."), {"settings": settings}, matches, seats, [], [])


def test_a_pair_off_in_both_seatings_is_found_once_the_seatings_are_pooled() -> None:
    run = conflict_round_robin()
    sections = {
        "seat": fx.by_seat(run), "race": fx.by_faction(run), "setting": fx.by_setting(run),
        "pair": fx.by_matchup(run),
    }  # fmt: skip
    assert {r.label: round(r.rate, 3) for r in sections["race"]} == {
        "hexai": 0.5, "vak": 0.5, "wiss": 0.5
    }  # fmt: skip
    pair = {r.label: r for r in sections["pair"]}
    assert len(pair) == 9  # 3 pairs x 3 scales
    vak = pair["scale=conflict: hexai vs vak"]
    assert (vak.n, vak.points) == (1000, 438.0)  # Hexai's 43.8% = Vak 56.2%
    apart = {k: v for k, v in sections.items() if k != "pair"}
    assert fx.imbalances(apart) == ([], 2 + 3 + 36)  # each seating apart: missed
    found, tests = fx.imbalances(sections)
    assert tests == 2 + 3 + 36 + 9
    assert sorted(f.text.split(" wins")[0] for f in found) == [
        "pair: scale=conflict: hexai vs vak",
        "pair: scale=conflict: hexai vs wiss",
        "pair: scale=conflict: vak vs wiss",
    ]


def test_the_report_shows_the_pair_table_and_plot_and_says_what_races_pool(
    tmp_path: Path,
) -> None:
    from skydeck.sim import balance_report

    page, pngs = balance_report.build(conflict_round_robin(60))
    assert pngs["win_by_matchup"].startswith(PNG)
    assert "Win rate by pair, both seatings pooled" in page
    assert "scale=conflict: hexai vs vak" in page
    text = markdown(conflict_round_robin(60))
    pairs = text.split("Win rate by pair, both seatings pooled:")[1]
    assert "| scale=war: hexai vs wiss | 120 |" in pairs
    races = text.split("Win rate by faction or race:")[1].split("Win rate by pair")[0]
    assert "can show 50% here while single pairs are far off" in races


def stellium_rotation(edge: bool) -> fx.Run:
    """``heuristic,random`` at three players, rotated: H R H, then R H R. The heuristic
    always wins; in H R H its two seats share the wins (alternately, or with ``edge``
    all to Player 1)."""
    matches, seats = [], []
    for i in range(150):
        matches.append({"match_id": i, "players": 3, "label": "default", "seed": 6000 + i // 2})
        agents = ["heuristic", "random", "heuristic"] if i % 2 == 0 else [
            "random", "heuristic", "random"
        ]  # fmt: skip
        if i % 2:
            winner = 1
        else:
            winner = 0 if edge or i % 4 == 0 else 2
        for k, agent in enumerate(agents):
            seats.append(seat(i, k, float(k == winner), agent))
    return fx.Run(Path("."), {"settings": [{}]}, matches, seats, [], [])


def test_a_rotation_of_unequal_agents_is_no_seat_imbalance() -> None:
    run = stellium_rotation(edge=False)
    rates = {r.label: r for r in fx.by_seat(run)}
    assert rates["Player 2"].rate == 0.5 and rates["Player 1"].rate == pytest.approx(0.25, abs=0.01)
    found, _ = fx.imbalances({"seat": list(rates.values())})
    assert found == []
    assert rates["Player 2"].fair == 0.5  # measured against lone seats like itself


def test_a_real_seat_edge_with_a_mix_of_agents_is_still_found() -> None:
    found, _ = fx.imbalances({"seat": fx.by_seat(stellium_rotation(edge=True))})
    assert [f.text.split(" wins")[0] for f in found] == ["seat: Player 1", "seat: Player 3"]


def replayed_powers(copies: int) -> fx.Run:
    """Two-player matches on 25 deals, each deal replayed in ``copies`` settings with the
    same result: the power dealt to seat 0 of a deal decides it."""
    deal_rng = random.Random(7)
    wins = [deal_rng.random() < 0.6 for _ in range(25)]
    matches, seats, settings = [], [], []
    for c in range(copies):
        settings.append({"label": f"factions=[f{c},g{c}]"})
        for d in range(25):
            mid = c * 25 + d
            matches.append({"match_id": mid, "players": 2, "label": settings[-1]["label"],
                            "seed": d})  # fmt: skip
            seats.append(seat(mid, 0, float(wins[d]), powers=["crystal_resonator"]))
            seats.append(seat(mid, 1, float(not wins[d]), powers=["other"]))
    return fx.Run(Path("."), {"settings": settings}, matches, seats, [], [])


def test_replayed_deals_count_once_in_the_interval() -> None:
    once = {r.label: r for r in fx.by_power(replayed_powers(1))}["crystal_resonator"]
    twelve = {r.label: r for r in fx.by_power(replayed_powers(12))}["crystal_resonator"]
    assert twelve.n == 12 * once.n and twelve.deals == once.deals == 25
    assert twelve.rate == once.rate
    assert twelve.n_eff == pytest.approx(25.0)  # 25 deals: each counts once
    width = once.interval[1] - once.interval[0]
    assert twelve.interval[1] - twelve.interval[0] == pytest.approx(width, rel=0.05)
    assert twelve.p == pytest.approx(once.p)


def test_independent_matches_keep_their_binomial_interval() -> None:
    from skydeck.sim.stats import wilson

    runs = replayed_powers(1)
    rate = {r.label: r for r in fx.by_power(runs)}["crystal_resonator"]
    assert rate.n_eff == rate.n and rate.interval == wilson(rate.points, rate.n)


def test_report_md_lists_failed_matches_and_says_how_many_were_planned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = play.play_match

    def flaky(game: Any, agents: Any, seed: int, **kw: Any) -> Any:
        if seed == 3:
            raise RuntimeError("engine fault | at seed 3")
        return real(game, agents, seed, **kw)

    monkeypatch.setattr(play, "play_match", flaky)
    plan = Plan("stellarion", ["random"], 8, {"players": 1}, [], 0, 4)
    run(plan, tmp_path / "r")
    (tmp_path / "r" / "matches" / part_name((0, 4, 8))).unlink()  # as if interrupted
    page, _ = write_report(tmp_path / "r")
    text = page.with_suffix(".md").read_text()
    assert "3 finished matches, 1 failed." in text
    assert "8 matches were planned and 4 are not in the folder" in text
    assert "| 3 | default | 3 | RuntimeError: engine fault \\| at seed 3 |" in text
    assert "8 matches were planned and 4 are not in the folder" in page.read_text()
