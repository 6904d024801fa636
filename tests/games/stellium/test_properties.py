"""Invariants over random play: bodies conserved, refused actions change nothing,
views never leak the Mission Reserve."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import skydeck
from skydeck.core import Action, IllegalAction, Rng
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import CARDS
from tests.games.stellium.helpers import U, accounted, dump

seeds = st.integers(0, 10**6)
players = st.sampled_from([2, 3, 4])


def playout(n: int, seed: int, steps: int) -> StelliumState:
    s = skydeck.load("stellium", players=n).new(seed)
    assert isinstance(s, StelliumState)
    rng = Rng(seed + 99)
    for _ in range(steps):
        if s.is_over:
            break
        seat = s.to_move[0]
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    return s


@settings(max_examples=25, deadline=None)
@given(players, seeds)
def test_38_bodies_always_accounted_for(n: int, seed: int) -> None:
    s = skydeck.load("stellium", players=n).new(seed)
    rng = Rng(seed)
    while not s.is_over:
        assert accounted(s) == [11, 10, 9, 8]
        assert not any(s.board[i] for i in range(U.size) if not U.is_space[i])
        if s.phase == 0:  # a draw is pending: the server's timeout is always accepted,
            # and never offered to a player as a choice
            s.validate(Action("timeout"), s.to_move[0])
            assert Action("timeout") not in s.legal_actions(s.to_move[0])
        seat = s.to_move[0]
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    assert accounted(s) == [11, 10, 9, 8]


@settings(max_examples=25, deadline=None)
@given(players, seeds)
def test_missions_conserved(n: int, seed: int) -> None:
    s = playout(n, seed, 400)
    cards = s.available + s.reserve + s.boxed
    for h in s.hands + s.completed:
        cards += h
        assert len(h) == len(set(h))
    assert sorted(cards) == list(range(len(CARDS)))
    assert all(len(h) <= 3 for h in s.hands)


BAD = [
    "place z9",
    "place a4",
    "place d4",  # a Black Hole
    "place e3 n",  # no such direction on the lattice
    "rotate 90",  # quarter turns belong to no disc here
    "swap c3 d4",  # never into a Black Hole
    "place e2 up",
    "draw moon",
    "swap a1 j7",
    "rotate 360",
    "rotate 0",
    "pull a1 b2",
    "complete m99 (a1,b1,c1)",
    "keep j7",
    "refill star a1",
    "take m99",
    "take",
    "draw",
    "done 1",
]


@settings(max_examples=25, deadline=None)
@given(players, seeds, st.integers(0, 150), st.sampled_from(BAD))
def test_refused_actions_leave_the_state_intact(n: int, seed: int, steps: int, bad: str) -> None:
    s = playout(n, seed, steps)
    if s.is_over:
        return
    before = dump(s)
    seat = s.to_move[0]
    action = Action.parse(bad)
    if action in s.legal_actions(seat):
        return
    try:
        s.apply(action, seat)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{bad} accepted")
    assert dump(s) == before
    for other in range(n):
        if other != seat and s.legal_actions(seat):
            try:
                s.apply(s.legal_actions(seat)[0], other)
            except IllegalAction:
                pass
            else:
                raise AssertionError("out of turn accepted")
    assert dump(s) == before


@settings(max_examples=25, deadline=None)
@given(players, seeds, st.integers(0, 200))
def test_views_do_not_leak_the_reserve_order(n: int, seed: int, steps: int) -> None:
    s = playout(n, seed, steps)
    other = s.clone()
    other.reserve.reverse()
    hidden = {CARDS[c].id for c in s.reserve}
    for seat in [None, *range(n)]:
        view = s.view(seat)
        assert view == other.view(seat)
        assert view["reserve"] == len(s.reserve)
        assert not hidden & set(view["cards"])
        text = json.dumps(view)
        for cid in hidden:
            assert f'"{cid}"' not in text


@settings(max_examples=15, deadline=None)
@given(players, seeds, st.integers(0, 200))
def test_resample_redraws_only_the_reserve(n: int, seed: int, steps: int) -> None:
    s = playout(n, seed, steps)
    sample = s.resample(0, Rng(seed))
    assert sample.view(0) == s.view(0)
    assert sorted(sample.reserve) == sorted(s.reserve)
    assert sample.board == s.board and sample.hands == s.hands


@settings(max_examples=25, deadline=None)
@given(players, seeds)
def test_bodies_enter_black_holes_only_by_push_or_pull(n: int, seed: int) -> None:
    s = skydeck.load("stellium", players=n).new(seed)
    rng = Rng(seed)
    holes = U.holes
    while not s.is_over:
        seat = s.to_move[0]
        a = rng.choice(s.legal_actions(seat))
        before = [s.board[h] for h in holes]
        s.apply(a, seat)
        entered = [h for h, b in zip(holes, before) if s.board[h] and s.board[h] != b]
        if entered:
            comet = a.kind == "place" and len(a.args) == 2
            assert a.kind in ("push", "pull") or comet, f"{a} put a body in a Black Hole"


@settings(max_examples=15, deadline=None)
@given(players, seeds, st.integers(0, 120))
def test_snapshots_never_change(n: int, seed: int, steps: int) -> None:
    s = playout(n, seed, steps)
    snap = s.to_json()
    frozen = json.dumps(snap, sort_keys=True)
    rng = Rng(seed)
    for _ in range(40):
        if s.is_over:
            break
        seat = s.to_move[0]
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    assert json.dumps(snap, sort_keys=True) == frozen
    restored = s.game.restore(json.loads(frozen))
    assert dump(restored) == frozen


@settings(max_examples=15, deadline=None)
@given(players, seeds, st.integers(20, 200))
def test_views_kept_parts_match_a_fresh_build(n: int, seed: int, steps: int) -> None:
    """A view reuses its state's unchanged parts (view.py's ``_Memo``): after every move
    it must equal a view built from nothing (a clone, which keeps no parts), earlier
    views must not change, and a part the move left alone is the same object."""
    s = skydeck.load("stellium", players=n).new(seed)
    rng = Rng(seed + 7)
    before = s.view(None)
    frozen = json.dumps(before, sort_keys=True)
    for _ in range(steps):
        if s.is_over:
            break
        seat = s.to_move[0]
        s.apply(rng.choice(s.legal_actions(seat)), seat)
        view = s.view(seat)
        assert view == s.clone().view(seat)
        assert json.dumps(before, sort_keys=True) == frozen  # the last view left as it was
        for key in ("board", "colours", "discs", "tokens", "cards", "hands"):
            if view[key] == before[key]:
                assert view[key] is before[key], key
        before, frozen = view, json.dumps(view, sort_keys=True)
