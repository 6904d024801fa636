"""Preparation (secret fleets within credits) and simultaneous Deployment."""

from __future__ import annotations

import json

import pytest

from skydeck.core import Action, IllegalAction
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.state import ALARM, BATTLE, DEPLOY, LAST, PREP
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
    for ship in ("wiss.eclipse_1", "wiss.tempest_1"):  # 5 + 3
        st.apply(Action("buy", (ship,)), 0)
    assert st.credits_left(0) == 2
    refused(st, Action("buy", ("wiss.warden_1",)), 0, "costs 3 credits; only 2 left")
    assert Action("buy", ("wiss.warden_1",)) not in st.legal_actions(0)
    assert Action("buy", ("wiss.lancer_1",)) in st.legal_actions(0)
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
    # the others may know that a ship was bought, never which (issue 49)
    for seat in (1, None):
        assert events[0].for_seat(seat) == {"kind": "buy", "seat": 0}
    names = ["Ada", "Bo"]
    told = st.game.describe_event(events[0].for_seat(1), names, st)
    assert told == "Ada adds a ship to the fleet"
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


def test_the_alarm_freezes_the_reported_card_and_its_player_deploys_it() -> None:
    """Issue 13, item 13 and issue 54, item 1: at the alarm players stop drawing; "if
    they are in the process of playing a card, they immediately stop moving it and may
    either lift their finger, deploying it where it is, or choose to remove it". The card
    Player 1 is moving (the server reports it) stops there; Player 1 chooses; a card not
    on the table is removed; nobody places afterwards."""
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1", "wiss.tempest_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    held = st.hands[0]
    # the server's clock, sent as any seat to move: Player 1 is moving its card at
    # (300, 100) turned 90; Player 2 has not put its card on the table
    events = st.apply(Action("timeout", (0, 300, 100, 90)), 0)
    assert [e.kind for e in events] == ["stop", "frozen", "removed"]
    assert events[2].data == {"seat": 1, "why": "it was not on the table"}
    assert st.phase == ALARM and st.to_move == (0,) and st.decks == [[], []]
    assert st.legal_actions(0) == [Action("deploy"), Action("remove")]
    assert st.view(1)["seats"][0]["frozen"] == [300, 100, 90]
    assert len(st.cards) == 2  # not deployed yet: the finger is still on it
    refused(st, place(500, 300, 0), 0, "frozen where it is")
    refused(st, Action("timeout", (0, 500, 300, 0)), 0, "frozen where it is")
    refused(st, Action("deploy", (500, 300, 0)), 0, "no arguments")
    events = st.apply(Action("deploy"), 0)
    assert events[0].kind == "placed" and events[0].data["at_alarm"]
    assert st.phase == BATTLE and st.hands == [-1, -1]
    assert st.cards[-1][:5] == [held, 0, 300, 100, 90]
    assert st.to_move == (0, 1) and st.legal_actions(0) == [Action("fire")]
    refused(st, place(500, 300, 0), 1, "not legal in the battle phase")


def test_after_the_alarm_a_player_may_remove_the_frozen_card() -> None:
    """Issue 54, item 1: "or choose to remove it and not deploy it at all"."""
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    st.apply(Action("timeout", (0, 300, 100, 90, 1, 600, 300, 0)), 0)
    assert st.phase == ALARM and st.to_move == (0, 1)
    events = st.apply(Action("remove"), 0)
    assert events == [] or [e.kind for e in events] == ["removed"]
    assert st.to_move == (1,) and st.hands[0] == -1
    st.apply(Action("deploy"), 1)
    assert st.phase == BATTLE
    assert [(c[1], c[2], c[3]) for c in st.cards] == [(0, 100, 100), (1, 800, 500), (1, 600, 300)]


def test_the_servers_close_deploys_the_unanswered_frozen_cards_if_legal() -> None:
    """Issue 54, item 1: a player who does not answer within the server's grace period
    gets the frozen card deployed where it is (lifting the finger), as before the step."""
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    st.apply(Action("timeout", (0, 300, 100, 90, 1, 600, 300, 0)), 1)
    st.apply(Action("remove"), 1)
    events = st.apply(Action("close"), 0)
    assert [e.kind for e in events][:1] == ["placed"] and st.phase == BATTLE
    assert st.cards[-1][1:5] == [0, 300, 100, 90] and len(st.cards) == 3
    assert Action("close") not in st.legal_actions(0)  # the clock's, never a player's


def test_a_reported_card_on_an_illegal_spot_is_removed() -> None:
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    # Player 1 over Player 2's Cargo ship, Player 2 half off the table
    events = st.apply(Action("timeout", (0, 790, 480, 0, 1, 880, 300, 0)), 1)
    removed = {e.data["seat"]: e.data["why"] for e in events if e.kind == "removed"}
    assert "touch or overlap" in removed[0] and "leave" in removed[1]
    assert len(st.cards) == 2 and st.phase not in (DEPLOY, LAST)


def test_two_frozen_cards_touching_each_other() -> None:
    """Two cards frozen touching each other: neither may be deployed while the other is
    there; if one player removes theirs, the other may deploy; if nobody answers, the
    server's close removes both."""
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 180), 1)
    before = st.clone()
    st.apply(Action("timeout", (0, 450, 300, 0, 1, 500, 300, 0)), 0)
    assert st.phase == ALARM and st.legal_actions(0) == [Action("remove")]
    refused(st, Action("deploy"), 1, "touches another card frozen at the same moment")
    events = st.apply(Action("close"), 0)
    assert [e.data["seat"] for e in events if e.kind == "removed"] == [0, 1]
    assert len(st.cards) == 2 and st.phase in (BATTLE, "over")
    st = before
    st.apply(Action("timeout", (0, 450, 300, 0, 1, 500, 300, 0)), 0)
    st.apply(Action("remove"), 0)
    assert st.legal_actions(1) == [Action("deploy"), Action("remove")]
    st.apply(Action("deploy"), 1)
    assert st.phase == BATTLE and st.cards[-1][1:5] == [1, 500, 300, 0]


def test_the_alarm_step_survives_a_snapshot() -> None:
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], ["vak.raider_1"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(Action("timeout", (0, 300, 100, 90)), 0)
    back = game.restore(json.loads(dump(st)))
    assert back.phase == ALARM and back.frozen == st.frozen and back.to_move == (0,)
    old = st.to_json()
    del old["frozen"]  # stored before the alarm step existed: no card frozen
    assert game.restore(old).frozen == [None, None]


def test_a_bare_timeout_is_refused_under_the_model_clock() -> None:
    """Issue 54, item 5: with the model clock no server clock runs, so nothing may ring
    the alarm from outside (a bare ``timeout`` would remove every card in hand)."""
    st = prepared(load(deployment="timed"), [["wiss.lancer_1"], []])
    refused(st, Action("timeout"), 0, "model clock")
    refused(st, Action("timeout", (0, 300, 100, 0)), 0, "model clock")
    assert not st.accepts(Action("timeout"), 1)
    real = prepared(load(deployment="timed", clock="real"), [["wiss.lancer_1"], []])
    assert real.accepts(Action("timeout"), 0)


def test_a_malformed_alarm_report_is_refused_with_its_fault() -> None:
    game = load(deployment="timed", clock="real")
    st = prepared(game, [["wiss.lancer_1"], []])
    st.apply(place(100, 100, 0), 1)  # Player 2's Cargo ship; its Flagship is in hand
    refused(st, Action("timeout", (0, 300, 100)), 0, "groups of four")
    refused(st, Action("timeout", (0, 300, 100, "up")), 0, "groups of four")
    refused(st, Action("timeout", (0, 300, 100, 0, 0, 500, 100, 0)), 0, "twice")
    refused(st, Action("timeout", (3, 300, 100, 0)), 0, "not playing one")
    st.apply(Action("done"), 1)
    refused(st, Action("timeout", (1, 300, 100, 0)), 0, "not playing one")


def test_the_time_model_gives_each_seat_time_for_a_number_of_cards() -> None:
    """Without a real clock (self-play, simulations) a timed deployment follows the time
    model: a seat's first card takes 3 s, each later one a second more (3 + 4 + 5 + 6 +
    7 = 25 s), so a Dispute's 30 s deploy five cards a seat; that seat's alarm then
    removes the card in hand and the rest of its deck."""
    game = load(deployment="timed", scale="dispute")
    assert game.cards_in_time == 5
    fleet = ["wiss.glimmer_1", "wiss.glimmer_2", "wiss.lancer_1", "wiss.lancer_2"]
    fleet += ["wiss.mistral_1"]  # 10 credits, 7 cards with Cargo and Flagship
    st = prepared(game, [fleet, []])
    spots = [(x, y) for y in (100, 300, 500) for x in (100, 300, 500, 700)]
    events = []
    for x, y in spots[:5]:
        assert 0 in st.to_move
        events = st.apply(place(x, y, 0), 0)
    assert st.deployed_by(0) == 5 and 0 not in st.to_move
    assert st.hands[0] == -1 and st.decks[0] == [] and st.done[0]
    assert [e.data for e in events if e.kind == "time_up"] == [{"seat": 0, "cards": 5}]
    assert st.phase == DEPLOY and st.to_move == (1,)
    st.apply(place(800, 100, 0), 1)
    st.apply(place(800, 300, 0), 1)  # Player 2's two cards: all it has, in time
    assert st.phase == BATTLE
    assert sum(1 for c in st.cards if c[1] == 0) == 5


def test_the_time_model_is_only_for_timed_deployments() -> None:
    assert load(deployment="light_speed").cards_in_time is None
    assert load(deployment="timed", clock="real").cards_in_time is None
    assert [load(scale=s).cards_in_time for s in ("dispute", "conflict", "war")] == [5, 8, 13]


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
    refused(st, Action("timeout"), 0, "Light Speed")
    assert Action("timeout") not in st.legal_actions(0)


def test_light_speed_stop_removes_the_cards_others_hold_in_the_time_model() -> None:
    """The other players "may not play any more cards": nobody is moving a card on the
    table in the model, so the cards in hand are removed at the stop."""
    game = load(deployment="light_speed")
    st = prepared(game, [[], ["vak.raider_1", "vak.raider_2"]])
    st.apply(place(100, 100, 0), 0)  # Cargo; the Flagship is next and last
    st.apply(place(800, 500, 0), 1)
    events = st.apply(place(300, 100, 0), 0)  # the Flagship: seat 0 is out of cards -> stop
    assert st.phase == BATTLE and st.stopped_by == 0
    assert st.decks == [[], []] and st.hands == [-1, -1]
    kinds = [e.kind for e in events]
    stop = kinds.index("stop")
    assert events[stop + 1].kind == "removed" and events[stop + 1].data["seat"] == 1
    assert len(st.cards) == 3


def test_light_speed_stop_with_a_real_clock_waits_for_the_report() -> None:
    """A real table: the card Player 2 is moving when Player 1 calls stop lands exactly
    where it is (the server reports it at once) or is taken back; it cannot be moved."""
    game = load(deployment="light_speed", clock="real")
    st = prepared(game, [[], ["vak.raider_1", "vak.raider_2"]])
    st.apply(place(100, 100, 0), 0)
    st.apply(place(800, 500, 0), 1)
    st.apply(place(300, 100, 0), 0)  # stop
    assert st.phase == LAST and st.stopped_by == 0
    assert st.to_move == (1,) and st.decks[1] == []
    assert st.legal_actions(1) == [Action("done")]
    refused(st, place(600, 300, 90), 1, "stays where it is")
    st.apply(Action("timeout", (1, 600, 300, 90)), 1)
    # "either deployed exactly where they were or removed": its player chooses (the
    # alarm step, as with the timer; RULINGS 16)
    assert st.phase == ALARM and st.legal_actions(1) == [Action("deploy"), Action("remove")]
    st.apply(Action("deploy"), 1)
    assert st.phase == BATTLE and st.cards[-1][1:5] == [1, 600, 300, 90]


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
