"""Stellar Conflict's battle in the browser, drawn as `skydeck render` draws it: ship art
(nose band, initiative ring, hull boxes, cubes), and each initiative step's lasers
revealed one after another in firing order, with damage filling the hull boxes in the
shooter's colour.

Both fleets are bought and deployed over the match socket (first legal moves, Light
Speed), then the browser of Player 1 fires every step by clicking the board's Fire
button."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from skydeck.registry import game_ids

#: The page's reveal pace (conflict_art.js): the first shot after LEAD_MS, one per STAGGER_MS.
STAGGER_MS = 450

DONE = re.compile(r"\bcf-shots-done\b")

#: Records, in order, each shot revealed on the page: [its firing index, ms since load].
WATCH = """() => {
  window.__reveals = [];
  new MutationObserver((muts) => {
    for (const m of muts) {
      const n = m.target;
      if (n.classList && n.classList.contains("cf-shot") && n.classList.contains("on")
          && !n.classList.contains("cf-new-damage") && !n.classList.contains("cf-gone")
          && m.oldValue && !m.oldValue.split(" ").includes("on")) {
        window.__reveals.push([Number(n.dataset.i), performance.now(),
          Number(n.closest("svg").dataset.step)]);
      }
    }
  }).observe(document.getElementById("board"),
    {subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true});
}"""


def _deploy_both(live: Any, match_id: str, tokens: list[str], buys: int = 3) -> None:
    """Both seats over one socket: a few ships each, ready, then in turn each seat's next
    card face to face with the other's (Player 1 below facing up, Player 2 above facing
    down, same columns) until the battle can be fired."""
    url = live.base.replace("http", "ws") + f"/ws/matches/{match_id}"
    bought = [0, 0]
    placed = [0, 0]
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        while True:
            msg = json.loads(ws.recv(timeout=15))
            if msg["type"] != "state":
                continue
            assert msg["status"] == "live", "the match ended before its battle"
            # the seat behind goes first, so neither deploys its last card (a stop) early
            mine = [s for s in msg["to_move"] if str(s) in msg["legal"]]
            for seat in sorted(mine, key=lambda s: (placed[s], bought[s], s)):
                acts = [a["action"] for a in msg["legal"][str(seat)]["actions"]]
                kinds = {a["kind"] for a in acts}
                if "fire" in kinds:
                    return
                if "buy" in kinds and bought[seat] < buys:
                    action = next(a for a in acts if a["kind"] == "buy")
                    bought[seat] += 1
                elif "ready" in kinds:
                    action = {"kind": "ready", "args": []}
                elif "place" in kinds:
                    x = 150 + 130 * placed[seat]
                    y, angle = (200, 0) if seat == 0 else (400, 180)
                    action = {"kind": "place", "args": [x, y, angle]}
                    placed[seat] += 1
                else:
                    continue
                ws.send(json.dumps({"type": "act", "seat": seat, "action": action, "n": msg["n"]}))
                break


def test_the_battle_reveals_each_steps_lasers_in_firing_order(live, page: Page, shots):
    if "conflict" not in game_ids():
        return
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    m = live.create(
        {
            "game": "conflict",
            "seed": 11,
            "options": {"players": 2, "scale": "dispute", "deployment": "light_speed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    _deploy_both(live, m["id"], m["tokens"])
    page.goto(live.base + m["links"]["0"])
    table = page.locator("svg[aria-label='Stellar Conflict table']")
    expect(table).to_be_visible()
    expect(page.locator(".cf-step")).to_have_text("Deployed: the battle is about to start")
    # Ship art: every card on the table has its paper, nose band and hull boxes.
    cards = table.locator("[data-card]")
    assert cards.count() >= 4
    expect(table.locator("[data-card] .cf-paper")).to_have_count(cards.count())
    page.evaluate(WATCH)
    steps_seen: list[dict[str, Any]] = []
    fire = page.locator("#cf-fire")
    for _ in range(30):
        if page.locator("#end").is_visible() or not fire.count():
            break
        step = int(table.get_attribute("data-step") or 0)
        fire.click()
        expect(table).to_have_attribute("data-step", str(step + 1))
        expect(table).to_have_class(DONE, timeout=20_000)
        n = int(table.get_attribute("data-shots") or 0)
        info = {
            "step": step + 1,
            "shots": n,
            "lasers": table.locator("line.laser").count(),
            "new_damage": table.locator(".cf-new-damage").count(),
            "caption": page.locator(".cf-step").inner_text(),
        }
        steps_seen.append(info)
        # Every shot of the step is drawn, and the caption names the step.
        assert info["lasers"] == n, info
        assert info["caption"].startswith(f"Step {step + 1}: initiative "), info
        if page.locator("#end").is_visible():
            page.locator("#end button", has_text="Look at the board").click()
    assert len(steps_seen) >= 2, steps_seen
    # The steps came in initiative order.
    initiatives = [int(s["caption"].split("initiative ")[1]) for s in steps_seen]
    assert initiatives == sorted(initiatives), initiatives
    # Within each step the lasers appeared one after another in firing order.
    reveals = page.evaluate("window.__reveals")
    multi = 0
    for info in steps_seen:
        mine: list[list[float]] = []
        for r in reveals:  # a redraw of the same step shows its shots again: first time only
            if r[2] == info["step"] and r[0] not in [x[0] for x in mine]:
                mine.append(r)
        order = [r[0] for r in mine]
        assert order == list(range(info["shots"])), (info, order)
        if info["shots"] >= 2:
            multi += 1
            span = mine[-1][1] - mine[0][1]
            assert span >= (info["shots"] - 1) * STAGGER_MS * 0.5, (info, span)
    assert multi >= 1, steps_seen
    # Damage was dealt somewhere, and shown as new tokens in the hull boxes.
    assert any(s["new_damage"] for s in steps_seen), steps_seen
    assert not errors, errors


def test_the_shots_can_be_shown_again(live, page: Page, shots):
    if "conflict" not in game_ids():
        return
    shots.append(page)
    m = live.create(
        {
            "game": "conflict",
            "seed": 11,
            "options": {"players": 2, "scale": "dispute", "deployment": "light_speed"},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    _deploy_both(live, m["id"], m["tokens"])
    page.goto(live.base + m["links"]["0"])
    table = page.locator("svg[aria-label='Stellar Conflict table']")
    # Fire until a step with shots, then ask for them again: they hide and come back.
    for _ in range(10):
        step = int(table.get_attribute("data-step") or 0)
        page.locator("#cf-fire").click()
        expect(table).to_have_attribute("data-step", str(step + 1))
        expect(table).to_have_class(DONE, timeout=20_000)
        if int(table.get_attribute("data-shots") or 0) >= 1:
            break
    n = int(table.get_attribute("data-shots") or 0)
    assert n >= 1
    page.locator("#cf-replay-shots").click()
    assert int(table.get_attribute("data-shown") or 0) < n
    expect(table).to_have_attribute("data-shown", str(n), timeout=20_000)
    expect(table.locator(".cf-shot.on line.laser")).to_have_count(n)


#: Each battle table drawn on the page, in order: [step, ms since load].
WATCH_STEPS = """() => {
  window.__steps = []; window.__end = null;
  new MutationObserver(() => {
    const t = document.querySelector("svg.cf-table");
    const step = t ? Number(t.dataset.step || 0) : 0;
    const last = window.__steps.at(-1);
    if (t && step && (!last || last[0] !== step)) window.__steps.push([step, performance.now()]);
    const ended = !document.getElementById("end").hidden;
    if (window.__end === null && ended) window.__end = performance.now();
  }).observe(document.body,
    {subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"]});
}"""


def test_an_ai_firing_fast_still_shows_every_step_in_order(live, page: Page, shots):
    """The AI fires the whole battle at once (no delay here): the page plays the steps one
    after another, each with all its shots, and the end dialog waits for the last one."""
    if "conflict" not in game_ids():
        return
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    m = live.create(
        {
            "game": "conflict",
            "seed": 11,
            "options": {"players": 2, "scale": "dispute", "deployment": "light_speed"},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "heuristic"}],
        }
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("svg[aria-label='Stellar Conflict table']")).to_be_visible()
    page.evaluate(WATCH)
    page.evaluate(WATCH_STEPS)
    _deploy_both(live, m["id"], [m["tokens"][0]])  # Ada's fleet; the AI deploys its own
    expect(page.locator("#end")).to_be_visible(timeout=90_000)
    steps = page.evaluate("window.__steps")
    reveals = page.evaluate("window.__reveals")
    end = page.evaluate("window.__end")
    numbers = [s[0] for s in steps]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert len(numbers) >= 2, numbers
    # Every shot of every step was revealed, in firing order, before the next step came.
    for k, (step, _at) in enumerate(steps):
        mine: list[list[float]] = []
        for r in reveals:  # a redraw of the same step shows its shots again: first time only
            if r[2] == step and r[0] not in [x[0] for x in mine]:
                mine.append(r)
        order = [int(r[0]) for r in mine]
        assert order == sorted(order) and order == list(range(len(order))), (step, order)
        if k + 1 < len(steps):
            assert all(r[1] <= steps[k + 1][1] for r in mine), step
    assert reveals, "no laser was shown"
    assert end >= max(r[1] for r in reveals), "the end dialog came before the last shots"
    assert not errors, errors
