"""Invariants over random matches: components conserved, placements never overlap,
illegal placements refused with the state intact, views never leak hidden choices."""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skydeck.core import Action, IllegalAction, Rng
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.state import ConflictState
from tests.games.conflict.helpers import load

CONFIGS = [
    {"players": 2, "scale": "war"},
    {"players": 2, "scale": "conflict", "variants": ["meteor", "stolen_goods"], "meteors": 2},
    {"players": 3, "scale": "conflict", "deployment": "light_speed"},
    {"players": 4, "scale": "dispute", "variants": ["stolen_goods"]},
]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(cfg: dict, seed: int) -> Iterator[ConflictState]:
    """Every state of a random match; buying is favoured so that fleets are large."""
    game = load(**cfg)
    state = game.new(seed)
    rng = Rng(seed)
    while not state.is_over:
        yield state
        seat = rng.choice(state.to_move)
        acts = state.legal_actions(seat)
        buys = [a for a in acts if a.kind == "buy"]
        if buys and rng.below(4):
            action = rng.choice(buys)
        else:
            action = rng.choice(acts)
        state.apply(action, seat)
    yield state


def check_conserved(s: ConflictState) -> None:
    cubes = s.supply + s.vaporised + sum(c[6] for c in s.cards)
    assert cubes == s.game.content.table.cube_supply
    for seat in range(s.game.players):
        on_ships = sum(c[9].count(seat) for c in s.cards if c[5])
        assert on_ships == s.dealt[seat] - s.returned[seat]


def check_no_overlap(s: ConflictState) -> None:
    sh = s.game.shapes
    rects = [sh.rect(c[2], c[3], c[4]) for c in s.cards if c[5] or s.phase != "over"]
    for i, a in enumerate(rects):
        assert g.inside_table(a, sh.width, sh.height)
        for b in rects[i + 1 :]:
            assert g.rects_clear(a, b)


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_cubes_and_damage_tokens_are_conserved(seed: int, cfg: dict) -> None:
    for s in playout(cfg, seed):
        check_conserved(s)


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_placed_cards_never_touch_or_leave_the_table(seed: int, cfg: dict) -> None:
    last = None
    for s in playout(cfg, seed):
        if s.phase in ("battle", "over") and last is None:
            last = s
            check_no_overlap(s)
    assert last is not None


@SETTINGS
@given(
    st.integers(0, 10_000),
    st.lists(
        st.tuples(st.integers(-50, 950), st.integers(-50, 650), st.integers(-10, 370)),
        min_size=1,
        max_size=25,
    ),
)
def test_illegal_placements_are_refused_and_change_nothing(
    seed: int, spots: list[tuple[int, int, int]]
) -> None:
    game = load(2, scale="war")
    s = game.new(seed)
    for seat in (0, 1):
        for a in s.legal_actions(seat)[:6]:
            if a.kind == "buy":
                s.apply(a, seat)
        s.apply(Action("ready"), seat)
    for i, (x, y, a) in enumerate(spots):
        if s.phase != "deployment":
            break
        seat = s.to_move[i % len(s.to_move)]
        before = json.dumps(s.to_json(), sort_keys=True)
        try:
            s.apply(Action("place", (x, y, a)), seat)
        except IllegalAction as exc:
            assert str(exc)
            assert json.dumps(s.to_json(), sort_keys=True) == before
        else:
            assert 0 <= a < 360
        check_no_overlap(s)


@SETTINGS
@given(
    st.integers(0, 10_000),
    st.integers(0, 6),
    st.lists(
        st.tuples(st.integers(-50, 950), st.integers(-50, 650), st.integers(-10, 370)),
        min_size=4,
        max_size=4,
    ),
    st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_the_alarm_lands_only_legal_reported_cards_and_ends_deployment(
    seed: int, rounds: int, spots: list[tuple[int, int, int]], reporting: list[bool]
) -> None:
    """Whatever the reports say and whatever each player answers after it, after the
    alarm no card touches another or leaves the table, every card in hand is either down
    where it was reported or removed, and nobody can place any more."""
    game = load(4, scale="dispute", clock="real")
    s = game.new(seed)
    for seat in range(4):
        s.apply(Action("ready"), seat)
    rng = Rng(seed)
    for _ in range(rounds):  # a few random placements first
        if s.phase != "deployment":
            break
        seat = rng.choice(s.to_move)
        places = [a for a in s.legal_actions(seat) if a.kind == "place"]
        s.apply(rng.choice(places), seat)
    if s.phase != "deployment":
        return
    holders = s.to_move
    args = [v for seat in holders if reporting[seat] for v in (seat, *spots[seat])]
    before = len(s.cards)
    events = s.apply(Action("timeout", tuple(args)), holders[0])
    frozen = [e.data["seat"] for e in events if e.kind == "frozen"]
    while s.phase == "alarm":  # each frozen card: deployed, removed, or the server closes
        assert set(s.to_move) <= set(frozen)
        seat = rng.choice(s.to_move)
        if rng.below(4) == 0:
            events += s.apply(Action("close"), seat)
        else:
            events += s.apply(rng.choice(s.legal_actions(seat)), seat)
    assert s.phase in ("battle", "over") and all(h == -1 for h in s.hands)
    landed = [e.data for e in events if e.kind == "placed"]
    removed = [e.data["seat"] for e in events if e.kind == "removed"]
    assert sorted([d["seat"] for d in landed] + removed) == sorted(holders)
    assert len(s.cards) == before + len(landed)
    for d in landed:
        assert reporting[d["seat"]] and (d["x"], d["y"], d["angle"]) == spots[d["seat"]]
    check_no_overlap(s)
    assert all(a.kind == "fire" for seat in s.to_move for a in s.legal_actions(seat))


def hidden_ids(s: ConflictState, seat: int | None) -> set[str]:
    """Ship ids chosen by other seats and not (yet) on the table."""
    ships = s.game.content.ships
    placed = {c[0] for c in s.cards}
    out = set()
    for o in range(s.game.players):
        if o == seat:
            continue
        for i in [*s.fleets[o], *s.decks[o], s.hands[o]]:
            if i >= 0 and i not in placed and ships[i].role == "ship":
                out.add(ships[i].id)
    return out


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_views_never_leak_hidden_fleet_choices(seed: int, cfg: dict) -> None:
    for s in playout(cfg, seed):
        for seat in [None, *range(s.game.players)]:
            view = s.view(seat)
            text = json.dumps({k: v for k, v in view.items() if k != "ships"})
            for ship in hidden_ids(s, seat):
                assert f'"{ship}"' not in text, (seat, ship)
            for o, row in enumerate(view["seats"]):
                if o != seat:
                    assert row["fleet"] is None and row["hand"] is None
                    assert row["credits_left"] is None


@SETTINGS
@given(
    st.lists(
        st.one_of(
            st.tuples(st.integers(60, 840), st.integers(60, 540), st.integers(0, 359)),
            st.sampled_from(load().shapes.grid),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_incremental_free_spots_match_a_full_recount(spots: list[tuple[int, int, int]]) -> None:
    sh = load().shapes
    placed: list[tuple[int, int, int]] = []
    free, mask = sh.free_grid([]), sh.free_mask([])
    for spot in spots:
        if sh.placement_error(*spot, placed) is not None:
            continue
        placed.append(spot)
        free = sh.free_after(spot, free)
        mask &= ~sh.blocked_bits(spot)  # the engine's way (ConflictState._place)
        assert free == sh.free_grid(placed) == sh.mask_spots(mask)
        assert sh.mask_actions(mask) == [sh.place_action[p] for p in free]
