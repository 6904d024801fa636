"""Issue 49: each running clock is drawn once on the match page. The seat clocks had been
drawn in the seat's panel and again as a bar under the panels, and Stellar Conflict's
deployment clock in the table's head and again as a bar.

A clock on the page is any element showing a countdown ("◔ 4.2 s", "4.2 s",
"57.3 s left", "≤ 3 s", "59:58", "5:12:03", "2 d 4 h"), found by its own text
whatever its class, so a clock drawn in a new place is counted too."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from skydeck.registry import game_ids
from tests.web.test_panels import MATCHES

#: Each visible element whose own text (not its children's) is a countdown.
COUNTDOWNS_JS = r"""() => {
  const countdown = /^\s*(◔\s*)?(≤\s*)?(\d+(\.\d+)?\s*s|\d+(:\d\d){1,2}|\d+ d \d+ h)(\s+left)?\s*$/;
  const out = [];
  for (const node of document.body.querySelectorAll("*")) {
    if (!node.getClientRects().length) continue;
    const own = [...node.childNodes].filter((c) => c.nodeType === 3)
      .map((c) => c.textContent).join("");
    const name = `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`;
    if (countdown.test(own)) out.push(`${name}: ${own.trim()}`);
  }
  return out;
}"""


def _clocks_drawn(page: Page) -> list[str]:
    found: list[str] = page.evaluate(COUNTDOWNS_JS)
    return found


def _running(page: Page) -> int:
    """How many clocks the server runs now (the match page's last state)."""
    n: int = page.evaluate(
        """async () => {
          const id = location.pathname.split('/m/')[1];
          return new Promise((done) => {
            const ws = new WebSocket(`ws://${location.host}/ws/matches/${id}`);
            ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', tokens: [] }));
            ws.onmessage = (ev) => {
              const m = JSON.parse(ev.data);
              if (m.type === 'state') { ws.close(); done((m.deadlines || []).length); }
            };
          });
        }"""
    )
    return n


def _once(page: Page, where: str) -> None:
    page.wait_for_function(f"() => ({COUNTDOWNS_JS})().length > 0")
    running = _running(page)
    drawn = _clocks_drawn(page)
    assert running == 1, f"{where}: the server runs {running} clocks"
    assert len(drawn) == running, f"{where}: {running} clock drawn {len(drawn)} times: {drawn}"


def test_stellium_draw_clock_is_drawn_once(live, page: Page, shots: list[Any]) -> None:
    if "stellium" not in game_ids():
        return
    shots.append(page)
    m = live.create({"game": "stellium", "seed": 4, **MATCHES["stellium"]})
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#turn")).to_contain_text("Your move", timeout=20_000)
    _once(page, "Stellium's draw")
    # the mover's panel holds it, with what it is for
    clock = page.locator("#panels .pp[data-seat='0'] .pp-clock")
    expect(clock).to_have_attribute("title", "draw from the bag: the clock draws at random")


def test_conflict_deployment_clock_is_drawn_once(live, page: Page, shots: list[Any]) -> None:
    if "conflict" not in game_ids():
        return
    shots.append(page)
    m = live.create({"game": "conflict", "seed": 3, **MATCHES["conflict"]})
    page.goto(live.base + m["links"]["0"])
    page.locator(".action-group button[data-action^='buy']").first.click()
    expect(page.locator(".cf-fleet .chip")).to_have_count(1)
    page.locator("[data-action='ready']").click()
    expect(page.locator(".cf-count")).to_have_text(re.compile(r"^\d+\.\d s left$"), timeout=20_000)
    _once(page, "Conflict's deployment")


def test_correspondence_move_clock_is_drawn_once(live, page: Page, shots: list[Any]) -> None:
    shots.append(page)
    m = live.create(
        {
            "game": "toy",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}],
            "move_seconds": 3600,
        }
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("#turn")).to_contain_text("Your move", timeout=20_000)
    _once(page, "the move clock")
    clock = page.locator("#panels .pp[data-seat='0'] .pp-clock")
    expect(clock).to_have_attribute("title", "move clock: the move is owed by then")
    # an hour's clock reads as minutes and seconds, not "3600 s"
    expect(clock).to_have_text(re.compile(r"^◔ (1:00:00|59:[0-5]\d)$"))


def test_a_clock_reads_in_seconds_minutes_hours_or_days(live, page: Page) -> None:
    page.goto(live.base + "/")
    shown = page.evaluate(
        "async () => { const m = await import('/static/js/common.js');"
        " return [4.25, 42, 125, 3600, 18723, 90061, 2 * 86400 + 7200].map(m.countdown); }"
    )
    assert shown == ["4.3 s", "42 s", "2:05", "1:00:00", "5:12:03", "1 d 1 h", "2 d 2 h"]
