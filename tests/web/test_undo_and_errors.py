"""Undo by clicking, and a refused seat token explained in plain words, in the browser."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_take_back_a_free_move_by_clicking(live, page: Page, shots):
    shots.append(page)
    m = live.create(
        {"game": "toy", "seed": 4, "seats": [{"kind": "human"}, {"kind": "human"}], "hotseat": True}
    )
    page.goto(live.base + m["hotseat_link"])
    expect(page.locator("#status")).to_contain_text("move 0")
    expect(page.locator("#undo")).to_be_hidden()
    page.click("[data-action='mark 1']")
    expect(page.locator("#status")).to_contain_text("move 1")
    expect(page.locator("#undo")).to_be_visible()
    page.click("#undo")
    expect(page.locator("#status")).to_contain_text("move 0")
    expect(page.locator("#log li")).to_have_count(0)
    # Playing a card draws one: that cannot be taken back.
    page.locator("[data-action^='play']").first.click()
    expect(page.locator("#status")).to_contain_text("move 1")
    expect(page.locator("#undo")).to_be_hidden()


def test_a_wrong_seat_token_is_explained(live, page: Page, shots):
    shots.append(page)
    m = live.create({"game": "toy", "seed": 4, "seats": [{"kind": "human"}, {"kind": "human"}]})
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#status")).to_contain_text("move 0")
    # A link carrying another match's token: refused with a clear message.
    other = live.create({"game": "toy", "seed": 4, "seats": [{"kind": "human"}] * 2})
    page.goto(live.base + f"/m/{m['id']}#t={other['tokens'][0]}")
    page.reload()
    expect(page.locator("#error")).to_contain_text("seat token is wrong")
