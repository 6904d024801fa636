"""Every game played on a phone, from the lobby to the replay, by tapping only: at 390x844
(portrait) and 844x390 (landscape), touch, 3 device pixels a CSS pixel. At every step the
page must fit the screen's width, every enabled control must be at least 44x44 CSS px and
the board's and cards' text at least 12 CSS px (tests/web/phone.py). In portrait, axe-core
checks the lobby, the match page, its end and its replay: no serious or critical fault.

The player taps the first move listed each time, as test_lobby_to_end.py clicks it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from skydeck.registry import game_ids
from tests.web.a11y import serious_violations
from tests.web.phone import PHONES, check_phone, phone_context
from tests.web.test_lobby_to_end import DRAWINGS, MAX_CLICKS


def _accessible(page, where: str) -> None:
    faults = serious_violations(page)
    assert not faults, f"{where}: {faults}"


@pytest.mark.parametrize("screen", list(PHONES))
@pytest.mark.parametrize("game_id", [g for g in DRAWINGS if g in game_ids()])
def test_phone_lobby_to_end_by_tapping(live, browser: Browser, shots, game_id, screen):
    context = phone_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    axe = screen == "portrait"
    page.goto(live.base + "/")
    page.locator(".game-card").first.wait_for()
    check_phone(page, "lobby")
    page.tap(f".game-card[data-game='{game_id}']")
    expect(page.locator("#create")).to_be_visible()
    check_phone(page, "lobby, the game's set-up open")
    if axe:
        _accessible(page, "lobby")
    page.tap("#create")  # every default kept
    page.wait_for_url("**/m/**")
    expect(page.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#status').innerText !== ''")
    check_phone(page, "the match's start")
    if axe:
        _accessible(page, "match page")
    end = page.locator("#end")
    taps = 0
    while not end.is_visible():
        assert taps < MAX_CLICKS, f"no end after {taps} taps"
        button = page.locator(".action-group button:enabled").first
        if not button.count():
            page.wait_for_timeout(100)  # the AI (or a clock) moves
            continue
        before = page.locator("#status").inner_text()
        try:
            button.tap(timeout=5_000)
        except PlaywrightTimeoutError:
            continue  # the move went away with the AI's (see test_lobby_to_end.py)
        taps += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )
        check_phone(page, f"after tap {taps}")
    dialog = end.locator("[role=dialog]")
    expect(dialog.locator("h2")).to_have_text(
        re.compile(r"^(You won!|You lost|.+ won|Nobody won)$")
    )
    check_phone(page, "the end dialog")
    width, height = PHONES[screen]
    box = dialog.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"end dialog cut off: {box}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"end dialog cut off: {box}"
    if axe:
        _accessible(page, "end dialog")
    dialog.get_by_role("button", name="Replay").tap()
    page.wait_for_url("**/r/**")
    expect(page.locator(f"svg[aria-label='{DRAWINGS[game_id]}']")).to_be_visible()
    check_phone(page, "replay")
    steps = int(page.locator("#slider").get_attribute("max") or 0)
    page.tap("#last")
    expect(page.locator("#slider")).to_have_value(str(steps))
    check_phone(page, "replay, last step")
    if axe:
        _accessible(page, "replay")
    assert not errors, errors
    context.close()


def _touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def _gesture(
    cdp, starts: list[tuple[float, float]], ends: list[tuple[float, float]], steps: int = 8
) -> None:
    """Fingers put down at ``starts``, moved in steps to ``ends``, lifted."""
    _touch(cdp, "touchStart", starts)
    for k in range(1, steps + 1):
        t = k / steps
        _touch(
            cdp,
            "touchMove",
            [
                (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                for a, b in zip(starts, ends, strict=True)
            ],
        )
    _touch(cdp, "touchEnd", [])


def _window(page, label: str) -> list[float]:
    box = page.locator(f"svg[aria-label='{label}']").get_attribute("viewBox") or ""
    return [float(v) for v in box.split()]


def test_board_zooms_by_pinch_pans_by_drag_and_resets(live, browser: Browser, shots):
    """Stellium's Universe on a phone: one finger drags the window, two pinch it larger,
    Reset and a double tap bring back the readable start; a tap still picks a piece; the
    same pieces pulse as on a desktop showing the same seat."""
    label = DRAWINGS["stellium"]
    context = phone_context(browser, "portrait")
    page = context.new_page()
    shots.append(page)
    page.goto(live.base + "/")
    page.tap(".game-card[data-game='stellium']")
    page.tap("#create")
    page.wait_for_url("**/m/**")
    board = page.locator(f"svg[aria-label='{label}']")
    expect(board).to_have_attribute("data-zoom", "1.000")
    board.scroll_into_view_if_needed()
    start = _window(page, label)
    cdp = context.new_cdp_session(page)
    box = board.bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    _gesture(cdp, [(cx + 100, cy)], [(cx - 60, cy)])  # drag left: the window moves right
    moved = _window(page, label)
    assert moved[0] > start[0] + 50 and moved[2:] == start[2:], (start, moved)

    _gesture(cdp, [(cx - 30, cy), (cx + 30, cy)], [(cx - 90, cy), (cx + 90, cy)])  # pinch out
    zoom = float(board.get_attribute("data-zoom") or 0)
    assert 2.0 < zoom <= 4.0, zoom
    assert _window(page, label)[2] < start[2] / 2

    page.get_by_role("button", name="Reset").tap()
    expect(board).to_have_attribute("data-zoom", "1.000")
    assert _window(page, label) == start

    _gesture(cdp, [(cx - 30, cy), (cx + 30, cy)], [(cx - 60, cy), (cx + 60, cy)])
    assert float(board.get_attribute("data-zoom") or 0) > 1.5
    corner = (box["x"] + 6, box["y"] + 6)  # the Outer Belt's corner: no piece there
    for _ in range(2):
        _touch(cdp, "touchStart", [corner])
        _touch(cdp, "touchEnd", [])
    expect(board).to_have_attribute("data-zoom", "1.000")

    # The same pulsing pieces as on a desktop, for the same seat of the same match.
    desktop = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    shots.append(desktop)
    desktop.goto(page.url)
    expect(desktop.locator(f"svg[aria-label='{label}']")).to_be_visible()
    pulsing = (
        "() => [...document.querySelectorAll('#board .hot')].map((n) => n.dataset.token).sort()"
    )
    desktop.wait_for_function("() => document.querySelectorAll('#board .hot').length > 0")
    assert page.evaluate(pulsing) == desktop.evaluate(pulsing)
    assert desktop.locator(".zoom-bar").count() == 0  # a desktop keeps its old drawing

    # After dragging the window along, a tap on a piece in sight still picks it.
    find = """() => {
      const s = document.querySelector('#board svg.zoomable').getBoundingClientRect();
      const inSight = (h) => {
        const r = h.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
        return x > s.left && x < s.right && y > s.top && y < s.bottom;
      };
      const n = [...document.querySelectorAll('#board .hot')].find(inSight);
      return n ? n.dataset.token : null;
    }"""
    token = None
    for _ in range(8):
        _gesture(cdp, [(cx + 120, cy)], [(cx - 120, cy)])
        token = page.evaluate(find)
        if token is not None:
            break
    assert token is not None, "no pulsing piece in the window after the drag"
    before = page.locator("#status").inner_text()
    page.locator(f"#board .hot[data-token='{token}']").first.tap()
    page.wait_for_function(
        "b => document.querySelector('#status').innerText !== b"
        " || document.querySelector('#actions .selection') !== null",
        arg=before,
    )
    desktop.context.close()
    context.close()
