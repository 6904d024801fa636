"""A server's limits and idle expiry as a person meets them in the browser: the lobby
says why a new match was refused, and a match nobody moves in ends as abandoned, on its
page and in its replay."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.live import LiveServer

TOY_SEATS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that abandons a match after 5 s without a move and takes one new match
    a minute from an address."""
    db = tmp_path_factory.mktemp("strict") / "strict.sqlite"
    with LiveServer(f"sqlite:///{db}", idle_expiry=5.0, create_rate="1/minute") as server:
        yield server


def test_a_match_nobody_moves_in_ends_as_abandoned_on_its_page_and_replay(
    strict: LiveServer, page: Page, shots
):
    shots.append(page)
    m = strict.create({"game": "toy", "seed": 3, "seats": TOY_SEATS})
    page.goto(f"{strict.base}{m['links']['0']}")
    expect(page.locator("#turn")).to_contain_text("Your move")
    dialog = page.get_by_role("dialog", name="the match was abandoned")
    expect(dialog).to_be_visible(timeout=20_000)
    expect(dialog).to_contain_text("Nobody won")
    expect(page.locator("#status")).to_contain_text("abandoned")
    dialog.get_by_role("button", name="Look at the board").click()
    expect(page.locator("#turn")).to_contain_text("abandoned")
    expect(page.locator("#actions")).to_contain_text("No more moves.")
    page.goto(f"{strict.base}/r/{m['id']}")
    expect(page.locator("#title")).to_contain_text("abandoned")
    page.goto(f"{strict.base}/")
    row = page.locator("tr", has=page.locator(f"a[href='/r/{m['id']}']"))
    expect(row).to_contain_text("abandoned")


def test_the_lobby_says_why_a_new_match_was_refused(strict: LiveServer, page: Page, shots):
    shots.append(page)
    # This address's one match of the minute (made here, or by the test before).
    httpx.post(strict.base + "/api/matches", json={"game": "toy", "seats": TOY_SEATS})
    page.goto(strict.base + "/")
    page.click(".game-card[data-game='toy']")
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as info:
        page.click("#create")
    assert info.value.status == 429
    expect(page.locator("#setup-error")).to_contain_text("too many new matches from your address")
    expect(page.locator("#setup-error")).to_contain_text("at most 1 a minute")
