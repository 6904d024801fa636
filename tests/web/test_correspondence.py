"""A correspondence match in real Chromium, on the server's scaled clock (a day lasts
1.7 s here): made from the lobby with a day a move, it moves on when the person moves
and the bot answers, then the person's clock runs out and the page says who lost on
time; the rating tables count it as that person's loss (issue 48)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import select

from skydeck.server.people_tables import match_players
from tests.web.conftest import LiveServer

DAY = 86_400
PASSWORD = "a long pass phrase"


@pytest.fixture(scope="module")
def slow_clock_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("corr") / "corr.sqlite"
    with LiveServer(f"sqlite:///{db}", clock_scale=2.0 / DAY, clock_grace=0.0) as server:
        server.app.state.people.hasher.__init__(64)  # a small Argon2id for a test
        yield server


def test_a_correspondence_match_moves_on_then_is_lost_on_time(
    slow_clock_live, browser: Browser, shots
):
    base = slow_clock_live.base
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    shots.append(page)
    page.goto(base + "/")
    page.fill("#account-name", "Vesta")
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    expect(page.locator("#signed-in")).to_contain_text("Vesta")
    page.click(".game-card[data-game='toy']")
    page.locator(".seat-kind").nth(1).select_option("ai:random")
    page.select_option("#clock", str(DAY))
    page.check("#rated")
    with page.expect_response(lambda r: r.url.endswith("/api/matches")) as made:
        page.click("#create")
    assert made.value.request.post_data_json["move_seconds"] == DAY
    page.wait_for_url("**/m/**")
    match_id = page.url.split("/m/")[1].split("#")[0].split("?")[0]
    expect(page.locator("#panels .pp-clock[data-due]")).to_have_attribute(
        "title", "move clock: the move is owed by then"
    )
    # one move, the bot answers: the match moves on, the clock starts again
    page.locator(".action-group button:enabled").first.click()
    expect(page.locator("#end")).to_be_visible(timeout=15_000)
    expect(page.locator("#end h2")).to_have_text("Time ran out")
    why = page.locator("#end .end-why")
    expect(why).to_contain_text("Vesta did not move within the move clock")
    expect(why).to_contain_text("1 day a move")
    expect(why).to_contain_text("loses on time")
    info = page.evaluate(f"async () => (await fetch('/api/matches/{match_id}')).json()")
    assert info["status"] == "abandoned" and info["n"] >= 2, info  # moved, the bot answered
    engine = slow_clock_live.app.state.people.engine
    deadline = time.time() + 10
    results: dict[int, str | None] = {}
    while time.time() < deadline:
        with engine.connect() as conn:
            rows = conn.execute(
                select(match_players.c.seat, match_players.c.result).where(
                    match_players.c.match_id == match_id
                )
            ).all()
        results = {int(r.seat): r.result for r in rows}
        if results and all(results.values()):
            break
        time.sleep(0.05)
    assert results == {0: "loss", 1: "win"}
    assert not errors, errors
