"""A whole two-player Stellium game, each player in their own browser; one draw is left
to the 5-second clock (run faster here), which draws for the slow player."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect


def _status(page: Page) -> str:
    return page.locator("#status").inner_text()


def test_two_browsers_play_a_whole_stellium_game(fast_clock_live, browser: Browser, shots):
    live = fast_clock_live
    m = live.create(
        {
            "game": "stellium",
            "seed": 2,
            "options": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    pages: list[Page] = []
    errors: list[str] = []
    for seat in (0, 1):
        page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.base + m["links"][str(seat)])
        expect(page.locator("svg[aria-label='Stellium universe']")).to_be_visible()
        pages.append(page)
        shots.append(page)
    expect(pages[0].locator("#title")).to_contain_text("playing Ada")
    expect(pages[1].locator("#title")).to_contain_text("playing Bo")
    timed_out = False
    moves = 0
    while not pages[0].locator("#end").is_visible():
        assert moves < 600, "the game did not end"
        # Whoever has buttons acts; the other browser must show nothing to do.
        page = next((p for p in pages if p.locator(".action-group button").count()), None)
        if page is None:
            pages[0].wait_for_timeout(50)
            continue
        other = pages[1 - pages.index(page)]
        assert other.locator(".action-group button").count() == 0
        before = _status(page)
        buttons = page.locator(".action-group button")
        # The clock's random draw is never a button: a draw is a choice of body.
        assert not page.locator("[data-action='timeout']").count()
        if not timed_out and moves > 6 and page.locator("[data-action^='draw']").count():
            # Let the clock run out on this draw: the server draws at random.
            expect(page.locator("#panels .pp-clock[data-due]")).to_be_visible()
            timed_out = True
        else:
            buttons.last.click()
        moves += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
            timeout=15_000,
        )
    for page in pages:
        expect(page.locator("#end")).to_be_visible()
        expect(page.locator("#end table tr")).to_have_count(2)
    assert timed_out
    expect(pages[1].locator("#log")).to_contain_text("ran out of time")
    assert _status(pages[0]) == _status(pages[1])
    assert not errors, errors
