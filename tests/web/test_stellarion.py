"""A whole Stellarion game played by clicking in the browser, then its replay."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

import skydeck
from tests.web.a11y import serious_violations
from tests.web.phone import check_phone, phone_context


def test_a_whole_stellarion_game_by_clicking_then_its_replay(live, page: Page, shots):
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.base + "/")
    page.click("[data-game=stellarion]")
    page.fill("#seed", "0")
    page.click("#create")  # one human seat: straight to the match page
    expect(page.locator("#turn")).to_contain_text("Your move")
    expect(page.locator("svg[aria-label='Stellarion table']")).to_be_visible()
    moves = 0
    by_board = 0
    end = page.locator("#end")
    while not end.is_visible():
        assert moves < 400, "the game did not end"
        before = page.locator("#status").inner_text()
        hot = page.locator("svg g.hot")
        if moves % 3 == 0 and hot.count():
            # Pick pieces on the board until one move is left, then confirm it.
            for _ in range(6):
                if page.locator("#confirm").count():
                    break
                hot = page.locator("svg g.hot:not(:has(rect[stroke-width='4']))")
                if not hot.count():
                    break
                hot.first.click()
            if page.locator("#confirm").count():
                page.click("#confirm")
                by_board += 1
            else:
                page.locator(".action-group button").first.click()
        else:
            page.locator(".action-group button").first.click()
        moves += 1
        page.wait_for_function(
            "b => document.querySelector('#status').innerText !== b"
            " || !document.querySelector('#end').hidden",
            arg=before,
        )
    expect(end).to_contain_text(re.compile("You won|You lost"))
    assert by_board > 0
    assert page.locator("#log li").count() >= moves
    # issue 49: the log names the cards a move used, never a deck's position
    log = page.locator("#log").inner_text()
    assert "coordinates with" in log or "launches" in log, log[-600:]
    tops = re.findall(r"the (?:Alpha|Beta|Gamma|Delta|Ship|Nebula|Stars|Planet) top\b", log)
    assert not tops, tops
    assert not errors, errors
    # The replay steps through the same game.
    page.locator("#end a[href^='/r/']").click()
    expect(page.locator("#stepinfo")).to_contain_text("step 0 /")
    total = int(page.locator("#stepinfo").inner_text().split("/")[1])
    assert total >= moves
    page.click("#next")
    expect(page.locator("#stepinfo")).to_contain_text("step 1 /")
    expect(page.locator("#turn")).not_to_contain_text("made a move")
    page.click("#last")
    expect(page.locator("#stepinfo")).to_contain_text(f"step {total} / {total}")
    expect(page.locator("#step")).to_contain_text("Final scores")
    # The full view of a finished match: every seat's view.
    page.select_option("#seat", "everyone")
    expect(page.locator("#board h3")).to_have_count(1)
    expect(page.locator("#board svg[aria-label='Stellarion table']")).to_be_visible()
    assert not errors, errors


@pytest.fixture(scope="module")
def lost_match(live) -> dict[str, Any]:
    """A two-player match two random AIs lost after taking some Voyages (seed 5): its
    watch link, the Voyages each seat took and the game's number of Voyages."""
    import skydeck

    ai = {"kind": "ai", "agent": "random"}
    m = live.create({"game": "stellarion", "seed": 5, "options": {"players": 2}, "seats": [ai, ai]})
    match_id = m["watch_link"].split("/")[-1].split("?")[0]
    for _ in range(240):
        if httpx.get(f"{live.base}/api/matches/{match_id}", timeout=10).json()["status"] != "live":
            break
        time.sleep(0.5)
    url = f"{live.base}/api/matches/{match_id}/replay?seat=everyone"
    final = httpx.get(url, timeout=30).json()["steps"][-1]["views"]["0"]
    taken = [len(pile) for pile in final["victory"]]
    # every Voyage of the game lies on the board at the start
    start = skydeck.load("stellarion", players=2).new(5).view(None)
    total = len(start["voyages"]["galaxy"])
    assert sum(taken) > 0 and final["outcome"] == "lost", (taken, final["outcome"])
    return {"watch": m["watch_link"], "id": match_id, "taken": taken, "total": total}


def test_voyages_read_taken_of_all_in_the_panels_and_the_end_dialog(
    live, lost_match, page: Page, shots
):
    """Issue 49: the panel read "2 / 6" after 2 Voyages taken (the denominator counted
    the Voyages left) and the end dialog "Player 1 0" after a loss with 2 Voyages (the
    engine's score). Both now say the Voyages taken of all the game's Voyages."""
    shots.append(page)
    taken, total = lost_match["taken"], lost_match["total"]
    page.goto(live.base + lost_match["watch"])
    end = page.locator("#end")
    expect(end).to_be_visible()
    for seat, n in enumerate(taken):
        panel = page.locator(f"#panels .pp[data-seat='{seat}'] .pp-score")
        expect(panel).to_have_text(f"{n} / {total}")
        row = end.locator("tr").filter(has_text=f"Player {seat + 1}")
        expect(row.locator("td").last).to_have_text(f"{n} / {total}")


@pytest.mark.parametrize("seat", ["spectator", "everyone"])
def test_the_replays_final_scores_say_the_voyages_taken_as_the_end_dialog(
    live, lost_match, page: Page, shots, seat: str
):
    """Issue 49: after a loss with Voyages taken the replay's last step said "Final
    scores: Player 1 0, Player 2 0" (the engine's score) where the end dialog says the
    Voyages taken of all; it now says what the dialog says."""
    shots.append(page)
    taken, total = lost_match["taken"], lost_match["total"]
    page.goto(f"{live.base}/r/{lost_match['id']}?seat={seat}")
    expect(page.locator("#stepinfo")).to_contain_text("step 0 /")
    page.click("#last")
    # each seat as the page names it ("Player 1 (AI: random)"), then its Voyages
    want = ", ".join(rf"Player {k + 1}[^,]* {n} / {total}" for k, n in enumerate(taken))
    expect(page.locator("#step")).to_contain_text(re.compile(f"Final scores: {want}$"))


#: Draws a view with Stellarion's own drawing in the page and returns the table's texts,
#: each with its box in the table's own units (the viewBox is 1000 wide).
DRAW = """async (view) => {
  const m = await import('/static/games/stellarion/drawing.js');
  const root = document.createElement('div');
  document.body.append(root);
  m.render(root, view, {hot: () => false, selected: new Set(), toggle() {}, names: ['Player 1']});
  const texts = [...root.querySelectorAll('text')].map((t) => {
    const b = t.getBBox();
    return {text: t.textContent, x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height};
  });
  root.remove();
  return texts;
}"""


def test_a_power_says_what_the_rule_allows(live, page: Page, shots):
    """Issue 49: a minor Nebula or Planet power said "(2 uses left)" and a major one
    "(4 uses left)" where the rule moves its card(s) once; the table now says what the
    power allows: searches or looks left, or how many cards its one use moves."""
    from tests.games.stellarion.test_powers import coordinated

    shots.append(page)
    page.goto(live.base + "/")
    want = {
        ("ship", False): "Minor Ship power: 1 search left",
        ("ship", True): "Major Ship power: 2 searches left",
        ("nebula", False): "Minor Nebula power: take back 1 card",
        ("nebula", True): "Major Nebula power: take back up to 2 cards",
        ("stars", False): "Minor Stars power: 2 looks left",
        ("stars", True): "Major Stars power: 4 looks left",
        ("planet", False): "Minor Planet power: move 1 card to the Outpost",
        ("planet", True): "Major Planet power: move up to 2 cards to the Outpost",
    }
    seen = {}
    for power, major in want:
        texts = page.evaluate(DRAW, coordinated(power, major).view(0))
        line = next((t for t in texts if " power" in t["text"]), None)
        assert line is None or line["right"] <= 1000, f"{line} runs off the table"
        seen[power, major] = line and line["text"]
    assert seen == want


#: Every label of the table that something drawn after it covers (a card's face or
#: another label), or that runs off the table: [label, what covers it].
COVERED = """async (view) => {
  const m = await import('/static/games/stellarion/drawing.js');
  const root = document.createElement('div');
  root.style.width = '1000px';
  document.body.append(root);
  m.render(root, view, {hot: () => false, selected: new Set(), toggle() {}, names: ['P1', 'P2']});
  const table = root.querySelector('svg');
  const height = table.viewBox.baseVal.height;
  const all = [...table.querySelectorAll('text, rect.face')];
  const box = (e) => e.getBBox();
  const meets = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5
    && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
  const problems = [];
  all.forEach((t, i) => {
    if (t.tagName !== 'text' || !t.textContent.trim()) return;
    const a = box(t);
    const off = a.x < 0 || a.x + a.width > 1000 || a.y < 0 || a.y + a.height > height;
    if (off) problems.push([t.textContent, 'off the table']);
    for (const e of all.slice(i + 1)) {
      if (e.tagName === 'text' && !e.textContent.trim()) continue;
      // a card's own face is drawn before its labels; a later card over a label hides it
      const what = e.tagName === 'text' ? e.textContent : 'a card';
      if (meets(a, box(e))) problems.push([t.textContent, what]);
    }
  });
  root.remove();
  return problems;
}"""

ALL = ["black_holes", "glaucous_sun", "mirrors", "theories"]


def _tables() -> dict[str, dict[str, Any]]:
    """Views whose Voyages lie in stacks, in Mirror columns and in full victory piles."""
    import skydeck
    from tests.games.stellarion.helpers import pos

    every = list(skydeck.load("stellarion", expansions=ALL).voyage_index)
    return {
        "base, stacks of 2": skydeck.load("stellarion").new(0).view(None),
        "stacks of up to 4": skydeck.load(
            "stellarion", expansions=["black_holes", "glaucous_sun", "theories"]
        )
        .new(1)
        .view(None),
        "Mirror columns of 8, two players": skydeck.load("stellarion", players=2, expansions=ALL)
        .new(2)
        .view(None),
        "all 16 Voyages taken, solo": pos(expansions=ALL, voyages=[[], []], piles=[every]).view(
            None
        ),
        "8 and 8 taken": pos(
            players=2, expansions=ALL, voyages=[[], []], piles=[every[:8], every[8:]]
        ).view(None),
    }


def test_no_label_of_the_table_is_hidden_under_another(live, page: Page, shots):
    """Issue 49: the "Voyage 1" label lay under the "Voyage 2" card of its stack. No label
    of the table may be covered by a card or a label drawn after it, nor run off it."""
    shots.append(page)
    page.goto(live.base + "/")
    hidden = {name: page.evaluate(COVERED, view) for name, view in _tables().items()}
    assert hidden == {name: [] for name in hidden}


def _new_solo_match(page: Page, live, seed: int = 0) -> None:
    page.goto(live.base + "/")
    page.locator("[data-game=stellarion]").click()
    page.fill("#seed", str(seed))
    page.locator("#create").click()
    expect(page.locator("#turn")).to_contain_text("Your move")


def _list_move(page: Page, label: str | re.Pattern[str]) -> None:
    """Plays a move from the list (the keyboard and screen-reader path)."""
    before = page.locator("#status").inner_text()
    page.locator(".action-group button", has_text=label).first.click()
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)


def _press(page: Page, locator, phone: bool) -> None:
    """A finger's tap on a phone, a click on a desktop."""
    if phone:
        locator.tap()
    else:
        locator.click()


def search_and_look_on_the_board(page: Page, live, phone: bool) -> None:
    """Seed 0 (solo): a Ship Coordinate, then a Ship search chosen on the board (a click
    on the deck, then on one of its cards); then a Stars Coordinate, a deck clicked and
    the card kept on top chosen among the two seen. The log says each choice."""
    _new_solo_match(page, live)
    _list_move(page, re.compile(r"^Coordinate with the .+ \(Gamma top\) and the .+ \(Ship top\)$"))
    searches = page.locator(".action-group button", has_text="search the")
    assert searches.count() >= 20  # the list keeps every search
    assert not page.locator("#board .chooser").count()
    _press(page, page.locator("svg g[data-token='alpha'].hot"), phone)
    cards = page.locator("#board .chooser button[data-choice]")
    expect(cards.first).to_be_visible()
    faces = [cards.nth(i).get_attribute("data-choice") for i in range(cards.count())]
    # one of each card the Alpha deck holds, as the list offers them
    listed = page.locator(".action-group button", has_text="search the Alpha deck for")
    assert len(faces) == len(set(faces)) == listed.count() >= 2, faces
    assert all(f and f.startswith("alpha.") for f in faces), faces
    if phone:
        check_phone(page, "a Ship search chosen on the board")
    pick = faces[-1]
    assert pick
    before = page.locator("#status").inner_text()
    _press(page, page.locator(f"#board .chooser button[data-choice='{pick}']"), phone)
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
    name = " ".join(w.capitalize() for w in pick.split("."))
    expect(page.locator("#log")).to_contain_text(f"searches the Alpha deck for {name}")
    expect(page.locator("#board .chooser")).to_have_count(0)
    # the next turn: a Stars power, its deck clicked, the card kept on top chosen
    _list_move(page, re.compile(r"^Coordinate with the .+ \(Beta top\) and the .+ \(Stars top\)$"))
    before = page.locator("#status").inner_text()
    _press(page, page.locator("svg g[data-token='alpha'].hot"), phone)  # one tap: the move
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
    expect(page.locator("#log")).to_contain_text("looks at the top two cards of the Alpha deck")
    seen = page.locator("#board .chooser button[data-choice]")
    expect(seen.first).to_be_visible()
    assert 1 <= seen.count() <= 2
    if phone:
        check_phone(page, "a Stars look chosen on the board")
    kept = seen.first.get_attribute("data-choice") or ""
    before = page.locator("#status").inner_text()
    _press(page, seen.first, phone)
    page.wait_for_function("b => document.querySelector('#status').innerText !== b", arg=before)
    kept_name = " ".join(w.capitalize() for w in kept.split("."))
    expect(page.locator("#log")).to_contain_text(f"puts {kept_name} face up on top")


def test_ship_search_and_stars_choices_are_made_on_the_board(live, page: Page, shots):
    """Issue 49: a Ship search offered 32 list buttons and nothing on the board; the
    board now shows the deck's cards to choose from, and the Stars look its two cards."""
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    search_and_look_on_the_board(page, live, phone=False)
    assert not errors, errors


def test_ship_search_and_stars_choices_by_tapping_on_a_phone(live, browser, shots):
    """The same on a phone (390x844, touch): every card to choose is a 44x44 px target."""
    context = phone_context(browser, "portrait")
    page = context.new_page()
    shots.append(page)
    search_and_look_on_the_board(page, live, phone=True)
    faults = serious_violations(page)
    assert not faults, faults
    context.close()


def test_the_move_list_names_the_cards_as_the_terminal_does(live, page: Page, shots):
    """Issue 49: the list named a Launch's and a Coordinate's cards by deck ("with the
    Alpha top and the Gamma top"). The page has the seat's view: each listed move now
    reads as ``Game.describe(action, view)`` (the terminal's menu), card and deck named."""
    shots.append(page)
    seed = 3
    m = live.create({"game": "stellarion", "seed": seed, "options": {"players": 1},
                     "seats": [{"kind": "human"}]})  # fmt: skip
    page.goto(live.base + m["links"]["0"])
    expect(page.locator("svg[aria-label='Stellarion table']")).to_be_visible()
    expect(page.locator(".action-group button").first).to_be_visible()
    game = skydeck.load("stellarion", players=1)
    state = game.new(seed)
    view = state.view(0)
    expected = sorted(game.describe(a, view) for a in state.legal_actions(0))
    listed = sorted(page.locator(".action-group button").all_inner_texts())
    assert listed == expected
    assert any("(Alpha top)" in t for t in listed) and not any(
        re.search(r"the \w+ top(?!\))", t) for t in listed
    )
