"""The log in the browser speaks in plain words for every game: a match between two AI
seats, watched from another tab, shows sentences (each move told once) with no content
ids ("wiss.halo_1", "bronze_07") and no raw lists or JSON."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\b[a-z]+\.[a-z0-9_]+\b|[\[\]{}\"]")
GAMES = {
    "conflict": ({"players": 2, "scale": "dispute"}, "Stellar Conflict table"),
    "stellium": ({"players": 2}, "Stellium universe"),
    "expedition": ({"players": 2}, "Stellar Expedition map"),
    "stellarion": ({"players": 2}, "Stellarion table"),
}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_log_of_a_watched_match_is_plain_words(live, page: Page, shots, game_id) -> None:
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    options, drawing = GAMES[game_id]
    ai = {"kind": "ai", "agent": "random"}
    m = live.create({"game": game_id, "seed": 5, "options": options, "seats": [ai, ai]})
    page.goto(live.base + m["watch_link"])
    expect(page.locator(f"svg[aria-label='{drawing}']")).to_be_visible()
    expect(page.locator("#log li").nth(5)).to_be_attached(timeout=15_000)
    page.wait_for_timeout(500)
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) > 5
    for line in lines:
        found = ID.findall(line)
        assert not found, f"{game_id}: {found} in the log line {line!r}"
        assert "made a move" not in line or game_id == "expedition", line  # hidden picks only
    assert not errors, errors
