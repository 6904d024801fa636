"""Issue 49: a Stellar Conflict match made from the lobby's defaults ran on the time
model (the lobby sent ``clock: "model"``, which overrides the server's ``"real"``), so
a person deployed for minutes while the page said "against the clock". The lobby's
default is the server's: the real clock, whose countdown shows once deployment
begins."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def test_the_lobby_default_runs_the_real_deployment_clock(live, page: Page, shots) -> None:
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.base + "/")
    page.click(".game-card[data-game='conflict']")
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator("#opt-clock")).to_have_value('"real"')
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as sent:
        page.click("#create")
    assert sent.value.post_data_json["options"].get("clock", "real") == "real"
    page.wait_for_url("**/m/**")
    expect(page.locator("svg[aria-label='Stellar Conflict table']")).to_be_visible()
    # Preparation: one ship, then ready; the AI gets ready on its own.
    page.locator(".action-group button[data-action^='buy']").first.click()
    expect(page.locator(".cf-fleet .chip")).to_have_count(1)
    page.locator("[data-action='ready']").click()
    countdown = page.locator(".cf-head .cf-count")
    expect(countdown).to_be_visible(timeout=20_000)
    expect(countdown).to_have_text(re.compile(r"^\d+\.\d s left$"))
    assert not errors, errors
