"""Issue 49, Stellar Expedition while an Encounter is judged: the map stays in view
beside (or above) the Encounter by the layout, not by scrolling back to it, at a desktop's
1280x800 and both phone sizes; the map's labels read at 12 px or more as the page first
draws it; and a crew member played to the Encounter is listed once (under "Played so
far", no longer also among the crew in hand)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import connect

import skydeck
from skydeck.registry import game_ids
from tests.web.phone import PHONES, phone_context

DESKTOP = (1280, 800)
SEED = 0


def _to_an_encounter() -> tuple[list[tuple[int, dict[str, Any]]], int, list[str]]:
    """Seeded random moves of a 2-player game up to an Encounter with crew played:
    [(seat, action json)], the seat judging it, the crew played."""
    st = skydeck.load("expedition", players=2).new(SEED)
    rng = random.Random(SEED)
    moves: list[tuple[int, dict[str, Any]]] = []
    for _ in range(3000):
        seat = st.to_move[0]
        p = st.view(seat).get("pending") or {}
        if p.get("kind") == "enc" and p.get("played"):
            return moves, int(p["seat"]), list(p["played"])
        action = rng.choice(st.legal_actions(seat))
        moves.append((seat, action.to_json()))
        st.apply(action, seat)
    raise AssertionError("no Encounter with crew played")


def _play(live: Any, match: dict[str, Any], moves: list[tuple[int, dict[str, Any]]]) -> None:
    url = live.base.replace("http", "ws") + f"/ws/matches/{match['id']}"
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": match["tokens"]}))
        sent = 0
        while sent < len(moves):
            msg = json.loads(ws.recv(timeout=15))
            if msg["type"] == "error":
                raise AssertionError(msg)
            if msg["type"] != "state" or msg["n"] != sent:
                continue
            seat, action = moves[sent]
            ws.send(json.dumps({"type": "act", "seat": seat, "action": action, "n": msg["n"]}))
            sent += 1
        while json.loads(ws.recv(timeout=15)).get("n") != sent:
            pass


@pytest.fixture(scope="module")
def encounter(live: Any) -> dict[str, Any]:
    if "expedition" not in game_ids():
        pytest.skip("no Stellar Expedition")
    moves, seat, played = _to_an_encounter()
    human = {"kind": "human"}
    m = live.create({"game": "expedition", "seed": SEED, "options": {"players": 2},
                     "seats": [human, human]})  # fmt: skip
    _play(live, m, moves)
    return {"link": m["links"][str(seat)], "played": played}


INSIDE_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
          w: innerWidth, h: innerHeight}; }"""

SCREENS: dict[str, tuple[int, int]] = {"desktop": DESKTOP, **PHONES}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_map_stays_in_view_while_an_encounter_is_judged(
    live, browser: Browser, shots, encounter, screen
):
    if screen == "desktop":
        width, height = DESKTOP
        context = browser.new_context(viewport={"width": width, "height": height})
    else:
        context = phone_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    page.goto(live.base + encounter["link"])
    judged = page.locator(".xnow .xcard.kind-encounter")
    expect(judged).to_be_visible(timeout=20_000)
    # One place of the page shows both: the map's top (its zoom buttons on a phone) at
    # the window's top, and the Encounter beside or below it, with no scrolling between.
    page.evaluate("() => document.querySelector('.xmap-wrap').scrollIntoView({block: 'start'})")
    for what in (".xnow .xcard.kind-encounter", "svg.xmap"):
        box = page.evaluate(INSIDE_JS, what)
        inside = box["top"] >= -0.5 and box["left"] >= -0.5
        inside = inside and box["bottom"] <= box["h"] + 0.5 and box["right"] <= box["w"] + 0.5
        assert inside, (screen, what, box)
    context.close()


LABELS_JS = """() => [...document.querySelectorAll('svg.xmap text')]
  .filter((t) => t.textContent.trim())
  .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize)
                * t.ownerSVGElement.getScreenCTM().a])"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_map_labels_read_at_12_px_as_first_drawn(
    live, browser: Browser, shots, encounter, screen
):
    """Also in the shorter window an Encounter gets on a phone. A desktop's map, drawn
    whole in its column, had shown its labels at 7 and 6 px at 1280x800."""
    if screen == "desktop":
        width, height = DESKTOP
        context = browser.new_context(viewport={"width": width, "height": height})
    else:
        context = phone_context(browser, screen)
    page = context.new_page()
    shots.append(page)
    page.goto(live.base + encounter["link"])
    expect(page.locator("svg.xmap text").first).to_be_visible(timeout=20_000)
    with contextlib.suppress(PlaywrightTimeoutError):  # the map is drawn again as cards load
        page.wait_for_function(f"() => ({LABELS_JS})().every(([t, px]) => px >= 11.95)")
    labels = page.evaluate(LABELS_JS)
    assert labels
    small = [(t, round(px, 1)) for t, px in labels if px < 11.95]
    assert not small, f"{screen}: {len(small)} of {len(labels)} map labels under 12 px: {small[:6]}"
    context.close()


def test_crew_played_to_an_encounter_is_listed_once(live, page, shots, encounter) -> None:
    """It was drawn under "Played so far" and again among the crew in hand (the view
    keeps it in the hand until the Encounter is resolved)."""
    shots.append(page)
    page.goto(live.base + encounter["link"])
    expect(page.locator(".xnow .xcard.kind-encounter")).to_be_visible(timeout=20_000)
    for crew in encounter["played"]:
        drawn = page.locator(f"#board .xcard[data-card='{crew}']")
        expect(drawn).to_have_count(1)
        expect(page.locator(".xnow").locator(f".xcard[data-card='{crew}']")).to_have_count(1)
