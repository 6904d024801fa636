"""A copy of ``games/_template`` (a fifth game, touched only inside its folder) opens in
the browser with the page's generic parts (issue 47): the lobby offers it, its match
page draws the view as boxes and its moves as buttons, every seat gets a panel, the
rules say there is no summary, there is no walk-through to open, and a whole match is
played by clicking, to the end, without an error on the page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.games.fifth import copied_template
from tests.web.conftest import LiveServer
from tests.web.moves import click_moves


@pytest.fixture(scope="module")
def fifth_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("plugin")
    db = tmp_path_factory.mktemp("web-fifth") / "web.sqlite"
    with copied_template(root), LiveServer(f"sqlite:///{db}") as server:
        yield server


def test_the_lobby_offers_the_copy_without_a_walk_through(fifth_live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(fifth_live.base + "/")
    card = page.locator("#games button[data-game='fifth']")
    expect(card).to_contain_text("Fifth")
    # The games that bring their steps have a button; the copy, which brings none, not.
    expect(page.locator("#howto-links button[data-howto='stellium']")).to_be_visible()
    expect(page.locator("#howto-links button[data-howto='fifth']")).to_have_count(0)
    card.click()
    expect(page.locator("#setup")).to_contain_text("New Fifth match")
    expect(page.locator("#setup details div")).to_contain_text("No summary yet.")
    assert not errors, errors


def test_the_copy_plays_to_the_end_with_the_generic_drawing(fifth_live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    m = fifth_live.create(
        {
            "game": "fifth",
            "seed": 3,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}],
        }
    )
    page.goto(fifth_live.base + m["links"]["0"])
    expect(page.locator("#title")).to_contain_text("Fifth")
    # The generic drawing: the view's keys as labelled boxes, the moves as buttons.
    expect(page.locator("#board .gview")).to_be_visible()
    expect(page.locator("#board .gview .k", has_text="Deck size")).to_be_visible()
    expect(page.locator("#panels .pp")).to_have_count(2)
    expect(page.locator("#howto-open")).to_be_hidden()
    expect(page.locator("#rules")).to_contain_text("No summary yet.")
    clicks = click_moves(page, most=100, tries=200, wait_ms=50)
    expect(page.locator("#end")).to_be_visible()
    assert clicks >= 4  # the human seat played its cards (9 cards, two seats)
    # The panels' scores are the game's own (the view's ``scores``: cards played).
    scores = [
        page.locator(f"#panels .pp[data-seat='{s}'] .pp-score").inner_text().strip("★ ")
        for s in (0, 1)
    ]
    assert all(s.replace(".", "").isdigit() for s in scores), scores
    assert not errors, errors
