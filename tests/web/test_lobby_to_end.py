"""The whole path a new player takes, for every game: open the lobby, keep every default,
Create, play to the end against the AI by clicking only, then open the replay.

The player clicks the first move offered each time (a short game: every set-up here ends
in under a hundred of the player's moves), the AI seats play as the lobby chose them.
At this desktop size axe-core checks the lobby, the match page, the end dialog and the
replay (0 serious or critical violations; tests/web/test_phone.py does the same on
phones)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from skydeck.registry import game_ids
from tests.web.a11y import serious_violations

DRAWINGS = {
    "stellarion": "Stellarion table",
    "stellium": "Stellium universe",
    "expedition": "Stellar Expedition map",
    "conflict": "Stellar Conflict table",
}
#: Clicks allowed before the test gives up (the longest default game needs about 100).
MAX_CLICKS = 400


def _accessible(page: Page, where: str) -> None:
    faults = serious_violations(page)
    assert not faults, f"{where} at 1400x900: {faults}"


@pytest.mark.parametrize("game_id", [g for g in DRAWINGS if g in game_ids()])
def test_lobby_create_play_to_the_end_and_replay(live, page: Page, shots, game_id):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(live.base + "/")
    page.click(f".game-card[data-game='{game_id}']")
    expect(page.locator("#create")).to_be_visible()
    _accessible(page, "lobby")
    page.click("#create")  # every default kept
    page.wait_for_url("**/m/**")
    expect(page.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#status').innerText !== ''")
    _accessible(page, "match page")
    end = page.locator("#end")
    clicks = 0
    while not end.is_visible():
        assert clicks < MAX_CLICKS, f"no end after {clicks} clicks"
        button = page.locator(".action-group button:enabled").first
        if not button.count():
            page.wait_for_timeout(100)  # the AI (or a clock) moves
            continue
        before = page.locator("#status").inner_text()
        try:
            button.click(timeout=5_000)
        except PlaywrightTimeoutError:
            # The AI moved meanwhile and the move went away with it (both fleets may fire
            # in Stellar Conflict's battle, and the AI's shot may be the last): look again.
            continue
        clicks += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )
    dialog = end.locator("[role=dialog]")
    # A solo game is won or lost; a competitive one names its winner(s).
    expect(dialog.locator("h2")).to_have_text(
        re.compile(r"^(You won!|You lost|.+ won|Nobody won)$")
    )
    assert page.locator("#log li").count() >= clicks
    _accessible(page, "end dialog")
    # The replay, from the end dialog.
    dialog.get_by_role("button", name="Replay").click()
    page.wait_for_url("**/r/**")
    expect(page.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")).to_be_visible()
    steps = int(page.locator("#slider").get_attribute("max") or 0)
    assert steps >= clicks
    page.click("#first")
    expect(page.locator("#slider")).to_have_value("0")
    page.click("#last")
    expect(page.locator("#slider")).to_have_value(str(steps))
    _accessible(page, "replay")
    assert not errors, errors
