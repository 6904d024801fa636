"""A whole Stellarion game played by clicking in the browser, then its replay."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def test_a_whole_stellarion_game_by_clicking_then_its_replay(live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.base + "/")
    page.click("[data-game=stellarion]")
    page.fill("#seed", "0")
    page.click("#create")  # one human seat: straight to the match page
    expect(page.locator("#turn")).to_contain_text("Your move")
    expect(page.locator("svg[aria-label='Stellarion table']")).to_be_visible()
    moves = 0
    by_board = 0
    end = page.locator("#end")
    while not end.is_visible():
        assert moves < 400, "the game did not end"
        before = page.locator("#status").inner_text()
        hot = page.locator("svg g.hot")
        if moves % 3 == 0 and hot.count():
            # Pick pieces on the board until one move is left, then confirm it.
            for _ in range(6):
                if page.locator("#confirm").count():
                    break
                hot = page.locator("svg g.hot:not(:has(rect[stroke-width='4']))")
                if not hot.count():
                    break
                hot.first.click()
            if page.locator("#confirm").count():
                page.click("#confirm")
                by_board += 1
            else:
                page.locator(".action-group button").first.click()
        else:
            page.locator(".action-group button").first.click()
        moves += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )
    expect(end).to_contain_text(re.compile("You won|You lost"))
    assert by_board > 0
    assert page.locator("#log li").count() >= moves
    assert not errors, errors
    # The replay steps through the same game.
    page.locator("#end a[href^='/r/']").click()
    expect(page.locator("#stepinfo")).to_contain_text("step 0 /")
    total = int(page.locator("#stepinfo").inner_text().split("/")[1])
    assert total >= moves
    page.click("#next")
    expect(page.locator("#stepinfo")).to_contain_text("step 1 /")
    expect(page.locator("#turn")).not_to_contain_text("made a move")
    page.click("#last")
    expect(page.locator("#stepinfo")).to_contain_text(f"step {total} / {total}")
    expect(page.locator("#step")).to_contain_text("Final scores")
    # The full view of a finished match: every seat's view.
    page.select_option("#seat", "everyone")
    expect(page.locator("#board h3")).to_have_count(1)
    expect(page.locator("#board svg[aria-label='Stellarion table']")).to_be_visible()
    assert not errors, errors
