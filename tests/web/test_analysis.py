"""The replay's Analyse button in real Chromium: finish a short match by clicking, open
its replay, press Analyse, see the progress, then the graph, each seat's summary and the
grade of a move; a second visit shows the stored analysis at once.

A small budget (2 playouts a decision, 1 candidate): the page is tested, not the numbers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.web.conftest import LiveServer

MAX_CLICKS = 200


@pytest.fixture(scope="module")
def cheap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web-analysis") / "web.sqlite"
    with LiveServer(f"sqlite:///{db}", analysis_playouts=2, analysis_width=1) as server:
        yield server


def play_to_the_end(page: Page) -> None:
    """Click the first move offered until the match is over (the AI plays its seat)."""
    end = page.locator("#end")
    clicks = 0
    while not end.is_visible():
        assert clicks < MAX_CLICKS, f"no end after {clicks} clicks"
        button = page.locator(".action-group button:enabled").first
        if not button.count():
            page.wait_for_timeout(100)
            continue
        before = page.locator("#status").inner_text()
        try:
            button.click(timeout=5_000)
        except PlaywrightTimeoutError:
            continue  # the AI moved meanwhile and the move went with it: look again
        clicks += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )


def test_finish_a_match_press_analyse_see_progress_and_graded_moves(cheap, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    m = cheap.create(
        {
            "game": "conflict",
            "seed": 11,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
        }
    )
    page.goto(cheap.base + m["links"]["0"])
    play_to_the_end(page)
    page.goto(f"{cheap.base}/r/{m['id']}")
    button = page.get_by_role("button", name="Analyse")
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#analysis-progress")).to_be_visible()
    expect(page.locator("#analysis-count")).to_contain_text("positions weighed", timeout=60_000)
    # done: the summary of both seats, one line of chances each, the list of marked moves
    rows = page.locator("#analysis-summary tbody tr")
    expect(rows).to_have_count(2, timeout=180_000)
    expect(page.locator("#analysis-progress")).to_be_hidden()
    expect(rows.first.locator("th")).to_have_text("Ada")
    graph = page.locator("svg[aria-label='Win chances over the match']")
    expect(graph.locator("polyline")).to_have_count(2)
    expect(page.locator("#analysis-moves li").first).to_be_visible()
    # step through the replay until a graded move is shown with its chances
    page.click("#first")
    grade = page.locator("#analysis-step .graded b")
    steps = int(page.locator("#slider").get_attribute("max") or 0)
    for _ in range(steps):
        page.click("#next")
        if grade.count():
            break
    assert grade.count() == 1, "no graded move in the whole replay"
    assert grade.inner_text() in ("good", "inaccuracy", "mistake", "blunder")
    expect(page.locator("#analysis-step")).to_contain_text("after the best found")
    # a second visit: the stored analysis, at once, no button
    page.reload()
    expect(rows).to_have_count(2)
    expect(button).to_be_hidden()
    assert not errors, errors
