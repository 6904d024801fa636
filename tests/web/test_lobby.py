"""The lobby in the browser: every game and player count it offers creates a match with
every default kept, options for other player counts are neither shown nor sent, and the
set-up reads as a form (boxes beside their labels)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from skydeck.registry import game_class, game_ids


def _open_setup(page: Page, base: str, game_id: str) -> None:
    page.goto(base + "/")
    page.click(f".game-card[data-game='{game_id}']")
    expect(page.locator("#create")).to_be_visible()


def _create(page: Page) -> tuple[int, dict[str, Any]]:
    """Click Create; the lobby's own request body and the server's answer."""
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as info:
        page.click("#create")
    response = info.value
    if response.status == 201:
        page.wait_for_url("**/m/**")  # one human seat by default: its page opens
    return response.status, response.request.post_data_json


def test_every_game_and_player_count_creates_a_match_with_the_defaults(live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    made = []
    for game_id in game_ids():
        _open_setup(page, live.base, game_id)
        counts = [
            int(v)
            for v in page.locator("#players option").evaluate_all("opts => opts.map(o => o.value)")
        ]
        assert sorted(counts) == counts == sorted(game_class(game_id).player_counts)
        for n in counts:
            _open_setup(page, live.base, game_id)
            page.select_option("#players", str(n))
            status, body = _create(page)
            assert status == 201, (game_id, n, body)
            assert body["options"]["players"] == n and len(body["seats"]) == n
            made.append((game_id, n))
    assert len(made) == sum(len(game_class(g).player_counts) for g in game_ids())
    assert not errors, errors


def test_solo_only_options_are_shown_and_sent_for_one_player_only(live, page: Page, shots):
    if "expedition" not in game_ids():
        return
    shots.append(page)
    _open_setup(page, live.base, "expedition")
    expect(page.locator("#players")).to_have_value("2")
    for name in ("solo_rank", "drone_faction"):
        expect(page.locator(f"#opt-{name}")).to_be_hidden()
    status, body = _create(page)
    assert status == 201
    assert "solo_rank" not in body["options"] and "drone_faction" not in body["options"]
    _open_setup(page, live.base, "expedition")
    page.select_option("#players", "1")
    for name in ("solo_rank", "drone_faction"):
        expect(page.locator(f"#opt-{name}")).to_be_visible()
        expect(page.locator(f"#opt-{name}")).to_have_value("")  # "default": not sent
    status, body = _create(page)
    assert status == 201, body
    assert body["options"] == {"players": 1, "modules": [], "nothing_bad_happens": False}
    # A chosen rank and drone go through.
    _open_setup(page, live.base, "expedition")
    page.select_option("#players", "1")
    page.select_option("#opt-solo_rank", label="admiral")
    page.select_option("#opt-drone_faction", label="maheri")
    status, body = _create(page)
    assert status == 201, body
    assert body["options"]["solo_rank"] == "admiral"
    assert body["options"]["drone_faction"] == "maheri"


def test_game_cards_list_player_counts_in_order(live, page: Page, shots):
    shots.append(page)
    page.goto(live.base + "/")
    for game_id in game_ids():
        counts = sorted(game_class(game_id).player_counts)
        card = page.locator(f".game-card[data-game='{game_id}']")
        text = f"{counts[0]}–{counts[-1]} players" if len(counts) > 1 else f"{counts[0]} players"
        expect(card).to_contain_text(text)


def test_checkboxes_sit_beside_their_labels(live, page: Page, shots):
    shots.append(page)
    page.set_viewport_size({"width": 1400, "height": 900})
    for game_id, box in (
        ("stellium", "#opt-first_game"),
        ("expedition", "#opt-nothing_bad_happens"),
    ):
        if game_id not in game_ids():
            continue
        _open_setup(page, live.base, game_id)
        field = page.locator("#players").bounding_box()
        check = page.locator(box).bounding_box()
        assert field is not None and check is not None
        # The box starts its column, like every other field (it used to float mid-row).
        assert abs(check["x"] - field["x"]) < 8, (game_id, check, field)
        # Clicking the explanation beside it ticks it.
        page.locator(box).locator("xpath=..").click()
        expect(page.locator(box)).to_be_checked()


def test_each_ai_level_says_what_it_is(live, page: Page, shots):
    """Issue 51: choosing an AI for a seat tells how it plays (and its rating once its
    bot has played rated matches: not yet on a fresh server)."""
    shots.append(page)
    _open_setup(page, live.base, "stellium")
    select = page.locator("#seats .seat-row select").nth(1)
    hard = select.locator("option[value='ai:mcts:hard']")
    expect(hard).to_have_text("AI: hard")
    select.select_option("ai:mcts:hard")
    note = page.locator("#seat-level-1")
    expect(note).to_contain_text("100000 iterations")
    expect(note).to_contain_text("not rated yet")
    select.select_option("human")
    expect(note).to_be_hidden()
