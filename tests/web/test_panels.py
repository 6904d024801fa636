"""Player panels in the right-hand column, for every game: one per seat with its colour,
name, who it is (you / AI), whether it is to move, its score as the game counts it, its
clock, and the game's counts; the moves on the board come first, the list after."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from skydeck.registry import game_ids

MATCHES: dict[str, dict[str, Any]] = {
    "stellarion": {"options": {"players": 1}, "seats": [{"kind": "human", "name": "Ada"}]},
    "stellium": {
        "options": {"players": 2},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
    },
    "expedition": {
        "options": {"players": 2},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
    },
    "conflict": {
        "options": {"players": 2},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
    },
}

#: The score each game's panel shows, read from the public view.
SCORE = {
    "stellarion": lambda v, s: f"{len(v['victory'][s])} / {len(v['voyages']['galaxy'])}",
    "stellium": lambda v, s: str(v["scores"][s]),
    "expedition": lambda v, s: str(v["players"][s]["points"]),
    "conflict": lambda v, s: f"{v['seats'][s]['score']:g}",
}


def _public(live: Any, match_id: str) -> tuple[int, dict[str, Any]]:
    """(move number, the spectator's view) from the match socket."""
    url = live.base.replace("http", "ws") + f"/ws/matches/{match_id}"
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "state":
                return msg["n"], msg["public"]


@pytest.mark.parametrize("game_id", [g for g in MATCHES if g in game_ids()])
def test_each_seat_has_a_panel_with_name_score_and_clock(live, page: Page, shots, game_id):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    spec = MATCHES[game_id]
    m = live.create({"game": game_id, "seed": 4, **spec})
    page.goto(live.base + m["links"]["0"])
    panels = page.locator("#panels .pp")
    expect(panels).to_have_count(len(spec["seats"]))
    # Ada's move comes (the AI moves first when the game says so).
    expect(page.locator("#turn")).to_contain_text("Your move", timeout=20_000)
    ada = page.locator("#panels .pp[data-seat='0']")
    expect(ada).to_have_class(re.compile(r"\bto-move\b"))
    expect(ada.locator(".pp-name")).to_have_text("Ada")
    expect(ada.locator(".pp-tag")).to_have_text("you")
    expect(ada.locator(".pp-note").first).to_have_text("your move")
    if len(spec["seats"]) > 1:
        ai = page.locator("#panels .pp[data-seat='1']")
        expect(ai.locator(".pp-name")).to_have_text("Player 2 (AI: random)")
        expect(ai.locator(".pp-tag")).to_have_text("AI")
        expect(ai).not_to_have_class(re.compile(r"\bto-move\b"))
    # Each panel's colour is its seat's, and every panel has a clock slot.
    for seat in range(len(spec["seats"])):
        panel = page.locator(f"#panels .pp[data-seat='{seat}']")
        assert f"--seat:{['#6fb6ff', '#ff9f6b'][seat]}" in (panel.get_attribute("style") or "")
        expect(panel.locator(".pp-clock")).to_have_count(1)
        expect(panel.locator(".pp-stats .pp-stat").first).to_be_visible()
    # The scores are the game's own, as anybody may see them.
    for _ in range(5):
        before = page.locator("#status").inner_text()
        shown = [
            page.locator(f"#panels .pp[data-seat='{s}'] .pp-score").inner_text().strip()
            for s in range(len(spec["seats"]))
        ]
        n, view = _public(live, m["id"])
        if before == page.locator("#status").inner_text() == f"move {n}":
            break
    assert shown == [SCORE[game_id](view, s) for s in range(len(spec["seats"]))], (shown, view)
    # Moves on the board first: the list says so.
    expect(page.locator("#board-first")).to_be_visible()
    expect(page.locator(".actions-panel")).to_have_class(re.compile(r"\bsecondary-list\b"))
    assert not errors, errors


def test_the_draw_clock_counts_down_in_the_movers_panel(live, page: Page, shots):
    if "stellium" not in game_ids():
        return
    shots.append(page)
    m = live.create({"game": "stellium", "seed": 4, **MATCHES["stellium"]})
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#turn")).to_contain_text("Your move", timeout=20_000)
    clock = page.locator("#panels .pp[data-seat='0'] .pp-clock")
    expect(clock).to_have_text(re.compile(r"^◔ \d+(\.\d)? s$"))
    first = float(clock.inner_text().split()[1])
    page.wait_for_timeout(600)
    text = clock.inner_text()
    if text:  # still Ada's draw (the clock may have drawn for her meanwhile)
        assert float(text.split()[1]) < first
    # The AI is not on the clock while Ada draws.
    expect(page.locator("#panels .pp[data-seat='1'] .pp-clock")).to_have_text("")


def test_a_solo_expedition_shows_the_drone_as_a_rival(live, page: Page, shots):
    if "expedition" not in game_ids():
        return
    shots.append(page)
    m = live.create(
        {"game": "expedition", "seed": 2, "options": {"players": 1}, "seats": [{"kind": "human"}]}
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#panels .pp:not(.pp-drone)")).to_have_count(1)
    drone = page.locator("#panels .pp-drone")
    expect(drone).to_be_visible()
    expect(drone.locator(".pp-name")).to_have_text("The drone")
    expect(drone.locator(".pp-score")).to_have_text(re.compile(r"^\d+$"))
    # Its next action in words (the card is face up), never a raw object or op name.
    expect(drone.locator(".pp-next")).to_contain_text(re.compile(r"^next \w+"))
    expect(drone.locator(".pp-next")).not_to_contain_text("object")
    expect(drone.locator(".pp-next")).not_to_contain_text("d_")
