"""Stellar Conflict's cards dragged and turned on the table, in two real browsers against
the deployment clock: one player with a mouse, the other with fingers (touch events).

Each placement is checked where it matters, in the server's own view of the table (the
spectator's replay of the live match), not only in the page."""

from __future__ import annotations

import math
from typing import Any

import httpx
from playwright.sync_api import Browser, CDPSession, Page, expect

from tests.web.conftest import LiveServer

W, H, MARGIN = 900, 600, 10
TABLE = "svg.cf-table"
HAND = "svg.cf-hand-card"


# --- page geometry --------------------------------------------------------------------


def _box(page: Page, selector: str) -> dict[str, float]:
    # The board is redrawn on every update: measure it between two redraws.
    for _ in range(100):
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(20)
    raise AssertionError(f"{selector} never measured")


def on_table(page: Page, x: float, y: float) -> tuple[float, float]:
    """Screen point of the table point (x, y) mm (y up)."""
    box = _box(page, TABLE)
    px = box["x"] + (x + MARGIN) / (W + 2 * MARGIN) * box["width"]
    py = box["y"] + (H - y + MARGIN) / (H + 2 * MARGIN) * box["height"]
    return px, py


def hand_centre(page: Page) -> tuple[float, float]:
    box = _box(page, HAND)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def ghost(page: Page) -> dict[str, Any] | None:
    """The held card as drawn: position, angle and whether the spot looks legal."""
    g = page.locator(".cf-ghost")
    if not g.count():
        return None
    return g.first.evaluate(
        "g => ({x: +g.dataset.x, y: +g.dataset.y, angle: +g.dataset.angle,"
        " legal: g.classList.contains('cf-legal')})"
    )


def settled(page: Page, x: float, y: float) -> dict[str, Any]:
    """The held card once it has reached (x, y) (touch moves arrive a frame late)."""
    page.wait_for_function(
        "([x, y]) => { const g = document.querySelector('.cf-ghost');"
        " return g && Math.abs(g.dataset.x - x) <= 2 && Math.abs(g.dataset.y - y) <= 2; }",
        arg=[x, y],
        timeout=3000,
    )
    g = ghost(page)
    assert g is not None
    return g


def ghost_handle(page: Page) -> tuple[float, float]:
    """Screen point of the held card's rotate handle (from the card's own geometry)."""
    g = ghost(page)
    assert g is not None
    reach = 88 / 2 + 20  # half the card's length, then the handle's stalk
    a = math.radians(g["angle"])
    hx, hy = g["x"] - math.sin(a) * reach, g["y"] + math.cos(a) * reach
    return on_table(page, hx, hy)


def status(page: Page) -> str:
    return page.locator("#status").inner_text()


def wait_update(page: Page, before: str) -> None:
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)


# --- the server's side ----------------------------------------------------------------


def server_cards(live: LiveServer, match_id: str) -> list[tuple[int, int, int, int | None]]:
    """(x, y, angle, owner) of every card on the table, as the server sees it now."""
    r = httpx.get(f"{live.base}/api/matches/{match_id}/replay", params={"seat": "spectator"})
    assert r.status_code == 200, r.text
    view = r.json()["steps"][-1]["view"]
    return [(c["x"], c["y"], c["angle"], c["owner"]) for c in view["cards"] if c["on_table"]]


def server_n(live: LiveServer, match_id: str) -> int:
    return int(httpx.get(f"{live.base}/api/matches/{match_id}").json()["n"])


def near(card: tuple[int, int, int, int | None], x: int, y: int, angle: int, owner: int) -> bool:
    return abs(card[0] - x) <= 2 and abs(card[1] - y) <= 2 and card[2] == angle and card[3] == owner


# --- hands: a mouse and fingers -------------------------------------------------------


def drag_card(page: Page, x: int, y: int, *, wheel: int = 0, key: str = "") -> None:
    """Presses on the card in hand, drags it over the table in many small moves (turning
    it on the way: ``wheel`` notches up, or ``key`` pressed), and lets go at (x, y)."""
    hx, hy = hand_centre(page)
    tx, ty = on_table(page, x, y)
    page.mouse.move(hx, hy)
    page.mouse.down()
    mx, my = on_table(page, (x + W / 2) / 2, (y + H / 2) / 2)
    page.mouse.move(mx, my, steps=6)
    for _ in range(wheel):
        page.mouse.wheel(0, -100)
    if key:
        page.keyboard.press(key)
    page.mouse.move(tx, ty, steps=6)
    page.mouse.up()


class Fingers:
    """Touch input through the browser's own touch emulation (real pointer events of
    type touch, several fingers at once)."""

    def __init__(self, page: Page) -> None:
        self.cdp: CDPSession = page.context.new_cdp_session(page)
        self.down: dict[int, tuple[float, float]] = {}

    def _send(self, kind: str, points: dict[int, tuple[float, float]]) -> None:
        pts = [{"x": x, "y": y, "id": i} for i, (x, y) in points.items()]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    def press(self, finger: int, x: float, y: float) -> None:
        self.down[finger] = (x, y)
        self._send("touchStart", self.down)

    def move(self, finger: int, x: float, y: float, steps: int = 6) -> None:
        x0, y0 = self.down[finger]
        for k in range(1, steps + 1):
            self.down[finger] = (x0 + (x - x0) * k / steps, y0 + (y - y0) * k / steps)
            self._send("touchMove", self.down)

    def lift(self, finger: int) -> None:
        self._send("touchEnd", {finger: self.down.pop(finger)})


# --- the test -------------------------------------------------------------------------


def test_cards_dragged_turned_refused_and_cancelled(live: LiveServer, browser: Browser, shots):
    m = live.create(
        {
            "game": "conflict",
            "seed": 5,
            # War: a 120 s clock, time enough for every gesture on a loaded machine.
            "options": {"players": 2, "scale": "war", "deployment": "timed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    mid = m["id"]
    errors: list[str] = []
    pages: list[Page] = []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, has_touch=seat == 1)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.base + m["links"][str(seat)])
        expect(page.locator(TABLE)).to_be_visible()
        pages.append(page)
        shots.append(page)
    ada, bo = pages
    for page in pages:
        for k in range(3):
            page.locator(".action-group button[data-action^='buy']").first.click()
            expect(page.locator(".cf-fleet .chip")).to_have_count(k + 1)
        page.locator("[data-action='ready']").click()
    for page in pages:
        expect(page.locator(".cf-head")).to_contain_text("Deployment against the clock")
        expect(page.locator(HAND)).to_be_visible()
    assert server_cards(live, mid) == []

    # 1. Ada turns the card in hand by its handle (towards the left: 90 degrees), drags it
    #    onto the table, turns it two wheel notches more on the way, and lets go.
    handle = ada.locator(f"{HAND} .cf-handle circle")
    hb = handle.bounding_box()
    assert hb is not None
    cx, cy = hand_centre(ada)
    ada.mouse.move(hb["x"] + hb["width"] / 2, hb["y"] + hb["height"] / 2)
    ada.mouse.down()
    ada.mouse.move(cx - 30, cy - 30, steps=4)
    ada.mouse.move(cx - 70, cy + 1, steps=4)
    ada.mouse.up()
    expect(ada.locator("#cf-angle")).to_have_text("90°")
    assert ghost(ada) is None  # turning the card in hand does not pick it up
    hx, hy = hand_centre(ada)
    ada.mouse.move(hx, hy)
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 150, 300), steps=8)
    held = ghost(ada)
    assert held is not None and held["angle"] == 90 and held["legal"]
    # The countdown stays on screen and keeps running while the card is held.
    count = ada.locator(".cf-count")
    expect(count).to_be_visible()
    first = count.inner_text()
    ada.wait_for_function(
        "t => document.querySelector('.cf-count').innerText !== t", arg=first, timeout=3000
    )
    ada.mouse.wheel(0, -100)
    ada.mouse.wheel(0, -100)
    ada.mouse.move(*on_table(ada, 200, 150), steps=8)
    held = ghost(ada)
    assert held is not None and held["angle"] == 120
    assert abs(held["x"] - 200) <= 2 and abs(held["y"] - 150) <= 2
    before = status(ada)
    ada.mouse.up()
    wait_update(ada, before)
    cards = server_cards(live, mid)
    assert len(cards) == 1 and near(cards[0], 200, 150, 120, 0), cards
    # Bo's page draws it where the server put it.
    expect(bo.locator("svg [data-card]")).to_have_count(1)
    drawn = bo.locator("svg [data-card]").first
    assert drawn.get_attribute("data-angle") == "120"

    # 2. Bo, by touch: one finger drags the card onto the table, a second finger turns it
    #    by the held card's handle to point right (270), then the first finger lets go.
    fingers = Fingers(bo)
    fingers.press(0, *hand_centre(bo))
    fingers.move(0, *on_table(bo, 700, 450), steps=10)
    held = settled(bo, 700, 450)
    assert held["angle"] == 0
    fingers.press(1, *ghost_handle(bo))
    hx, hy = on_table(bo, 700 + 150, 450)
    fingers.move(1, hx, hy, steps=8)
    bo.wait_for_function("() => document.querySelector('.cf-ghost')?.dataset.angle === '270'")
    fingers.lift(1)
    held = settled(bo, 700, 450)
    assert held["angle"] == 270 and held["legal"], held
    before = status(bo)
    fingers.lift(0)
    wait_update(bo, before)
    cards = server_cards(live, mid)
    assert len(cards) == 2 and near(cards[1], 700, 450, 270, 1), cards

    # 3. An illegal drop: Ada drops a card onto Bo's. The outline says so before the
    #    drop, the server refuses it with its reason, and nothing changes.
    expect(ada.locator("svg [data-card]")).to_have_count(2)
    in_hand = ada.locator(".cf-hand-info b").inner_text()
    n = server_n(live, mid)
    hx, hy = hand_centre(ada)
    ada.mouse.move(hx, hy)
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 690, 440), steps=8)
    held = ghost(ada)
    assert held is not None and not held["legal"]
    expect(ada.locator("#cf-spot")).to_contain_text("touch or overlap")
    ada.mouse.up()
    expect(ada.locator("#error")).to_be_visible()
    expect(ada.locator("#error")).to_contain_text("touch or overlap")
    assert server_n(live, mid) == n
    assert len(server_cards(live, mid)) == 2
    expect(ada.locator(".cf-hand-info b")).to_have_text(in_hand)
    expect(ada.locator(".cf-ghost")).to_have_count(0)

    # 4. Escape: Ada picks the card up, moves it over a free spot, changes her mind.
    hx, hy = hand_centre(ada)
    ada.mouse.move(hx, hy)
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 450, 300), steps=8)
    assert ghost(ada) is not None
    ada.keyboard.press("Escape")
    expect(ada.locator(".cf-ghost")).to_have_count(0)
    ada.mouse.move(*on_table(ada, 460, 310), steps=3)
    ada.mouse.up()
    ada.wait_for_timeout(300)
    expect(ada.locator(".cf-ghost")).to_have_count(0)
    assert server_n(live, mid) == n
    assert len(server_cards(live, mid)) == 2
    expect(ada.locator(".cf-hand-info b")).to_have_text(in_hand)

    # ... or lets go of it off the table: it goes back to her hand, nothing is sent.
    hx, hy = hand_centre(ada)
    ada.mouse.move(hx, hy)
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 300, 300), steps=5)
    ada.mouse.move(hx + 40, hy, steps=5)
    expect(ada.locator("#cf-spot")).to_contain_text("back in hand")
    ada.mouse.up()
    ada.wait_for_timeout(300)
    expect(ada.locator(".cf-ghost")).to_have_count(0)
    assert server_n(live, mid) == n
    expect(ada.locator(".cf-hand-info b")).to_have_text(in_hand)

    # 5. A redraw in the middle of a drag: Ada presses on the table itself (the card in
    #    hand comes there), and while she holds it Bo deploys; Ada's card neither jumps
    #    nor drops, and she carries on.
    ada.mouse.move(*on_table(ada, 250, 450))
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 270, 440), steps=5)
    held = ghost(ada)
    assert held is not None
    before_ada = status(ada)
    drag_card(bo, 700, 150)
    wait_update(ada, before_ada)
    assert ghost(ada) == held
    # Bo's update did not wipe the refusal of section 3 before Ada read it ...
    expect(ada.locator("#error")).to_contain_text("touch or overlap")
    ada.mouse.move(*on_table(ada, 300, 420), steps=6)
    before = status(ada)
    ada.mouse.up()
    wait_update(ada, before)
    # ... her own next move going through does.
    expect(ada.locator("#error")).to_be_hidden()
    cards = server_cards(live, mid)
    assert len(cards) == 4, cards
    assert any(near(c, 700, 150, 270, 1) for c in cards), cards
    assert any(near(c, 300, 420, 120, 0) for c in cards), cards

    # 6. The keyboard's way: Bo focuses the card in hand, picks it up with Enter, moves
    #    it with the arrows (from his last spot), turns it with Q (and the mouse by its
    #    handle), deploys with Enter.
    bo.locator(HAND).focus()
    bo.keyboard.press("Enter")
    held = ghost(bo)
    assert held is not None
    start_x, start_y = held["x"], held["y"]
    for _ in range(30):
        bo.keyboard.press("ArrowLeft")
    bo.keyboard.press("q")
    held = ghost(bo)
    assert held is not None and held["x"] == start_x - 300 and held["angle"] == 285
    # The mouse turns the card held from the keyboard by its handle: nose down (180).
    bo.mouse.move(*ghost_handle(bo))
    bo.mouse.down()
    bo.mouse.move(*on_table(bo, start_x - 300 + 60, start_y - 40), steps=5)
    bo.mouse.move(*on_table(bo, start_x - 300, start_y - 120), steps=5)
    bo.mouse.up()
    held = ghost(bo)
    assert held is not None and held["x"] == start_x - 300 and held["angle"] == 180, held
    before = status(bo)
    bo.keyboard.press("Enter")
    wait_update(bo, before)
    cards = server_cards(live, mid)
    assert len(cards) == 5 and near(cards[-1], start_x - 300, start_y, 180, 1), cards
    assert not errors, errors


def test_the_outline_agrees_with_the_server(live: LiveServer, page: Page):
    """The page's separating-axis preview says 'free' exactly where the engine accepts a
    placement: touching edges and corners refused, a millimetre apart accepted, the
    table's border touchable but not crossable, and hundreds of random spots."""
    import random

    from tests.games.conflict.helpers import battle

    table = [
        ("wiss.cargo", 0, 200, 300, 0),
        ("vak.cargo", 1, 600, 300, 37),
        ("wiss.lancer_1", 0, 450, 120, 90),
        ("vak.flagship", 1, 420, 480, 315),
        ("wiss.glimmer_1", 0, 760, 520, 181),
    ]
    st = battle(table)
    view = st.view(None)
    occupied = [(x, y, a) for _s, _o, x, y, a in table]
    spots = [
        (263, 300, 0),  # edge to edge with the Cargo ship at (200, 300): touching
        (264, 300, 0),  # a millimetre apart
        (200, 388, 0),  # end to end: touching
        (200, 389, 0),
        (263, 388, 0),  # corner to corner: touching
        (264, 389, 0),
        (32, 44, 0),  # half a millimetre from the left border, on the bottom border
        (31, 300, 0),  # crosses the left border by half a millimetre
        (44, 300, 90),  # lying, touching the left border
        (43, 300, 90),
        (856, 568, 90),  # lying, touching the right border
        (857, 568, 90),
        (600, 300, 200),  # on top of a card
    ]
    rng = random.Random(8)
    for _ in range(300):
        spots.append((rng.randint(0, 900), rng.randint(0, 600), rng.randrange(360)))
    for _s, _o, x, y, _a in table:  # crowd the cards, where the answers are close
        for _ in range(60):
            spots.append(
                (x + rng.randint(-110, 110), y + rng.randint(-110, 110), rng.randrange(360))
            )
    server = [st.game.shapes.placement_error(x, y, a, occupied) is None for x, y, a in spots]
    page.goto(live.base + "/")
    client = page.evaluate(
        "async ([view, spots]) => {"
        " const m = await import('/static/games/conflict/drawing.js');"
        " return spots.map(([x, y, a]) => m.spotProblem(view, x, y, a) === null); }",
        [view, spots],
    )
    assert server[:10] == [False, True, False, True, False, True, True, False, True, False]
    assert server[10:13] == [True, False, False]
    assert 0.2 < sum(server) / len(server) < 0.9  # both answers are well represented
    wrong = [(s, ok) for s, ok, seen in zip(spots, server, client, strict=True) if ok != seen]
    assert not wrong, f"the page disagrees with the server at {wrong[:10]}"


def test_the_card_held_at_the_alarm_lands_where_it_is(
    fast_clock_live: LiveServer, browser: Browser, shots
):
    """Issue 13, item 13: while a card is dragged the page reports where it is; when the
    clock rings the card stops there, turned as it is held, without being let go (the
    last move before the alarm is a turn of the wheel: the latest report wins), and
    (issue 54, item 1) its player deploys it there with "Deploy here". A card taken back
    to hand before the alarm is removed. Nothing is placed afterwards."""
    live = fast_clock_live  # Dispute's 30 s last 12 s
    m = live.create(
        {
            "game": "conflict",
            "seed": 9,
            "options": {"players": 2, "scale": "dispute", "deployment": "timed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    mid = m["id"]
    errors: list[str] = []
    pages: list[Page] = []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, has_touch=seat == 1)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.base + m["links"][str(seat)])
        expect(page.locator(TABLE)).to_be_visible()
        pages.append(page)
        shots.append(page)
    ada, bo = pages
    for page in pages:
        page.locator(".action-group button[data-action^='buy']").first.click()
        expect(page.locator(".cf-fleet .chip")).to_have_count(1)
        page.locator("[data-action='ready']").click()
    for page in pages:
        expect(page.locator(HAND)).to_be_visible()
    # Bo, by touch, carries his card over the table and back to his hand: not in play.
    fingers = Fingers(bo)
    fingers.press(0, *hand_centre(bo))
    fingers.move(0, *on_table(bo, 700, 450), steps=8)
    settled(bo, 700, 450)
    fingers.move(0, *hand_centre(bo), steps=8)
    fingers.lift(0)
    # Ada picks hers up, carries it to (250, 200), turns it two notches on the way and
    # holds it there through the alarm.
    ada.mouse.move(*hand_centre(ada))
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 400, 300), steps=6)
    ada.mouse.move(*on_table(ada, 250, 200), steps=6)
    ada.mouse.wheel(0, -100)
    ada.mouse.wheel(0, -100)
    held = ghost(ada)
    assert held is not None and held["angle"] == 30 and held["legal"], held
    assert server_cards(live, mid) == []  # nothing let go of
    for page in pages:
        expect(page.locator("#log")).to_contain_text("Time is up", timeout=30_000)
    # Issue 54, item 1: the card stops where it is and Ada chooses; Bo sees it frozen
    # there, face down, and has nothing to choose (his card was back in hand: removed).
    frozen = ada.locator(".cf-frozen[data-frozen='0']")
    expect(frozen).to_have_count(1)
    assert (frozen.get_attribute("data-x"), frozen.get_attribute("data-angle")) == ("250", "30")
    expect(bo.locator(".cf-frozen[data-frozen='0']")).to_have_count(1)
    expect(bo.locator("#cf-deploy-here")).to_have_count(0)
    expect(ada.locator(".cf-head")).to_contain_text("frozen")
    assert server_cards(live, mid) == []  # not deployed until she says so
    expect(ada.locator("#cf-remove")).to_be_visible()
    ada.locator("#cf-deploy-here").click()
    expect(bo.locator("svg [data-card]")).to_have_count(1)
    cards = server_cards(live, mid)
    assert len(cards) == 1 and near(cards[0], 250, 200, 30, 0), cards
    expect(bo.locator("svg [data-card]")).to_have_count(1)
    expect(ada.locator(".cf-ghost")).to_have_count(0)
    ada.mouse.up()  # too late: the card is already down; this places nothing
    expect(ada.locator(".cf-head")).not_to_contain_text("Deployment")
    assert len(server_cards(live, mid)) == 1
    r = httpx.get(f"{live.base}/api/matches/{mid}/replay", params={"seat": "spectator"})
    view = r.json()["steps"][-1]["view"]
    assert view["phase"] in ("battle", "over") and view["clock"] == "real"
    assert not errors, errors


def test_light_speed_stop_lands_the_card_being_moved(live: LiveServer, browser: Browser, shots):
    """Light Speed: when Bo deploys his last card and calls stop, the card Ada is moving
    at that moment stops exactly where it is; she can move it no further, and (issue 54,
    item 1) she chooses to remove it instead of deploying it there."""
    m = live.create(
        {
            "game": "conflict",
            "seed": 4,
            "options": {"players": 2, "scale": "dispute", "deployment": "light_speed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    mid = m["id"]
    errors: list[str] = []
    pages: list[Page] = []
    for seat in (0, 1):
        page = browser.new_context(viewport={"width": 1300, "height": 950}).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.base + m["links"][str(seat)])
        expect(page.locator(TABLE)).to_be_visible()
        pages.append(page)
        shots.append(page)
    ada, bo = pages
    for page in pages:  # no ship bought: a Cargo ship and a Flagship each
        page.locator("[data-action='ready']").click()
    for page in pages:
        expect(page.locator(HAND)).to_be_visible()
    ada.mouse.move(*hand_centre(ada))
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 200, 150), steps=8)
    ada.mouse.wheel(0, -100)
    held = ghost(ada)
    assert held is not None and held["legal"] and held["angle"] == 15, held
    ada.wait_for_timeout(400)  # the throttled report has gone out
    for x in (600, 800):
        before = status(bo)
        drag_card(bo, x, 450)
        wait_update(bo, before)
    expect(ada.locator("#log")).to_contain_text("stop")
    # Issue 54, item 1: her card is frozen where it was; she takes it away ("Remove")
    frozen = ada.locator(".cf-frozen[data-frozen='0']")
    expect(frozen).to_have_count(1)
    assert [frozen.get_attribute(k) for k in ("data-x", "data-y", "data-angle")] == [
        "200",
        "150",
        "15",
    ]
    expect(ada.locator(".cf-ghost")).to_have_count(0)
    ada.mouse.move(*on_table(ada, 400, 150), steps=4)
    ada.mouse.up()  # the card is frozen: letting go moves and places nothing
    expect(ada.locator("#cf-deploy-here")).to_be_visible()
    ada.locator("#cf-remove").click()
    expect(ada.locator("#log")).to_contain_text("removed")
    expect(bo.locator("svg [data-card]")).to_have_count(2)
    expect(ada.locator(".cf-frozen")).to_have_count(0)
    cards = server_cards(live, mid)
    assert len(cards) == 2 and not any(near(c, 200, 150, 15, 0) for c in cards), cards
    assert not errors, errors
