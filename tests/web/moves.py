"""Playing a match page by clicking its listed moves (the generic action buttons)."""

from __future__ import annotations

from playwright.sync_api import Page


def click_moves(page: Page, most: int, tries: int = 40, wait_ms: int = 100) -> int:
    """Clicks the first enabled move in the list, each time waiting for the status line
    to change, until ``most`` moves were made or the match is over; how many were."""
    clicks = 0
    for _ in range(tries):
        if clicks >= most or page.locator("#end").is_visible():
            break
        button = page.locator(".action-group button:not([disabled])")
        if not button.count():
            page.wait_for_timeout(wait_ms)
            continue
        before = page.locator("#status").inner_text()
        button.first.click()
        page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
        clicks += 1
    return clicks
