"""Every registered game is drawn and playable in the browser: its own drawing appears,
a few moves are made by clicking, a spectator sees the public view, nothing throws."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from skydeck.registry import game_ids
from tests.web.moves import click_moves

DRAWINGS = {
    "stellarion": "Stellarion table",
    "stellium": "Stellium universe",
    "expedition": "Stellar Expedition map",
    "conflict": "Stellar Conflict table",
}


@pytest.mark.parametrize("game_id", [g for g in game_ids() if g in DRAWINGS])
def test_game_is_drawn_and_playable_by_clicking(live, page: Page, shots, game_id):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players = 1 if game_id == "stellarion" else 2
    seats = [{"kind": "human"}] + [{"kind": "ai", "agent": "random"}] * (players - 1)
    m = live.create({"game": game_id, "seed": 5, "options": {"players": players}, "seats": seats})
    page.goto(live.base + m["links"]["0"])
    drawing = page.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")
    expect(drawing).to_be_visible()
    clicks = click_moves(page, most=5)
    assert clicks >= 3
    assert page.locator("#log li").count() >= clicks
    # A spectator in another tab sees the same match, without moves to make.
    watcher = page.context.new_page()
    shots.append(watcher)
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(live.base + m["watch_link"])
    expect(watcher.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")).to_be_visible()
    expect(watcher.locator("#actions")).to_contain_text("watching")
    assert not errors, errors
