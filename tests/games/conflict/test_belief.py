"""``ConflictGame.from_view``: a full state rebuilt from one seat's view (belief.py).

Scenarios build exact positions (who bought what, what is on the table, who holds a
card) and check what the inversion may and may not draw; property tests check random
positions: the rebuilt state shows the same view and legal actions, and depends on the
view alone (two true states with the same view give the same sample for one rng).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skydeck.core import Action, Rng
from skydeck.games.conflict.state import ConflictState
from tests.games.conflict.helpers import load, prepared

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RNGS = range(40)


def invert(state: ConflictState, seat: int | None, k: int) -> ConflictState:
    """from_view on the view as a client would send it (JSON), checked to match."""
    view = state.view(seat)
    sent = json.loads(json.dumps(view))
    s2 = state.game.from_view(sent, seat, Rng(k))
    assert s2.view(seat) == view
    assert s2.to_move == state.to_move
    if seat is not None:
        assert s2.legal_actions(seat) == state.legal_actions(seat)
    return s2


def ids(state: ConflictState, cards: list[int]) -> list[str]:
    ships = state.game.content.ships
    return [ships[i].id for i in cards]


def cost(state: ConflictState, cards: list[int]) -> int:
    ships = state.game.content.ships
    return sum(ships[i].cost for i in cards)


def assert_legal_fleet(state: ConflictState, seat: int) -> None:
    """Distinct regular ships of the seat's race within the scale's credits."""
    game = state.game
    fleet = state.fleets[seat]
    regulars = set(game.content.regulars_of(game.races[seat]))
    assert len(set(fleet)) == len(fleet)
    assert set(fleet) <= regulars
    assert cost(state, fleet) <= game.credits


def placed_by(state: ConflictState, seat: int) -> list[int]:
    return [c[0] for c in state.cards if c[1] == seat]


def place_first(state: ConflictState, seat: int) -> None:
    state.apply(state.legal_actions(seat)[0], seat)


# --- Preparation -------------------------------------------------------------------------
def test_ready_opponent_has_a_maximal_purchase_of_its_race_within_the_credits() -> None:
    game = load(2, scale="conflict")
    state = game.new(1)
    state.apply(Action("buy", ("vak.needle_1",)), 1)
    state.apply(Action("ready"), 1)
    ships = game.content.ships
    sizes = set()
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert_legal_fleet(s2, 1)
        fleet = s2.fleets[1]
        left = game.credits - cost(s2, fleet)
        unbought = [i for i in game.content.regulars_of("vak") if i not in fleet]
        assert all(ships[i].cost > left for i in unbought), "most credits are spent"
        sizes.add(len(fleet))
        assert s2.fleets[0] == [] and s2.decks == [[], []] and s2.hands == [-1, -1]
    assert len(sizes) > 1, "fleets are drawn, not fixed"


def test_unready_opponent_has_a_partial_purchase_of_its_race() -> None:
    game = load(2, scale="war")
    state = game.new(1)
    sizes = set()
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert_legal_fleet(s2, 1)
        assert not s2.ready[1] and 1 in s2.to_move
        sizes.add(len(s2.fleets[1]))
    assert min(sizes) < max(sizes), "a seat still choosing has bought some part"


def test_own_fleet_and_credits_are_kept_in_preparation() -> None:
    game = load(2, scale="dispute")
    state = game.new(2)
    for ship in ("wiss.glimmer_1", "wiss.warden_2", "wiss.lancer_3"):
        state.apply(Action("buy", (ship,)), 0)
    for k in range(10):
        s2 = invert(state, 0, k)
        assert sorted(ids(s2, s2.fleets[0])) == ["wiss.glimmer_1", "wiss.lancer_3", "wiss.warden_2"]
        assert s2.credits_left(0) == 10 - 2 - 3 - 2
        # the seat's own choices go on exactly as they would have
        assert s2.legal_actions(0) == state.legal_actions(0)


# --- Deployment: the deck rule -----------------------------------------------------------
def test_opponent_deck_at_the_start_holds_cargo_in_hand_and_flagship_at_the_bottom() -> None:
    game = load(2, scale="conflict")
    state = prepared(game, [["wiss.glimmer_1", "wiss.halo_1"], ["vak.needle_1", "vak.spear_1"]])
    content = game.content
    for k in range(20):
        s2 = invert(state, 0, k)
        assert s2.hands[1] == content.cargo_of("vak")  # the Cargo ship is on top
        deck = s2.decks[1]
        assert len(deck) == 3  # two bought ships above the Flagship (the count is public)
        assert deck[0] == content.flagship_of("vak")  # bottom card
        assert set(deck[1:]) <= set(content.regulars_of("vak"))
        assert_legal_fleet(s2, 1)
        assert sorted(s2.fleets[1]) == sorted(deck[1:])


def test_meteor_variant_decks_have_no_cargo_ship() -> None:
    game = load(2, scale="conflict", variants=["meteor"], meteors=2)
    state = prepared(game, [["wiss.glimmer_1"], ["vak.needle_1", "vak.spear_1", "vak.raider_1"]])
    content = game.content
    for k in range(20):
        s2 = invert(state, 0, k)
        assert s2.hands[1] in content.regulars_of("vak")  # the first drawn: a bought ship
        assert s2.decks[1][0] == content.flagship_of("vak")
        assert len(s2.decks[1]) == 3
        assert content.cargo_of("vak") not in s2.decks[1] + [s2.hands[1]]
        assert s2.fleets[1] == [s2.hands[1], *s2.decks[1][1:][::-1]]


def test_deployed_cards_stay_and_are_never_drawn_again() -> None:
    game = load(2, scale="war")
    fleets = [["wiss.glimmer_1", "wiss.halo_1"], ["vak.needle_1", "vak.spear_1", "vak.bulwark_1"]]
    state = prepared(game, fleets, seed=4)
    for _ in range(3):  # the Cargo ship and two bought ships go down
        place_first(state, 1)
    on_table = placed_by(state, 1)
    assert ids(state, on_table)[0] == "vak.cargo"
    regulars_down = on_table[1:]
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert placed_by(s2, 1) == on_table
        hidden = s2.decks[1] + [s2.hands[1]]
        assert not set(hidden) & set(regulars_down)
        assert len(s2.decks[1]) == len(state.decks[1]) and s2.hands[1] >= 0
        assert s2.fleets[1][:2] == regulars_down
        assert_legal_fleet(s2, 1)


def test_seat_that_deployed_its_flagship_has_no_other_ship() -> None:
    # a real clock: after the stop, seat 0 still holds its card (waiting for the report)
    game = load(2, scale="war", deployment="light_speed", clock="real")
    state = prepared(game, [["wiss.glimmer_1", "wiss.halo_1"], ["vak.needle_1"]], seed=3)
    for _ in range(3):  # Cargo ship, the one bought ship, the Flagship: the stop
        place_first(state, 1)
    assert state.phase == "last_card"
    for k in range(20):
        s2 = invert(state, 0, k)
        assert ids(s2, s2.fleets[1]) == ["vak.needle_1"]
        assert s2.hands[1] == -1 and s2.decks[1] == []


def test_own_hand_and_deck_contents_are_kept_only_the_order_is_drawn() -> None:
    game = load(2, scale="war")
    mine = ["wiss.glimmer_1", "wiss.halo_1", "wiss.lancer_2", "wiss.warden_1"]
    state = prepared(game, [mine, ["vak.needle_1"]], seed=5)
    place_first(state, 0)  # the Cargo ship; a bought ship is now in hand
    hand = state.hands[0]
    orders = set()
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert s2.hands[0] == hand
        assert sorted(s2.decks[0]) == sorted(state.decks[0])
        assert s2.decks[0][0] == game.content.flagship_of("wiss")
        assert sorted(s2.fleets[0]) == sorted(state.fleets[0])
        orders.add(tuple(s2.decks[0]))
    assert len(orders) > 1, "one's own deck order is hidden from oneself too"


def test_tight_budget_still_draws_the_public_count_of_ships() -> None:
    """Six ships in a 10-credit Dispute: random sets almost never fit, so the sampler
    starts from the cheapest set and swaps within the credits."""
    game = load(2, scale="dispute")
    cheap = ["vak.needle_1", "vak.needle_2", "vak.needle_3", "vak.raider_1"]
    cheap += ["vak.raider_2", "vak.harrier_1"]
    state = prepared(game, [["wiss.glimmer_1"], cheap], seed=6)
    assert len(state.decks[1]) == 7  # six bought ships and the Flagship
    fleets = set()
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert len(s2.fleets[1]) == 6
        assert_legal_fleet(s2, 1)
        fleets.add(tuple(sorted(s2.fleets[1])))
    assert len(fleets) > 1


# --- after the decks went back to the box -----------------------------------------------
def test_stop_holders_keep_a_card_that_the_deck_rule_allows() -> None:
    game = load(3, scale="conflict", deployment="light_speed", clock="real")
    fleets = [[], ["vak.needle_1", "vak.spear_1"], ["tetrakori.shard_1"]]
    state = prepared(game, fleets, seed=7)
    place_first(state, 1)  # seat 1: Cargo ship down, a bought ship in hand
    place_first(state, 0)
    place_first(state, 0)  # seat 0's Flagship, its last card: stop
    assert state.phase == "last_card" and state.to_move == (1, 2)
    content = game.content
    for k in RNGS:
        s2 = invert(state, 0, k)
        assert s2.hands[2] == content.cargo_of("tetrakori")  # nothing down yet: the Cargo
        assert s2.hands[1] in (*content.regulars_of("vak"), content.flagship_of("vak"))
        assert s2.decks == [[], [], []] and s2.hands[0] == -1
        for seat in (1, 2):
            assert_legal_fleet(s2, seat)
        # the rebuilt state finishes the match
        while not s2.is_over:
            s2.apply(s2.legal_actions(s2.to_move[0])[-1], s2.to_move[0])


def test_seat_that_said_done_gets_a_purchase_including_its_deployed_ships() -> None:
    game = load(2, scale="war")
    state = prepared(game, [["wiss.glimmer_1"], ["vak.needle_1", "vak.spear_1"]], seed=8)
    place_first(state, 1)
    place_first(state, 1)
    state.apply(Action("done"), 1)
    down = [i for i in placed_by(state, 1) if game.content.ships[i].role == "ship"]
    for k in range(20):
        s2 = invert(state, 0, k)
        assert s2.fleets[1][: len(down)] == down
        assert_legal_fleet(s2, 1)
        assert s2.done[1] and s2.hands[1] == -1 and s2.decks[1] == []


def test_battle_plays_on_exactly_as_the_true_state() -> None:
    """Nothing hidden is left in the Battle: the rebuilt state fires the same shots."""
    game = load(2, scale="conflict")
    state = prepared(game, [["wiss.lancer_1", "wiss.halo_1"], ["vak.spear_1", "vak.raider_1"]])
    while state.phase != "battle":
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[len(acts) // 3], seat)
    state.apply(Action("fire"), 0)
    s2 = invert(state, None, 3)
    while not state.is_over:
        state.apply(Action("fire"), 0)
        s2.apply(Action("fire"), 1)
        assert s2.view(None) == state.view(None)
    assert s2.scores == state.scores and s2.winners == state.winners


# --- views that no state could show --------------------------------------------------------
def _tampered(state: ConflictState, seat: int | None, change: Any) -> dict[str, Any]:
    view = json.loads(json.dumps(state.view(seat)))
    change(view)
    return view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.update(game="stellium"), "Stellar Conflict view"),
        (lambda v: v.update(scale="war"), "scale"),
        (lambda v: v.update(seat=1), "seat 1's, not seat 0's"),
        (lambda v: v["seats"][0].update(race="hexai"), "races"),
        (lambda v: v["seats"][0].update(fleet=["wiss.halo_1", "wiss.halo_2", "wiss.eclipse_1"]),
         "not a purchase"),
        (lambda v: v["seats"][0].update(fleet=["vak.needle_1"]), "not wiss ships"),
        (lambda v: v["seats"][1].update(deck=40), "unseen ships"),
        (lambda v: v["seats"][0].update(hand="wiss.halo_2"), "cannot be next"),
    ],
)  # fmt: skip
def test_impossible_views_are_refused(change: Any, message: str) -> None:
    game = load(2, scale="conflict")
    state = prepared(game, [["wiss.glimmer_1", "wiss.halo_1"], ["vak.needle_1"]], seed=9)
    view = _tampered(state, 0, change)
    with pytest.raises(ValueError, match=message):
        game.from_view(view, 0, Rng(1))


def test_view_of_other_options_is_refused() -> None:
    state = load(2, scale="conflict").new(1)
    with pytest.raises(ValueError, match="players"):
        load(3, scale="conflict").from_view(state.view(0), 0, Rng(1))


# --- properties over random positions --------------------------------------------------------
CONFIGS = [
    {"players": 2, "scale": "war"},
    {"players": 2, "scale": "dispute", "variants": ["meteor"], "meteors": 3},
    {"players": 3, "scale": "conflict", "deployment": "light_speed"},
    {"players": 4, "scale": "dispute", "variants": ["stolen_goods"]},
    {"players": 3, "scale": "dispute", "clock": "real"},
]


def random_position(cfg: dict[str, Any], seed: int, steps: int) -> ConflictState:
    """A random match cut after ``steps``; buying favoured so fleets are large, and a
    timed deployment sometimes ends by the clock."""
    game = load(**cfg)
    state = game.new(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = rng.choice(state.to_move)
        acts = state.legal_actions(seat)
        buys = [a for a in acts if a.kind == "buy"]
        if buys and rng.below(4):
            action = rng.choice(buys)
        elif state.phase == "deployment" and game.real_clock and rng.below(12) == 0:
            # the server's alarm, reporting a free spot for the cards of some seats: they
            # freeze there (the alarm step) until deployed or removed
            spots = [a.args for a in acts if a.kind == "place"]
            held = [s for s in state.to_move if rng.below(2) and spots]
            args = [v for s in held for v in (s, *rng.choice(spots))]
            action, seat = Action("timeout", tuple(args)), state.to_move[0]
        else:
            action = rng.choice(acts)
        state.apply(action, seat)
    return state


@SETTINGS
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    k=st.integers(0, 2**32),
)
def test_inversion_of_random_positions_shows_the_same_view(
    cfg: dict[str, Any], seed: int, steps: int, k: int
) -> None:
    state = random_position(cfg, seed, steps)
    before = json.dumps(state.to_json(), sort_keys=True)
    for seat in [None, *range(state.game.players)]:
        s2 = invert(state, seat, k)
        for o in range(state.game.players):
            assert_legal_fleet(s2, o)
        if not s2.is_over:  # and it plays on
            s2.apply(s2.legal_actions(s2.to_move[0])[-1], s2.to_move[0])
    assert json.dumps(state.to_json(), sort_keys=True) == before


@SETTINGS
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    k=st.integers(0, 2**32),
)
def test_inversion_never_uses_the_true_hidden_parts(
    cfg: dict[str, Any], seed: int, steps: int, k: int
) -> None:
    """Another true state with the same view (other fleets, hands, deck orders) gives
    the very same sample for the same rng: only the view is read."""
    state = random_position(cfg, seed, steps)
    game = state.game
    for seat in range(game.players):
        other = state.resample(seat, Rng(k ^ 0xBEEF))
        assert other.view(seat) == state.view(seat)
        a = game.from_view(state.view(seat), seat, Rng(k))
        b = game.from_view(other.view(seat), seat, Rng(k))
        assert a.to_json() == b.to_json()
