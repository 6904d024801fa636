"""Two browsers, one seat each, for the multiplayer games not covered elsewhere (issue 14).

Stellar Expedition: both players click through the Starting tiles, the whole draft and
the Discovery placements; at every step the cards only one seat may know (its crew in
hand, its draft pack, the Expeditions it kept), as the server's view of that seat gives
them, are written out on that seat's page and appear nowhere on the other seat's page.

Stellarion, two-player co-op: each browser plays its own turns; both show the same table
(Observatory decks, Outpost, Voyages, victory piles) and the seat not to move is offered
no move."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect


def _open(browser: Browser, url: str, label: str, errors: list[str]) -> Page:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    expect(page.locator(f"svg[aria-label='{label}']")).to_be_visible()
    return page


def _move_n(page: Page) -> int:
    found = re.search(r"move (\d+)", page.locator("#status").inner_text())
    return int(found.group(1)) if found else -1


def _settle(pages: list[Page], n: int) -> None:
    """Wait until every page shows move ``n``."""
    for page in pages:
        page.wait_for_function(
            "n => (document.querySelector('#status').innerText.match(/move (\\d+)/) || [])[1] == n",
            arg=str(n),
            timeout=15_000,
        )


def _view(base: str, match_id: str, seat: int, token: str) -> tuple[int, dict[str, Any]]:
    """The server's current view of ``seat`` (the last step of its own replay)."""
    r = httpx.get(
        f"{base}/api/matches/{match_id}/replay",
        params={"seat": str(seat), "token": token},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    last = r.json()["steps"][-1]
    return last["n"], last["view"]


def _private_ids(view: dict[str, Any], seat: int) -> set[str]:
    me = view["players"][seat]
    ids = set(me.get("hand") or []) | set(me.get("expeditions") or [])
    ids |= set(me.get("secret") or [])
    draft = view.get("draft") or {}
    ids |= set(draft.get("pack") or []) | set(draft.get("kept") or [])
    return ids


def _hidden_names(
    mine: dict[str, Any], seat: int, theirs: dict[str, Any], faces: dict[str, Any]
) -> set[str]:
    """Names of cards in ``seat``'s private view that the other seat's view never mentions
    (by id, or by another card of the same name)."""
    other_text = json.dumps(theirs)
    other_names = {f["name"] for cid, f in faces.items() if f'"{cid}"' in other_text}
    out = set()
    for cid in _private_ids(mine, seat):
        if f'"{cid}"' in other_text:
            continue
        name = faces[cid]["name"]
        if name not in other_names:
            out.add(name)
    return out


def test_two_browsers_expedition_each_sees_only_its_own_cards(live, browser: Browser, shots):
    m = live.create(
        {
            "game": "expedition",
            "seed": 4,
            "options": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    faces = httpx.get(f"{live.base}/api/matches/{m['id']}/cards", timeout=10).json()
    errors: list[str] = []
    pages: list[Page] = []
    for seat in (0, 1):
        page = _open(browser, live.base + m["links"][str(seat)], "Stellar Expedition map", errors)
        pages.append(page)
        shots.append(page)
    expect(pages[0].locator("#title")).to_contain_text("playing Ada")
    expect(pages[1].locator("#title")).to_contain_text("playing Bo")

    checked = {0: 0, 1: 0}
    phases: set[str] = set()
    kinds: set[str] = set()
    for _ in range(60):
        n0, v0 = _view(live.base, m["id"], 0, m["tokens"][0])
        n1, v1 = _view(live.base, m["id"], 1, m["tokens"][1])
        assert n0 == n1
        _settle(pages, n0)
        phases.add(v0["phase"])
        if v0["phase"] not in ("start", "draft", "discovery"):
            break
        texts = [p.locator("body").inner_text() for p in pages]
        htmls = [p.content() for p in pages]
        views = (v0, v1)
        for seat in (0, 1):
            hidden = _hidden_names(views[seat], seat, views[1 - seat], faces)
            assert hidden, f"seat {seat} holds no private card at move {n0}"
            for name in hidden:
                assert name in texts[seat], f"seat {seat}'s own card {name!r} is not on its page"
                assert name not in htmls[1 - seat], (
                    f"seat {seat}'s secret card {name!r} is on seat {1 - seat}'s page (move {n0})"
                )
                kinds.update(f["kind"] for f in faces.values() if f["name"] == name and "kind" in f)
            checked[seat] += len(hidden)
        # Whoever is to move clicks its first move (both of them in the draft).
        movers = [p for p in pages if p.locator(".action-group button").count()]
        assert movers, f"nobody is offered a move at move {n0} ({v0['to_move']})"
        for seat, page in enumerate(pages):
            if seat not in v0["to_move"]:
                assert page.locator(".action-group button").count() == 0
        for page in movers:
            before = page.locator("#status").inner_text()
            page.locator(".action-group button").first.click()
            page.wait_for_function(
                "b => document.querySelector('#status').innerText !== b", arg=before
            )
    assert {"start", "draft", "discovery"} <= phases, phases
    assert len(phases) == 4, f"the set-up did not end: {phases}"
    assert checked[0] > 10 and checked[1] > 10, checked
    assert {"crew", "expedition"} <= kinds, kinds
    assert not errors, errors


def test_two_browsers_stellarion_co_op_share_one_table(live, browser: Browser, shots):
    m = live.create(
        {
            "game": "stellarion",
            "seed": 1,
            "options": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    errors: list[str] = []
    pages: list[Page] = []
    for seat in (0, 1):
        page = _open(browser, live.base + m["links"][str(seat)], "Stellarion table", errors)
        pages.append(page)
        shots.append(page)
    table = "svg[aria-label='Stellarion table']"
    movers: list[int] = []
    seen: set[str] = set()  # the shared table as it changes
    for step in range(40):
        if pages[0].locator("#end").is_visible():
            break
        n = _move_n(pages[0])
        _settle(pages, n)
        tables = [p.locator(table).text_content() for p in pages]
        assert "Victory piles" in tables[0] and "Outpost" in tables[0], tables[0]
        assert tables[0] == tables[1], f"the two tables differ at move {n}"
        seen.add(tables[0])
        assert pages[0].locator("#status").inner_text() == pages[1].locator("#status").inner_text()
        offered = [p.locator(".action-group button").count() for p in pages]
        assert sum(1 for c in offered if c) == 1, f"moves offered at move {n}: {offered}"
        seat = 0 if offered[0] else 1
        expect(pages[seat].locator("#turn")).to_contain_text("Your move")
        expect(pages[1 - seat].locator("#turn")).not_to_contain_text("Your move")
        movers.append(seat)
        page = pages[seat]
        before = page.locator("#status").inner_text()
        buttons = page.locator(".action-group button")
        buttons.nth(step % buttons.count()).click()
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )
        if movers.count(0) >= 4 and movers.count(1) >= 4:
            break
    assert movers.count(0) >= 3 and movers.count(1) >= 3, movers
    assert len(seen) >= 4, "the table never changed"
    assert not errors, errors
