"""Stellar Expedition in the browser: every card a player judges is written out where it
is needed (the draft's Expeditions, crew in hand, the Upgrade store, the Encounter being
faced), hovering a card shows it in full, moves read as sentences, and the log speaks in
words (no content ids such as bronze_07 or ensign_okoro anywhere a person reads)."""

from __future__ import annotations

import os
import re

from playwright.sync_api import Page, expect

import skydeck

ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
SHOTS = os.environ.get("SKYDECK_SHOTS")  # a folder: keep screenshots to look at


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def _no_ids(text: str, where: str) -> None:
    found = ID.findall(text)
    assert not found, f"{where}: ids {found[:5]} in {text[:300]!r}"


def _through_the_set_up(page: Page, until: str) -> None:
    """Place the Starting tiles (their buttons name where, each a different place) until
    other moves and ``until`` show."""
    for _ in range(40):
        buttons = page.locator(".action-group button")
        texts = buttons.all_inner_texts()
        if page.locator(until).count() and texts and not texts[0].startswith("place the Start"):
            return
        if not texts:
            page.wait_for_timeout(100)
            continue
        for text in texts:
            _no_ids(text, "a set-up move")
            assert not re.search(r"space \d", text), f"a cell by its number: {text!r}"
        assert len(set(texts)) == len(texts), f"two moves read the same: {texts}"
        before = page.locator("#status").inner_text()
        buttons.first.click()
        page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)


def test_expedition_cards_are_readable_and_moves_are_sentences(live, page: Page, shots) -> None:
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    m = live.create(
        {
            "game": "expedition",
            "seed": 4,
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}],
        }
    )
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("svg[aria-label='Stellar Expedition map']")).to_be_visible()
    game = skydeck.load("expedition", players=2)
    c = game.content
    _through_the_set_up(page, ".xrow:has(h5:text('Your pack')) .xcard")

    # The draft: each Expedition of the pack written out (name, tier, points, needs).
    pack = page.locator(".xrow:has(h5:text('Your pack')) .xcard")
    expect(pack.first).to_be_visible()
    first = pack.first.inner_text()
    assert "Needs" in first and ("point" in first)
    assert any(x.name in first for x in c.expeditions)
    _no_ids(page.locator(".xside").inner_text(), "the side column")
    # Move buttons read as sentences naming the card.
    labels = page.locator(".action-group button").all_inner_texts()
    assert labels and all(t.startswith("keep Expedition ") for t in labels), labels
    for t in labels:
        _no_ids(t, "a move button")
    # Hovering a card shows it in full.
    pack.first.hover()
    full = page.locator("#xcard-full")
    expect(full).to_be_visible()
    assert "Needs" in full.inner_text()
    _shot(page, "expedition-draft")
    # ... and so does a Location tile on the map.
    page.mouse.move(0, 0)
    page.locator("svg[aria-label='Stellar Expedition map'] g[data-card='terra_nova']").hover()
    expect(full).to_contain_text("Terra Nova")
    expect(full).to_contain_text("Produces")
    # ... and a move button naming a card (the notation tooltip gives way).
    page.mouse.move(0, 0)
    button = page.locator(".action-group button").first
    button.hover()
    expect(full).to_be_visible()
    assert full.locator(".xname").inner_text() in button.inner_text()
    assert button.get_attribute("title") is None

    # Play on by clicking moves (never the raw notation), steering towards an Encounter:
    # it must be written out (its test and both outcomes) before one chooses.
    prefer = ("face an Encounter", "face ", "take the reward", "keep Expedition", "place ")
    avoid = ("end ", "pass", "decline", "give up")
    encounter = page.locator(".xnow .xcard.kind-encounter")
    for _ in range(150):
        if page.locator("#end").is_visible() or encounter.count():
            break
        buttons = page.locator(".action-group button")
        if not buttons.count():
            page.wait_for_timeout(100)
            continue
        texts = buttons.all_inner_texts()
        for t in texts:
            _no_ids(t, "a move button")
            assert not re.search(r"space \d", t), f"a cell by its number: {t!r}"
        pick = next((i for p in prefer for i, t in enumerate(texts) if t.startswith(p)), None)
        if pick is None:
            pick = next((i for i, t in enumerate(texts) if not t.startswith(avoid)), 0)
        before = page.locator("#status").inner_text()
        buttons.nth(pick).click()
        page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
    expect(encounter.first).to_be_visible()
    face = encounter.first.inner_text()
    assert "Test:" in face or "Chance:" in face or "Boon" in face, face
    assert "Overcome:" in face or "Failed:" in face or "On drawing:" in face, face
    assert any(x.name in face for x in c.encounters), face
    _shot(page, "expedition-encounter")
    # Crew in hand and the Upgrade store are written out too.
    hand = page.locator(".xrow:has(h5:text('Crew in hand')) .xcard").first
    assert "Level" in hand.inner_text()
    upgrade = page.locator(".xrow:has(h5:text('Upgrade store')) .xcard.kind-upgrade").first
    assert "Ability" in upgrade.inner_text()
    upgrade.hover()
    expect(page.locator("#xcard-full")).to_contain_text("Ability")
    # The whole page a person reads: board, moves and the log, all in words.
    _no_ids(page.locator("#board").inner_text(), "the board")
    _no_ids(page.locator("#actions").inner_text(), "the moves")
    log = page.locator("#log").inner_text()
    assert log.strip()
    _no_ids(log, "the log")
    assert "Waiting for:" not in page.locator("#board").inner_text()
    assert not errors, errors


def test_solo_expedition_shows_powers_and_the_drone_next_action(live, page: Page, shots) -> None:
    """The solo game with every module: the powers to choose from are written out, the
    drone's next action is shown, and the card faces come from the match's own set-up."""
    import httpx

    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    options = {"players": 1, "modules": ["player_powers", "objectives", "events", "hazards"]}
    m = live.create(
        {"game": "expedition", "seed": 2, "options": options, "seats": [{"kind": "human"}]}
    )
    faces = httpx.get(f"{live.base}/api/matches/{m['id']}/cards", timeout=10).json()
    assert faces["bronze_01"]["name"] == "Lost Survey" and faces["bronze_01"]["lines"]
    assert any(f["kind"] == "power" for f in faces.values())
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("svg[aria-label='Stellar Expedition map']")).to_be_visible()
    _through_the_set_up(page, ".xrow:has(h5:text('Powers')) .xcard")
    powers = page.locator(".xrow:has(h5:text('Powers')) .xcard")
    expect(powers.first).to_be_visible()
    power = powers.first.inner_text()
    assert any(w in power for w in ("gain", "move", "Location", "take", "repair", "trade"))
    drone = page.locator(".xrow:has(h5:text('The drone')) .xcard")
    expect(drone).to_contain_text("Its next action")
    assert "drone" in drone.inner_text().lower() or "you lose" in drone.inner_text().lower()
    labels = page.locator(".action-group button").all_inner_texts()
    assert labels and all(t.startswith("give up the power ") for t in labels), labels
    _no_ids(page.locator("#board").inner_text(), "the board")
    _shot(page, "expedition-solo")
    # The replay page draws the same cards, once their faces have come.
    page.locator(".action-group button").first.click()
    page.goto(f"{live.base}/r/{m['id']}")
    expect(page.locator("svg[aria-label='Stellar Expedition map']")).to_be_visible()
    expect(page.locator(".xcard.kind-upgrade").first).to_contain_text("Ability")
    _no_ids(page.locator("body").inner_text(), "the replay page")
    _shot(page, "expedition-replay")
    assert not errors, errors
