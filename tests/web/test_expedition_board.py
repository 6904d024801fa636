"""Issue 49, "choices made on the board": Stellar Expedition's moves are made by
tapping what the board shows (a cell of the map, a card in a dashboard or the store)
and confirming, never touching the move list, which stays as the keyboard and
screen-reader path. A match against the AI is played this way for a few dozen moves at
a desktop's size and on a phone; the moves made must include moves on the map and moves
on cards, and every one must land (the match's step goes up by one each time)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from skydeck.registry import game_ids
from tests.web.phone import screen_context

#: The hot pieces and the table's move buttons a player can reach: a card anywhere on
#: the page (it scrolls), a cell of the map inside the map's window (a zoom window: a
#: cell panned out of it is not in sight).
HOT_IN_SIGHT_JS = """() => {
  const board = document.querySelector('#board').getBoundingClientRect();
  const chosen = new Set(((document.querySelector('.selection span') || {}).textContent || '')
    .replace(/^Chosen: /, '').split(' + ').filter(Boolean));
  const out = [];
  const seenAt = (n) => {
    const r = n.getBoundingClientRect();
    if (!n.closest('svg')) return r.width > 0;  // the page scrolls to it
    const clip = n.closest('svg').getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= clip.left && x <= clip.right && y >= clip.top && y <= clip.bottom;
  };
  let away = 0;
  document.querySelectorAll('#board .hot[data-token]').forEach((n, i) => {
    if (chosen.has(n.dataset.token) || n.classList.contains('chosen')) return;
    if (!seenAt(n)) { away += 1; return; }
    out.push({sel: '#board .hot[data-token]', i,
              what: n.hasAttribute('data-cell') ? 'map' : 'card'});
  });
  document.querySelectorAll('#board [data-board-move]:not([disabled])').forEach((n, i) => {
    if (seenAt(n)) out.push({sel: '#board [data-board-move]:not([disabled])', i, what: 'button'});
  });
  return {reach: out, away};
}"""


def _step(page: Page) -> int:
    return int(page.locator("#status").inner_text().split()[1])


def _play_by_the_board(page: Page, moves: int) -> dict[str, int]:
    """Makes ``moves`` moves by tapping hot pieces and the Confirm button, or a move's
    button drawn on the table; the list only when nothing left to choose is drawn. Counts
    the moves that used a map cell, a card, a button of the table (a die, an option, a
    target), or the list (a move of nothing the table draws)."""
    made = {"map": 0, "card": 0, "button": 0, "list": 0}
    touch = _is_touch(page)
    for _ in range(moves):
        if page.locator("#end").is_visible():
            break
        page.wait_for_function(
            "() => document.querySelector('#end:not([hidden])') ||"
            " document.querySelector('.action-group button:not([disabled])')"
        )
        if page.locator("#end").is_visible():
            break
        before, what = _step(page), ""
        for _ in range(6):  # a move names at most a few pieces
            if page.locator("#confirm").count():
                break
            found = page.evaluate(HOT_IN_SIGHT_JS)
            hot = found["reach"]
            if not hot:
                # Only what the table does not draw is left to choose (end the turn, give
                # up, which resource pays): the list, narrowed by what was tapped.
                assert not found["away"], f"step {before}: the pieces to tap are out of sight"
                hot = [{"sel": ".action-group button:not([disabled])", "i": 0, "what": "list"}]
            pick = hot[0]
            what = "map" if "map" in (what, pick["what"]) else pick["what"]
            node = page.locator(pick["sel"]).nth(pick["i"])
            node.tap() if touch else node.click()
            if pick["what"] in ("button", "list"):
                break
        else:
            pick = {"what": "taps"}
        if pick["what"] not in ("button", "list"):
            confirm = page.locator("#confirm")
            expect(confirm).to_be_visible()
            confirm.tap() if touch else confirm.click()
        page.wait_for_function(
            "b => +document.querySelector('#status').innerText.split(' ')[1] > b", arg=before
        )
        made[what] += 1
    return made


def _is_touch(page: Page) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def _match(live: Any) -> str:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}]
    m = live.create({"game": "expedition", "seed": 5, "options": {"players": 2}, "seats": seats})
    return str(m["links"]["0"])


@pytest.mark.parametrize("screen", ["desktop", "portrait"])
def test_expedition_moves_are_made_on_the_board(live, browser: Browser, shots, screen) -> None:
    if "expedition" not in game_ids():
        pytest.skip("no Stellar Expedition")
    context = screen_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    page.goto(live.base + _match(live))
    expect(page.locator("svg.xmap")).to_be_visible(timeout=20_000)
    expect(page.locator("#board-first")).to_be_visible()  # "moves on the board come first"
    made = _play_by_the_board(page, 24)
    assert made["map"] >= 1 and made["card"] >= 1 and made["button"] >= 1, made
    assert made["list"] <= made["map"] + made["card"] + made["button"], made
    assert sum(made.values()) == 24, made
    context.close()
