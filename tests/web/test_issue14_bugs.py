"""Browser checks of issue 14's small bugs: what a person sees on the match page (the
end of a lost solo game, Mission text inside its card, the Conflict table in the window,
no clock action among the moves, players named Player 1..N)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect
from websockets.sync.client import connect

import skydeck
from skydeck.registry import game_ids

SEAT_NUMBER = re.compile(r"\bseats?\s*#?\d", re.IGNORECASE)


def _play_to_the_end(live: Any, match_id: str, token: str, seat: int = 0) -> int:
    """Play the first legal move again and again over the match socket; the moves made."""
    url = live.base.replace("http", "ws") + f"/ws/matches/{match_id}"
    moves = 0
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] != "state":
                continue
            if msg["status"] != "live":
                return moves
            acts = msg["legal"][str(seat)]["actions"]
            if seat in msg["to_move"] and acts:
                ws.send(
                    json.dumps(
                        {"type": "act", "seat": seat, "action": acts[0]["action"], "n": msg["n"]}
                    )
                )
                moves += 1


def test_a_lost_solo_stellarion_game_says_you_lost(live, page: Page, shots):
    if "stellarion" not in game_ids():
        return
    shots.append(page)
    m = live.create(
        {"game": "stellarion", "seed": 4, "options": {"players": 1}, "seats": [{"kind": "human"}]}
    )
    assert _play_to_the_end(live, m["id"], m["tokens"][0]) > 10
    page.goto(live.base + m["links"]["0"])
    end = page.locator("#end [role=dialog]")
    expect(end).to_be_visible()
    expect(end.locator("h2")).to_have_text("You lost")
    expect(end).not_to_contain_text("Nobody won")
    expect(end.locator(".end-why")).not_to_be_empty()
    watcher = page.context.new_page()
    shots.append(watcher)
    watcher.goto(live.base + m["watch_link"])
    expect(watcher.locator("#end [role=dialog] h2")).to_have_text("Player 1 lost")


def test_stellium_mission_text_stays_inside_its_card(live, page: Page, shots):
    if "stellium" not in game_ids():
        return
    shots.append(page)
    # Seed 8: Blue Border (a Comet and a Supernova) is in sight of Player 1.
    m = live.create(
        {
            "game": "stellium",
            "seed": 8,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("[data-mission='m19']").first).to_be_visible()
    spills = page.evaluate(
        """() => [...document.querySelectorAll("g[data-mission]")].flatMap((g) => {
            const c = g.querySelector("rect").getBoundingClientRect();
            const out = (b) => b.left < c.left - 1 || b.right > c.right + 1
              || b.top < c.top - 1 || b.bottom > c.bottom + 1;
            return [...g.querySelectorAll("text")]
              .filter((t) => out(t.getBoundingClientRect()))
              .map((t) => `${g.dataset.mission}: ${t.textContent}`);
        })"""
    )
    assert not spills, spills


def test_stellium_offers_no_clock_action_and_names_players(live, page: Page, shots):
    if "stellium" not in game_ids():
        return
    shots.append(page)
    m = live.create(
        {
            "game": "stellium",
            "seed": 3,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    page.goto(live.base + m["hotseat_link"])
    expect(page.locator("svg[aria-label='Stellium universe']")).to_be_visible()
    expect(page.locator(".action-group button").first).to_be_visible()
    moves = page.locator("#actions").inner_text()
    assert "draw" in moves.lower()
    assert "time is up" not in moves.lower() and "timeout" not in moves.lower()
    page.locator(".action-group button").first.click()
    expect(page.locator("#log li")).to_have_count(1)
    text = page.locator("body").inner_text()
    assert not SEAT_NUMBER.search(text), SEAT_NUMBER.findall(text)


def test_the_conflict_table_fits_the_window_while_deploying(live, page: Page, shots):
    if "conflict" not in game_ids():
        return
    shots.append(page)
    page.set_viewport_size({"width": 1400, "height": 900})
    m = live.create(
        {
            "game": "conflict",
            "seed": 5,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}],
        }
    )
    page.goto(live.base + m["links"]["0"])
    ready = page.locator(".action-group button", has_text=re.compile("ready", re.IGNORECASE))
    ready.first.click()
    table = page.locator("svg[aria-label='Stellar Conflict table']")
    expect(page.locator(".cf-hand")).to_be_visible()  # deploying: a card in hand
    expect(table).to_be_visible()
    page.wait_for_timeout(300)  # the AI's placements redraw the table
    box = page.evaluate(
        """() => { const r = document.querySelector("svg[aria-label='Stellar Conflict table']")
            .getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; }"""
    )
    assert box["height"] >= 300 and box["bottom"] <= 900, box


def test_the_draw_clock_waits_for_the_player_to_move_to_open_the_match(live, browser, shots):
    if "stellium" not in game_ids():
        return
    m = live.create(
        {
            "game": "stellium",
            "seed": 1,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    to_move = skydeck.load("stellium", players=2).new(1).to_move[0]
    other = browser.new_page()
    shots.append(other)
    other.goto(live.base + m["links"][str(1 - to_move)])
    # the mover's clock, in the mover's panel (each clock drawn once, issue 49)
    clock = other.locator(f"#panels .pp[data-seat='{to_move}'] .pp-clock")
    expect(clock).to_have_text("◔ waits")
    expect(clock).to_have_attribute("title", re.compile("starts when they connect"))
    other.wait_for_timeout(1500)
    expect(other.locator("#status")).to_have_text("move 0")  # nothing drawn for them
    mover = browser.new_page()
    shots.append(mover)
    mover.goto(live.base + m["links"][str(to_move)])
    mine = mover.locator(f"#panels .pp[data-seat='{to_move}'] .pp-clock")
    expect(mine).to_have_attribute("title", re.compile("^draw from the bag"))
    expect(mine).to_have_text(re.compile(r"^◔ \d+(\.\d)? s$"))
    expect(clock).to_have_text(re.compile(r"^◔ \d+(\.\d)? s$"))  # the other player sees it run
