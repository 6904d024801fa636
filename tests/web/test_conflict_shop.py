"""Issue 49: Stellar Conflict's fleet shop showed a ship's name, cost, initiative and
hull, its lasers, shields and abilities only in a tooltip. Each card in the shop now
draws its lasers (coloured by strength) and shields as the card in hand and the table
do, and prints its abilities on the card."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

import skydeck
from skydeck.registry import game_ids

RACES = ["hexai", "tetrakori"]  # the races whose ships have abilities


def _expected(ship_id: str) -> tuple[list[int], int, list[str]]:
    ship = skydeck.load("conflict", players=2).content.ships
    card = next(s for s in ship if s.id == ship_id).to_json()
    ab = card["abilities"]
    words = [f"immune to strength-{k} lasers" for k in ab["immune_to"]]
    if ab["regenerate"]:
        words.append(f"regenerates {ab['regenerate']}")
    if ab["ion_proof"]:
        words.append("ion-proof")
    return [lz["strength"] for lz in card["lasers"]], len(card["shields"]), words


def test_the_fleet_shop_draws_lasers_shields_and_abilities_on_each_card(
    live, page: Page, shots: list[Any]
) -> None:
    if "conflict" not in game_ids():
        return
    shots.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "ai", "agent": "random"}]
    for seat, race in enumerate(RACES):
        m = live.create(
            {"game": "conflict", "seed": 2, "options": {"players": 2, "races": RACES},
             "seats": seats if seat == 0 else seats[::-1]}
        )  # fmt: skip
        page.goto(live.base + m["links"][str(seat)])
        cards = page.locator(".cf-shop button[data-ship]")
        expect(cards.first).to_be_visible(timeout=20_000)
        ids = [cards.nth(i).get_attribute("data-ship") or "" for i in range(cards.count())]
        assert ids and all(i.startswith(race + ".") for i in ids), ids
        with_abilities = 0
        for i, ship_id in enumerate(ids):
            card = cards.nth(i)
            strengths, shields, words = _expected(ship_id)
            art = card.locator("svg.cf-shop-art")
            expect(art).to_be_visible()
            drawn = [int(s) for s in art.locator("line.cf-laser").evaluate_all(
                "ls => ls.map((l) => l.dataset.strength)")]  # fmt: skip
            assert sorted(drawn) == sorted(strengths), (ship_id, drawn, strengths)
            expect(art.locator("line.cf-shield")).to_have_count(shields)
            expect(card.locator(".cf-ability")).to_have_text(words)
            with_abilities += bool(words)
        assert with_abilities > 0, f"{race}: no card with an ability in the shop"
    assert not errors, errors
