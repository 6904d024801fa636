"""The "How to play" walk-through of every game, from the match page and from the lobby:
it opens, each step's pulsing piece does what the step says when clicked, Next goes on,
the last step closes it, and Escape or ✕ close it at any time."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from skydeck.registry import game_ids
from tests.web.phone import screen_context

TITLES = {
    "stellarion": "Stellarion",
    "stellium": "Stellium",
    "expedition": "Stellar Expedition",
    "conflict": "Stellar Conflict",
}
SEATS = {"stellarion": 1, "stellium": 2, "expedition": 2, "conflict": 2}


def _walk_through(page: Page, title: str) -> int:
    """Plays every step of the open walk-through; the number of steps."""
    dialog = page.get_by_role("dialog", name=f"How to play {title}")
    expect(dialog).to_be_visible()
    steps = 0
    while dialog.is_visible():
        steps += 1
        assert steps <= 6, "the walk-through never ends"
        expect(dialog.locator(".howto-step")).to_contain_text(f"{steps} / ")
        expect(dialog.locator(".howto-try")).to_contain_text("Try it")
        for _ in range(6):  # a step may ask for several clicks (four cards of a Launch)
            target = dialog.locator(".howto-target")
            if not target.count():
                break
            target.first.click()
        expect(dialog.locator(".howto-try")).to_have_class("howto-try done")
        expect(dialog.locator(".howto-try")).to_contain_text("✓")
        dialog.locator("#howto-next").click()
    expect(page.locator("#howto")).to_have_count(0)
    return steps


@pytest.mark.parametrize("game_id", [g for g in TITLES if g in game_ids()])
def test_how_to_play_opens_steps_through_and_closes_on_the_match_page(
    live, page: Page, shots, game_id
):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    seats = [{"kind": "human"}] + [{"kind": "ai", "agent": "random"}] * (SEATS[game_id] - 1)
    m = live.create(
        {"game": game_id, "seed": 1, "options": {"players": SEATS[game_id]}, "seats": seats}
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#panels .pp").first).to_be_visible()
    page.click("#howto-open")
    assert _walk_through(page, TITLES[game_id]) >= 3
    # Escape closes it, and so does ✕; the match page is still there and live.
    page.click("#howto-open")
    expect(page.locator("#howto [role=dialog]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#howto")).to_have_count(0)
    page.click("#howto-open")
    page.get_by_role("button", name="close").click()
    expect(page.locator("#howto")).to_have_count(0)
    expect(page.locator("#panels .pp").first).to_be_visible()
    assert not errors, errors


def test_the_lobby_offers_how_to_play_for_every_game(live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.base + "/")
    for game_id in [g for g in TITLES if g in game_ids()]:
        button = page.locator(f"#howto-links button[data-howto='{game_id}']")
        expect(button).to_have_text(f"How to play {TITLES[game_id]}")
        button.click()
        dialog = page.get_by_role("dialog", name=f"How to play {TITLES[game_id]}")
        expect(dialog).to_be_visible()
        # Back and forth between the steps with the buttons.
        dialog.locator("#howto-next").click()
        expect(dialog.locator(".howto-step")).to_contain_text("2 / ")
        dialog.locator("#howto-back").click()
        expect(dialog.locator(".howto-step")).to_contain_text("1 / ")
        dialog.get_by_role("button", name="close").click()
        expect(page.locator("#howto")).to_have_count(0)
    # A full walk-through from the lobby too.
    page.locator("#howto-links button").first.click()
    first = page.locator("#howto-links button").first.get_attribute("data-howto") or ""
    _walk_through(page, TITLES[first])
    assert not errors, errors


LINES_JS = """(sel) => { const n = document.querySelector(sel); const r = document.createRange();
  r.selectNodeContents(n);
  return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"""


@pytest.mark.parametrize("screen", ["desktop", "portrait", "landscape"])
def test_the_how_to_play_button_reads_on_one_line(live, browser, shots, screen):
    """Issue 49: on a phone "How to play" wrapped onto 4 lines of the match page's bar
    (and onto 2 at a desktop's 1280 px). Its words are one line at every size, in every
    game (the bar's other parts differ: a longer title or status)."""
    context = screen_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    for game_id in [g for g in TITLES if g in game_ids()]:
        seats = [{"kind": "human"}] + [{"kind": "ai", "agent": "random"}] * (SEATS[game_id] - 1)
        m = live.create(
            {"game": game_id, "seed": 1, "options": {"players": SEATS[game_id]}, "seats": seats}
        )
        page.goto(live.base + m["links"]["0"])
        expect(page.locator("#howto-open")).to_be_visible()
        lines = page.evaluate(LINES_JS, "#howto-open")
        assert lines == 1, f"{game_id} at {screen}: 'How to play' on {lines} lines"
    context.close()
