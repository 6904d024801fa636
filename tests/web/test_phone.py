"""Every game played on a phone, from the lobby to the replay, by tapping only: at 390x844
(portrait) and 844x390 (landscape), touch, 3 device pixels a CSS pixel. At every step the
page must fit the screen's width, every enabled control must be at least 44x44 CSS px and
the board's and cards' text at least 12 CSS px (tests/web/phone.py). At both sizes axe-core
checks the lobby, the match page, its end, its replay and a player's profile: no serious
or critical fault. The players' panels and the log fold away on a phone.

The player taps the first move listed each time, as test_lobby_to_end.py clicks it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from skydeck.registry import game_ids
from tests.web.a11y import serious_violations
from tests.web.conftest import LiveServer
from tests.web.phone import PHONES, check_phone, phone_context
from tests.web.test_clocks_once import COUNTDOWNS_JS
from tests.web.test_lobby_to_end import DRAWINGS, MAX_CLICKS
from tests.web.test_panels import MATCHES
from tests.web.test_people import PASSWORD as PEOPLE_PASSWORD


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
    axe = True  # both phone sizes
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


@pytest.mark.parametrize("screen", list(PHONES))
def test_panels_and_log_fold_away_on_a_phone(live, browser: Browser, shots, screen):
    """A finger-sized toggle folds the players' panels, another the log; the board stays
    in sight, the fold holds through the next move and a reload, and the clock the
    folded panel held is drawn under the toggles instead (still once)."""
    if "stellium" not in game_ids():
        return
    context = phone_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    m = live.create({"game": "stellium", "seed": 4, **MATCHES["stellium"]})
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#turn")).to_contain_text("Your move", timeout=20_000)
    board = page.locator(f"svg[aria-label='{DRAWINGS['stellium']}']")
    panels, log = page.locator("#panels"), page.locator("#log")
    fold_panels = page.get_by_role("button", name="Hide the players")
    fold_log = page.get_by_role("button", name="Hide the log")
    for toggle in (fold_panels, fold_log):
        expect(toggle).to_be_visible()
        box = toggle.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    expect(fold_panels).to_have_attribute("aria-expanded", "true")

    fold_panels.tap()
    expect(panels).to_be_hidden()
    expect(log).to_be_visible()
    fold_log.tap()
    expect(log).to_be_hidden()
    expect(page.get_by_role("button", name="Show the players")).to_have_attribute(
        "aria-expanded", "false"
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(board).to_be_in_viewport()
    check_phone(page, "panels and log folded")
    # the draw clock the panel showed is drawn under the toggles, once
    expect(page.locator("#clocks .clock")).to_contain_text("draw from the bag")
    assert len(page.evaluate(COUNTDOWNS_JS)) == 1

    # the next move redraws the page: still folded
    before = page.locator("#status").inner_text()
    page.locator(".action-group button:enabled").first.tap()
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
    expect(panels).to_be_hidden()
    expect(log).to_be_hidden()
    # and after a reload
    page.reload()
    expect(page.locator("#status")).not_to_have_text("")
    expect(panels).to_be_hidden()
    expect(log).to_be_hidden()

    page.get_by_role("button", name="Show the players").tap()
    page.get_by_role("button", name="Show the log").tap()
    expect(panels).to_be_visible()
    expect(log).to_be_visible()
    expect(page.locator("#panels .pp")).to_have_count(2)
    check_phone(page, "panels and log unfolded")
    context.close()


def test_a_desktop_shows_no_fold_toggles(live, page, shots):
    """The desktop keeps its columns: no toggles, panels and log always shown."""
    shots.append(page)
    m = live.create({"game": "stellium", "seed": 4, **MATCHES["stellium"]})
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#panels .pp")).to_have_count(2)
    expect(page.locator(".fold-bar")).to_be_hidden()
    expect(page.locator("#log")).to_be_visible()
    # a fold chosen on a phone in this tab does not hide a desktop's columns
    page.evaluate(
        "() => { sessionStorage.setItem('skydeck.fold.panels', '1');"
        " sessionStorage.setItem('skydeck.fold.log', '1'); }"
    )
    page.reload()
    expect(page.locator("#panels .pp")).to_have_count(2)
    expect(page.locator("#panels")).to_be_visible()
    expect(page.locator("#log")).to_be_visible()


def _play_to_the_end(page) -> None:
    """Tap the first move listed until the end dialog shows."""
    end = page.locator("#end")
    taps = 0
    while not end.is_visible():
        assert taps < MAX_CLICKS, f"no end after {taps} taps"
        button = page.locator(".action-group button:enabled").first
        if not button.count():
            page.wait_for_timeout(100)
            continue
        try:
            button.tap(timeout=5_000)
        except PlaywrightTimeoutError:
            continue
        taps += 1
        page.wait_for_timeout(50)


@pytest.fixture(scope="module")
def phone_people_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server for signed-in people (Argon2id made small for a test, as test_people's)."""
    db = tmp_path_factory.mktemp("phone-people") / "people.sqlite"
    with LiveServer(f"sqlite:///{db}") as server:
        server.app.state.people.hasher.__init__(64)
        yield server


MAKE_MATCH_JS = """async (rated) => {
  const me = await (await fetch('/api/me')).json();
  const r = await fetch('/api/matches', {method: 'POST', headers: {'content-type':
    'application/json', 'x-skydeck-csrf': me.csrf}, body: JSON.stringify({game: 'toy',
    rated, seats: [{kind: 'human', me: true}, {kind: 'ai', agent: 'random'}]})});
  return (await r.json()).links['0'];
}"""


@pytest.mark.parametrize("screen", list(PHONES))
def test_the_profile_page_on_a_phone(phone_people_live, browser: Browser, shots, screen):
    """A player's profile with a rated match played and one still going: no sideways
    scroll, every control a finger's size, its text at least 12 px, and axe finds no
    serious or critical fault, at both phone sizes."""
    context = phone_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"Pia{screen.capitalize()}"
    page.goto(phone_people_live.base + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", PEOPLE_PASSWORD)
    page.tap("#sign-up")
    expect(page.locator("#signed-in")).to_contain_text(name)
    page.goto(phone_people_live.base + page.evaluate(MAKE_MATCH_JS, True))
    _play_to_the_end(page)
    page.evaluate(MAKE_MATCH_JS, False)  # a match still going
    page.goto(f"{phone_people_live.base}/p/{name}")
    expect(page.locator(".rating-card[data-game='toy']")).to_contain_text("1 rated game")
    expect(page.locator("#matches tbody tr").first).to_be_visible()
    expect(page.locator("#current tr")).to_have_count(1)
    m = check_phone(page, "profile")
    assert m["profileTexts"] > 10, m  # the profile's own text was measured
    _accessible(page, f"profile ({screen})")
    assert not errors, errors
    context.close()
