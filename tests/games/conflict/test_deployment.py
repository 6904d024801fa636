"""Preparation (secret fleets within credits) and simultaneous Deployment."""

from __future__ import annotations

import json

import pytest

from skydeck.core import Action, IllegalAction
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.state import BATTLE, DEPLOY, LAST, PREP
from tests.games.conflict.helpers import load, prepared


def dump(st) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


def refused(st, action: Action, seat: int, match: str) -> None:
    before = dump(st)
    with pytest.raises(IllegalAction, match=match):
        st.apply(action, seat)
    assert dump(st) == before


def without_catalogue(view: dict) -> str:
    """The view minus the public card catalogue (which names every ship design)."""
    return json.dumps({k: v for k, v in view.items() if k != "ships"})


def place(x: int, y: int, a: int) -> Action:
    return Action("place", (x, y, a))


# --- options -----------------------------------------------------------------------


def test_options_are_validated_with_clear_errors() -> None:
    with pytest.raises(ValueError, match="scale"):
        load(scale="skirmish")
    with pytest.raises(ValueError, match="race"):
        load(races=["wiss", "zorg"])
    with pytest.raises(ValueError, match="repeats"):
        load(races=["vak", "vak"])
    with pytest.raises(ValueError, match="variant"):
        load(variants=["asteroids"])
    with pytest.raises(ValueError, match="meteors"):
        load(variants=["meteor"], meteors=6)
    with pytest.raises(ValueError, match="deployment"):
        load(deployment="slow")
    game = load(3, scale="war", races=["hexai", "vak", "wiss"])
    assert (game.credits, game.seconds, game.cubes_per_source) == (30, 120, 5)
    assert game.options["races"] == ["hexai", "vak", "wiss"]


# --- preparation -------------------------------------------------------------------


def test_fleets_are_bought_within_the_credit_limit() -> None:
    st = load(scale="dispute").new(1)  # 10 credits
    assert st.phase == PREP and st.to_move == (0, 1)
    for ship in ("wiss.eclipse_1", "wiss.halo_1"):  # 5 + 4
        st.apply(Action("buy", (ship,)), 0)
    assert st.credits_left(0) == 1
    refused(st, Action("buy", ("wiss.lancer_1",)), 0, "costs 2 credits; only 1 left")
    assert Action("buy", ("wiss.lancer_1",)) not in st.legal_actions(0)
    assert Action("buy", ("wiss.glimmer_1",)) in st.legal_actions(0)
    assert not any(a.kind == "sell" for a in st.legal_actions(0))  # undo takes back a buy


def test_only_own_regular_ships_are_bought() -> None:
    st = load().new(1)
    refused(st, Action("buy", ("vak.raider_1",)), 0, "not a ship of the wiss fleet")
    refused(st, Action("buy", ("wiss.flagship",)), 0, "always in the deck")
    refused(st, Action("buy", ("wiss.cargo",)), 0, "always in the deck")
    st.apply(Action("buy", ("wiss.lancer_1",)), 0)
    refused(st, Action("buy", ("wiss.lancer_1",)), 0, "already in your fleet")
    refused(st, Action("sell", ("wiss.lancer_1",)), 0, "not a Preparation action")


def test_fleet_choice_is_secret() -> None:
    st = load().new(1)
    events = st.apply(Action("buy", ("wiss.eclipse_1",)), 0)
    assert events[0].for_seat(1) is None and events[0].for_seat(None) is None
    for seat in (1, None):
        assert "eclipse" not in without_catalogue(st.view(seat))
    assert st.view(0)["seats"][0]["fleet"] == ["wiss.eclipse_1"]
    assert st.view(1)["seats"][0]["fleet"] is None


def test_deck_is_cargo_on_top_shuffled_middle_flagship_at_bottom() -> None:
    game = load()
    fleet = ["wiss.lancer_1", "wiss.lancer_2", "wiss.tempest_1", "wiss.glimmer_1"]
    st = prepared(game, [fleet, []], seed=3)
    c = game.content
    assert st.phase == DEPLOY and st.to_move == (0, 1)
    assert st.hands[0] == c.by_id["wiss.cargo"]  # drawn at once: the top card
    assert st.decks[0][0] == c.by_id["wiss.flagship"]  # the bottom
    assert sorted(st.decks[0][1:]) == sorted(c.by_id[s] for s in fleet)
    assert st.decks[1] == [c.by_id["vak.flagship"]]
    # the middle is shuffled by the seed: some seed gives another order
    orders = {tuple(prepared(game, [fleet, []], seed=s).decks[0][1:]) for s in range(8)}
    assert len(orders) > 1


# --- deployment --------------------------------------------------------------------


def test_deployment_is_simultaneous_and_draws_the_next_card() -> None:
    game = load()
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(200, 200, 0), 1)  # seat 1 first: no turn order
    assert st.hands[1] == game.content.by_id["vak.raider_1"]
    st.apply(place(600, 300, 90), 0)
    assert st.to_move == (0, 1)
    assert [c[0] for c in st.cards] == [
        game.content.by_id["vak.cargo"],
        game.content.by_id["wiss.cargo"],
    ]


def test_placements_may_not_touch_overlap_or_leave_the_table() -> None:
    st = prepared(load(), [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)  # spans x 68.5..131.5
    refused(st, place(163, 100, 0), 1, "touch or overlap")
    refused(st, place(120, 150, 30), 1, "touch or overlap")
    refused(st, place(31, 300, 0), 1, "leave")
    refused(st, place(950, 300, 0), 1, "off the")
    refused(st, place(200, 300, 360), 1, "angle")
    refused(st, Action("place", (200.5, 300, 0)), 1, "whole numbers")
    refused(st, Action("place", (200, 300)), 1, "three whole numbers")
    st.apply(place(164, 100, 0), 1)  # 1 mm gap: fine


def test_legal_placements_are_a_finite_grid_of_legal_spots() -> None:
    st = prepared(load(), [[], []])
    st.apply(place(450, 300, 45), 0)
    acts = st.legal_actions(1)
    assert Action("done") in acts
    spots = [a.args for a in acts if a.kind == "place"]
    assert 100 < len(spots) < 400
    sh = st.game.shapes
    placed = sh.rect(450, 300, 45)
    for x, y, a in spots:
        assert g.rects_clear(sh.rect(x, y, a), placed)
        assert g.inside_table(sh.rect(x, y, a), sh.width, sh.height)
    assert not any((x, y) == (450, 300) for x, y, _ in spots)


def test_timeout_then_each_holder_places_or_withdraws_the_card_in_hand() -> None:
    game = load(deployment="timed")
    st = prepared(game, [["wiss.lancer_1", "wiss.tempest_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    st.apply(Action("timeout"), 0)  # the server's clock, sent as any seat to move
    assert st.phase == LAST and st.decks == [[], []]
    assert st.to_move == (0, 1)
    st.apply(place(300, 100, 0), 0)  # seat 0 lifts its finger: deployed
    assert st.to_move == (1,)
    refused(st, place(500, 300, 0), 0, "may not act")
    st.apply(Action("done"), 1)  # seat 1 takes its card back
    assert st.phase == BATTLE
    assert len(st.cards) == 3


def test_cargo_cubes_are_loaded_when_deployment_ends() -> None:
    for players, cubes in ((2, 8), (3, 5), (4, 4)):
        st = prepared(load(players), [[]] * players)
        for seat in range(players):
            st.apply(place(100 + 200 * seat, 100, 0), seat)  # each Cargo ship
        for seat in range(players):
            st.apply(Action("done"), seat)
        assert st.phase != DEPLOY
        assert [c[6] for c in st.cards] == [cubes] * players
        assert st.supply == 16 - cubes * players


def test_timeout_is_only_for_timed_deployment() -> None:
    st = prepared(load(deployment="light_speed"), [[], []])
    refused(st, Action("timeout"), 0, "timed")
    assert Action("timeout") not in st.legal_actions(0)


def test_light_speed_stop_when_a_seat_deploys_its_last_card() -> None:
    game = load(deployment="light_speed")
    st = prepared(game, [[], ["vak.raider_1", "vak.raider_2"]])
    st.apply(place(100, 100, 0), 0)  # Cargo; the Flagship is next and last
    st.apply(place(800, 500, 0), 1)
    st.apply(place(300, 100, 0), 0)  # the Flagship: seat 0 is out of cards -> stop
    assert st.phase == LAST and st.stopped_by == 0
    assert st.to_move == (1,)  # seat 1 still holds a Raider; its deck is back in the box
    assert st.decks[1] == []
    st.apply(place(600, 300, 90), 1)
    assert st.phase == BATTLE


def test_done_withdraws_the_card_in_hand_and_the_rest() -> None:
    st = prepared(load(), [["wiss.lancer_1"], []])
    st.apply(Action("done"), 0)
    assert st.to_move == (1,) and st.hands[0] == -1 and st.decks[0] == []
    refused(st, Action("done"), 0, "may not act")


def test_timed_deployment_ends_by_itself_when_every_card_is_down() -> None:
    st = prepared(load(), [[], []])
    for x in (100, 300):
        st.apply(place(x, 100, 0), 0)
        st.apply(place(x, 400, 180), 1)
    assert st.phase == BATTLE  # no clock needed


def test_hand_and_deck_order_are_hidden() -> None:
    game = load()
    st = prepared(game, [["wiss.tempest_1"], ["vak.spear_1"]])
    st.apply(place(100, 100, 0), 0)  # seat 0 now holds its Tempest
    v1 = without_catalogue(st.view(1))
    assert "tempest" not in v1
    assert st.view(0)["seats"][0]["hand"] == "wiss.tempest_1"
    assert st.view(1)["seats"][0]["hand"] is None and st.view(1)["seats"][0]["holding"]
    assert st.view(1)["seats"][0]["deck"] == 1  # the pile's size is public
    sample = st.resample(1, __import__("skydeck").core.Rng(5))
    assert sample.view(1) == st.view(1)


def test_meteors_are_placed_before_deployment_with_the_cubes() -> None:
    game = load(variants=["meteor"], meteors=5)
    st = prepared(game, [[], []])
    mets = [c for c in st.cards if c[1] == -1]
    assert len(mets) == 5 and all(c[6] == 3 for c in mets)  # 16 cubes, 3 each, 1 left
    assert st.supply == 1
    assert st.hands[0] == game.content.by_id["wiss.flagship"]  # no Cargo ship in decks
    sh = game.shapes
    rects = [sh.rect(c[2], c[3], c[4]) for c in mets]
    assert all(g.rects_clear(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :])


def test_resample_redraws_what_the_seat_cannot_know() -> None:
    from skydeck.core import Rng

    game = load(scale="war")
    fleet0 = ["wiss.tempest_1", "wiss.lancer_1", "wiss.glimmer_1", "wiss.halo_1"]
    st = prepared(game, [fleet0, ["vak.spear_1", "vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)  # seat 0 now holds one of its four ships
    rng = Rng(9)
    hands, fleets = set(), set()
    for _ in range(30):
        sample = st.resample(1, rng.spawn())
        assert sample.view(1) == st.view(1)
        hands.add(sample.hands[0])
        fleets.add(tuple(sorted(sample.fleets[0])))
        cost = sum(game.content.ships[i].cost for i in sample.fleets[0])
        assert cost <= game.credits and len(sample.fleets[0]) == 4
        assert sample.decks[0][0] == game.content.by_id["wiss.flagship"]  # public knowledge
    assert len(hands) > 3 and len(fleets) > 3
    # a seat's own deck order is unknown to it as well, but its hand is not
    own = {tuple(st.resample(0, rng.spawn()).decks[0]) for _ in range(20)}
    assert len(own) > 1
    assert {st.resample(0, rng.spawn()).hands[0] for _ in range(5)} == {st.hands[0]}


def test_a_buy_is_taken_back_with_undo_but_a_placement_is_not() -> None:
    from skydeck.core.record import Match

    match = Match(load(), seed=1)
    match.play(0, "buy wiss.tempest_1")
    assert match.can_undo()
    match.undo()
    assert match.state.fleets[0] == []
    match.play(0, "ready")
    match.play(1, "ready")  # decks are shuffled: no undo across that
    assert not match.can_undo()
    match.play(0, "place 100 100 0")  # a card is revealed: final
    assert not match.can_undo()
