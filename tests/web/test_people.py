"""People in real Chromium: two people sign up in two browsers and play a rated match
to its end by clicking; the second came as a guest with the invitation, was told to sign
in, and signing up on the match page claimed the seat; one of them signs in from a fresh browser
mid-match and is back in the seat; both ratings move, both profiles list the match and
its replay opens. The match is of the tests' short toy game: two humans who click the
first move offered in a Stellium match may pass Missions forever."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.web.conftest import LiveServer

PASSWORD = "a long pass phrase"
MAX_CLICKS = 200


@pytest.fixture(scope="module")
def people_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("people") / "people.sqlite"
    with LiveServer(f"sqlite:///{db}") as server:
        # Argon2id's memory made small for a test (the same rules, a faster hash)
        server.app.state.people.hasher.__init__(64)
        yield server


def _browser_page(browser: Browser, errors: list[str]) -> Page:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    expect(page.locator("#signed-in")).to_contain_text(name)


def _click_once(page: Page) -> bool:
    """Click the first move offered on this page, if any; whether it did."""
    button = page.locator(".action-group button:enabled").first
    if not button.count():
        return False
    before = page.locator("#status").inner_text()
    try:
        button.click(timeout=3_000)
    except PlaywrightTimeoutError:
        return False
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
            timeout=5_000,
        )
    return True


def test_two_people_sign_up_play_rated_and_their_ratings_move(
    people_live, browser: Browser, shots
):
    base = people_live.base
    errors: list[str] = []
    astra = _browser_page(browser, errors)
    bolide = _browser_page(browser, errors)
    shots.extend([astra, bolide])

    _sign_up(astra, base, "Astra")
    astra.click(".game-card[data-game='toy']")
    expect(astra.locator(".seat-kind").first).to_have_value("me")
    astra.locator(".seat-kind").nth(1).select_option("human")
    astra.check("#rated")
    astra.click("#create")
    invite = astra.locator("a[data-seat='1']").get_attribute("href")
    mine = astra.locator("a[data-seat='0']").get_attribute("href")
    assert invite and mine
    match_id = re.search(r"/m/([^#?]+)", invite).group(1)
    astra.goto(base + mine)
    expect(astra.locator("#title")).to_contain_text("playing Astra")

    # Bolide opens the invitation as a guest: a rated seat asks for a sign-in
    bolide.goto(base + invite)
    expect(bolide.locator("#error")).to_contain_text("sign in to play a seat of a rated match")
    # signing up on the match page claims the seat the invitation opened
    bolide.fill("#account-name", "Bolide")
    bolide.fill("#account-password", PASSWORD)
    bolide.click("#sign-up")
    expect(bolide.locator("#title")).to_contain_text("playing Bolide")
    astra.reload()  # (a page already open learns the new name when it reconnects)
    expect(astra.locator("#panels")).to_contain_text("Bolide")

    clicks = 0
    came_back = False
    end = astra.locator("#end")
    while not end.is_visible():
        assert clicks < MAX_CLICKS, f"no end after {clicks} clicks"
        moved = False
        for page in (astra, bolide):
            if page.locator("#end").is_visible():
                continue
            moved = _click_once(page) or moved
        clicks += 1
        if clicks == 3 and not came_back:
            # Astra on a fresh browser, no link: signing in is enough to be back
            astra.context.close()
            astra = _browser_page(browser, errors)
            shots.append(astra)
            astra.goto(base + "/")
            astra.fill("#account-name", "astra")
            astra.fill("#account-password", PASSWORD)
            astra.click("#sign-in")
            expect(astra.locator("#signed-in")).to_contain_text("Astra")
            expect(astra.locator("#my-matches a", has_text="open")).to_be_visible()
            astra.locator("#my-matches a", has_text="open").first.click()
            expect(astra.locator("#title")).to_contain_text("playing Astra")
            end = astra.locator("#end")
            came_back = True
        if not moved:
            astra.wait_for_timeout(150)
    assert came_back
    expect(bolide.locator("#end")).to_be_visible()
    # the end dialog's Rematch: the same two, seats moved on, one new match for both
    astra.click("#rematch")
    astra.wait_for_url(lambda url: "/m/" in url and match_id not in url)
    expect(astra.locator("#title")).to_contain_text("playing Astra")
    bolide.click("#rematch")
    bolide.wait_for_url(astra.url)
    expect(bolide.locator("#title")).to_contain_text("playing Bolide")

    for page, name in ((astra, "Astra"), (bolide, "Bolide")):
        page.goto(f"{base}/p/{name}")
        card = page.locator(".rating-card[data-game='toy']")
        expect(card).to_contain_text("1 rated game")
        expect(card).to_contain_text("provisional")
        assert card.locator(".num").inner_text() != "1000"  # the rating moved
        expect(page.locator("svg.rating-graph")).to_be_visible()
        row = page.locator(f"#matches tr[data-match='{match_id}']")
        expect(row).to_contain_text("→")
    opponent = bolide.locator("#opponents")
    expect(opponent).to_contain_text("Astra")
    bolide.locator(f"#matches tr[data-match='{match_id}'] a.replay").click()
    bolide.wait_for_url(f"**/r/{match_id}")
    expect(bolide.locator("#stepinfo")).to_be_visible()
    assert not errors, errors


def test_two_people_meet_through_play_now_and_a_lone_one_is_offered_a_bot(
    people_live, browser: Browser, shots
):
    """Play now in the lobby: the first to click waits (the waiting state says for
    what), the second meets them and both pages go to the one match; someone alone is
    offered an AI after the wait (the queue's clock moved by the test) and plays it."""
    base = people_live.base
    errors: list[str] = []
    comet, dune = _browser_page(browser, errors), _browser_page(browser, errors)
    shots.extend([comet, dune])
    for page, name in ((comet, "Comet"), (dune, "Dune")):
        _sign_up(page, base, name)
        page.click(".game-card[data-game='toy']")
    comet.click("#play-now")
    expect(comet.locator("#queue-state")).to_contain_text("Looking for an opponent for Toy")
    expect(comet.locator("#queue-state")).to_contain_text("of your rating 1000")
    dune.click("#play-now")
    dune.wait_for_url(re.compile(r".*/m/[^/?#]+$"))
    comet.wait_for_url(re.compile(r".*/m/[^/?#]+$"), timeout=10_000)
    assert comet.url == dune.url
    expect(comet.locator("#title")).to_contain_text("playing Comet")
    expect(dune.locator("#title")).to_contain_text("playing Dune")

    queue = people_live.app.state.people.queue
    real = queue.clock
    comet.goto(base + "/")
    comet.click(".game-card[data-game='toy']")
    comet.click("#play-now")
    expect(comet.locator("#queue-state")).to_be_visible()
    expect(comet.locator("#queue-bot")).to_have_count(0)
    try:
        queue.clock = lambda: real() + people_live.app.state.settings.queue_bot_after
        expect(comet.locator("#queue-bot")).to_contain_text("Play AI: ", timeout=10_000)
        comet.click("#queue-bot")
        comet.wait_for_url(re.compile(r".*/m/[^/?#]+$"))
    finally:
        queue.clock = real
    expect(comet.locator("#title")).to_contain_text("playing Comet")
    expect(comet.locator("#panels")).to_contain_text("AI: ")
    assert not errors, errors


#: Stellium moves that end a match soonest (tests/web: a clicked match must end): a
#: Mission completed scores, and each Mission taken reveals one from the reserve, whose
#: last reveal starts the final round. With the "first game" set-up (a target 5 lower)
#: this ends a 2-player match in about 110 moves (seeds 0-4: 74-120).
STELLIUM_FIRST = ("complete ", "take ")
STELLIUM_MAX_CLICKS = 600


def _click_soonest(page: Page) -> bool:
    """Click the move of this page that ends the match soonest (``STELLIUM_FIRST``, else
    the first offered); whether it did. Waits until the page has redrawn its moves."""
    enabled = page.locator(".action-group button:enabled")
    if not enabled.count():
        return False
    button = enabled.first
    for prefix in STELLIUM_FIRST:
        preferred = page.locator(f".action-group button:enabled[data-action^='{prefix}']")
        if preferred.count():
            button = preferred.first
            break
    try:
        handle = button.element_handle(timeout=1_000)
        button.click(timeout=3_000)
    except PlaywrightTimeoutError:
        return False
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function("b => !b.isConnected", arg=handle, timeout=5_000)
    return True


def test_two_people_meet_through_play_now_and_play_stellium_to_the_end(
    people_live, browser: Browser, shots
):
    """The issue's flow on Stellium: two people sign up in two browsers, meet through
    Play now (the first-game set-up), play the rated match to its end by clicking, both
    ratings move, both profiles list the match and its replay opens."""
    base = people_live.base
    errors: list[str] = []
    nova, orbit = _browser_page(browser, errors), _browser_page(browser, errors)
    shots.extend([nova, orbit])
    for page, name in ((nova, "Nova"), (orbit, "Orbit")):
        _sign_up(page, base, name)
        page.click(".game-card[data-game='stellium']")
        page.check("#opt-first_game")
    nova.click("#play-now")
    expect(nova.locator("#queue-state")).to_contain_text("Looking for an opponent for Stellium")
    orbit.click("#play-now")
    orbit.wait_for_url(re.compile(r".*/m/[^/?#]+$"))
    nova.wait_for_url(re.compile(r".*/m/[^/?#]+$"), timeout=10_000)
    assert nova.url == orbit.url
    match_id = nova.url.rsplit("/", 1)[1]
    for page, name in ((nova, "Nova"), (orbit, "Orbit")):
        expect(page.locator("#title")).to_contain_text(f"playing {name}")

    clicks = 0
    while not (nova.locator("#end").is_visible() and orbit.locator("#end").is_visible()):
        assert clicks < STELLIUM_MAX_CLICKS, f"no end after {clicks} clicks"
        moved = False
        for page in (nova, orbit):
            if not page.locator("#end").is_visible():
                moved = _click_soonest(page) or moved
        clicks += 1
        if not moved:
            nova.wait_for_timeout(100)

    for page, name in ((nova, "Nova"), (orbit, "Orbit")):
        page.goto(f"{base}/p/{name}")
        card = page.locator(".rating-card[data-game='stellium']")
        expect(card).to_contain_text("1 rated game")
        assert card.locator(".num").inner_text() != "1000"  # the rating moved
        expect(page.locator(f"#matches tr[data-match='{match_id}']")).to_contain_text("→")
    orbit.locator(f"#matches tr[data-match='{match_id}'] a.replay").click()
    orbit.wait_for_url(f"**/r/{match_id}")
    expect(orbit.locator("#stepinfo")).to_be_visible()
    assert not errors, errors


NOTIFICATION_STUB = """
window.__asked = 0; window.__told = [];
class FakeNotification {
  constructor(title, options) { window.__told.push([title, options && options.body]); }
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => {
  window.__asked++; FakeNotification.permission = "granted"; return "granted";
};
window.Notification = FakeNotification;
"""


def test_your_turn_notifications_are_asked_for_by_a_click_and_told_on_a_new_turn(
    people_live, browser: Browser, shots
):
    """The lobby never asks for notifications on load; a click asks; then a new match
    waiting for my move shows one notification and the count in the title (the
    Notification API replaced by a recorder: headless Chromium shows none)."""
    base = people_live.base
    errors: list[str] = []
    page = _browser_page(browser, errors)
    page.context.add_init_script(NOTIFICATION_STUB)
    shots.append(page)
    _sign_up(page, base, "Nell")
    expect(page.locator("#notify")).to_have_text("Tell me when it is my turn")
    assert page.evaluate("window.__asked") == 0
    page.click("#notify")
    expect(page.locator("#notify")).to_contain_text("Notifications on")
    assert page.evaluate("window.__asked") == 1
    assert page.evaluate("window.__told") == []
    page.evaluate("""async () => {
        const me = await (await fetch('/api/me')).json();
        await fetch('/api/matches', {method: 'POST', headers: {'content-type': 'application/json',
            'x-skydeck-csrf': me.csrf}, body: JSON.stringify({game: 'toy', seed: 3,
            seats: [{kind: 'human', me: true}, {kind: 'human'}]})});
    }""")
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    page.wait_for_function("window.__told.length > 0")
    assert page.evaluate("window.__told") == [["Skydeck: your turn", "1 match waits for your move"]]
    expect(page).to_have_title("(1) Skydeck · lobby")
    assert not errors, errors


def test_an_open_table_in_the_lobby_fills_and_starts(people_live, browser: Browser, shots):
    """Open tables in the lobby: one person opens a table from a game's set-up (it
    waits, its invite link shown); another sees it listed, takes the seat, and both
    pages go to the one match."""
    base = people_live.base
    errors: list[str] = []
    host, guest = _browser_page(browser, errors), _browser_page(browser, errors)
    shots.extend([host, guest])
    _sign_up(host, base, "Hale")
    host.click(".game-card[data-game='toy']")
    host.click("#open-table")
    expect(host.locator("#table-state")).to_contain_text("1 seat free")
    invite = host.locator("#table-invite").inner_text()
    assert "/?table=" in invite
    _sign_up(guest, base, "Iris")
    row = guest.locator("#open-tables tr", has_text="Hale")
    expect(row).to_contain_text("1/2")
    row.locator("button.take").click()
    guest.wait_for_url(re.compile(r".*/m/[^/?#]+$"))
    host.wait_for_url(re.compile(r".*/m/[^/?#]+$"), timeout=10_000)
    assert host.url == guest.url
    expect(host.locator("#title")).to_contain_text("playing Hale")
    expect(guest.locator("#title")).to_contain_text("playing Iris")
    assert not errors, errors
