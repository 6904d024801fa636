"""Stellar Conflict in two browsers: secret fleets, a deployment against the clock (a
Conflict's 60 s, run 2.5 times faster here: 24 s, enough on a loaded machine for the
four drags and their checks before the ring) by dragging the card in hand onto the
table (Ada turns hers with the wheel on the way, and still holds one when the clock
rings: it is deployed where she holds it), then the battle fired step by step with its
lasers drawn."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.web.test_conflict_drag import drag_card, ghost, hand_centre, on_table


def test_two_browsers_deploy_against_the_clock_then_fight(fast_clock_live, browser: Browser, shots):
    live = fast_clock_live
    m = live.create(
        {
            "game": "conflict",
            "seed": 3,
            "options": {"players": 2, "scale": "conflict", "deployment": "timed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    pages: list[Page] = []
    errors: list[str] = []
    for seat in (0, 1):
        page = browser.new_context(viewport={"width": 1300, "height": 950}).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.base + m["links"][str(seat)])
        expect(page.locator("svg[aria-label='Stellar Conflict table']")).to_be_visible()
        pages.append(page)
        shots.append(page)
    # Preparation, in secret: three ships each (more than they will have time to
    # deploy), then ready.
    for page in pages:
        for k in range(3):
            page.locator(".action-group button[data-action^='buy']").first.click()
            expect(page.locator(".cf-fleet .chip")).to_have_count(k + 1)
        page.locator("[data-action='ready']").click()
    # The other side's fleet stays secret.
    for page in pages:
        expect(page.locator(".cf-count")).to_be_visible()
    expect(pages[0].locator(".conflict")).to_contain_text("Deployment against the clock")
    # Deployment: each player drags cards onto free spots of the table, in its own half.
    spots = [(120 + 150 * i, row) for i in range(5) for row in (150,)]
    placed = [0, 0]
    for i, (x, y) in enumerate(spots):
        for seat, page in enumerate(pages):
            if page.locator(".conflict").inner_text().find("In hand") < 0:
                continue
            if "Deployment against the clock" not in page.locator(".cf-head").inner_text():
                continue
            before = page.locator("#status").inner_text()
            drag_card(page, x, y if seat == 0 else 600 - y, wheel=1 if seat == 0 else 0)
            page.wait_for_function(
                "b => document.querySelector('#status').innerText !== b", arg=before
            )
            placed[seat] += 1
        if i >= 1:
            break
    assert placed[0] >= 2 and placed[1] >= 2
    expect(pages[0].locator("svg [data-card]")).to_have_count(sum(placed))
    # Turned as they were dragged: Ada's a wheel notch to the left (15), Bo's not at all.
    for seat in (0, 1):
        angles = (
            pages[1 - seat]
            .locator(f"svg [data-card][data-owner='{seat}']")
            .evaluate_all("gs => gs.map(g => g.dataset.angle)")
        )
        assert angles == [str(15 * (k + 1) % 360 if seat == 0 else 0) for k in range(placed[seat])]
    # Nobody stops: the clock ends the deployment for both, cards still in the decks.
    for page in pages:
        expect(page.locator(".cf-seats")).to_contain_text("deck")
    # Ada holds her next card over the table while the clock rings (her page reports
    # where it is): at the alarm it is deployed right there, without her letting go;
    # Bo's card, still in his hand, is removed; nobody places anything afterwards.
    ada = pages[0]
    ada.mouse.move(*hand_centre(ada))
    ada.mouse.down()
    ada.mouse.move(*on_table(ada, 600, 300), steps=8)
    held = ghost(ada)
    assert held is not None and abs(held["x"] - 600) <= 2 and abs(held["y"] - 300) <= 2, held
    for page in pages:
        expect(page.locator("#log")).to_contain_text("Time is up", timeout=40_000)
    expect(pages[1].locator("svg [data-card]")).to_have_count(sum(placed) + 1)
    last = pages[1].locator("svg [data-card]").last
    assert last.get_attribute("data-owner") == "0"
    assert abs(int(last.get_attribute("data-x") or 0) - 600) <= 2
    assert last.get_attribute("data-angle") == str(held["angle"])
    expect(pages[1].locator("#log")).to_contain_text("it was not on the table")  # Bo's card
    expect(ada.locator(".cf-ghost")).to_have_count(0)  # the card is down, not in hand
    ada.mouse.up()
    expect(ada.locator(".cf-head")).to_contain_text("Battle")
    expect(pages[1].locator("svg [data-card]")).to_have_count(sum(placed) + 1)
    # Fire until the battle is over.
    lasers_seen = False
    for _ in range(60):
        if pages[0].locator("#end").is_visible():
            break
        acted = False
        for page in pages:
            button = page.locator("[data-action='done'], [data-action='fire']")
            if button.count():
                before = page.locator("#status").inner_text()
                button.first.click()
                page.wait_for_function(
                    "b => document.querySelector('#status').innerText !== b"
                    " || !document.querySelector('#end').hidden",
                    arg=before,
                )
                lasers_seen = lasers_seen or page.locator("svg line.laser").count() > 0
                acted = True
                break
        if not acted:
            pages[0].wait_for_timeout(50)
    for page in pages:
        expect(page.locator("#end")).to_be_visible()
    assert lasers_seen
    assert not errors, errors
