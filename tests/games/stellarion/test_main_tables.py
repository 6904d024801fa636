"""The main step's legal table is kept per game (``legal.main_actions``) under what
decides it. A key that missed something (the victory piles in co-op, a Shooting Star
left) would hand one position another's table: these tests build such pairs on one
game, and compare every kept table with one built from nothing along random games."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skydeck.core import Rng
from skydeck.games.stellarion import legal
from skydeck.games.stellarion.legal import MAIN
from tests.games.stellarion.helpers import ALL, has, pos, reveal_game

ALPHA = {
    "alpha": "*alpha.ship alpha.nebula",
    "nebula": "*alpha.nebula",
    "stars": "*alpha.stars",
    "planet": "*alpha.planet",
    "gamma": "*gamma.ship gamma.stars gamma.ship",
    "delta": "*delta.ship delta.stars",
}
LAUNCH = "launch alpha1 (alpha,nebula,stars,planet)"


def _again(s):  # type: ignore[no-untyped-def]
    """``s``'s legal table computed anew (the game's kept tables stay)."""
    s._legal = None
    s._table()
    return s


def test_a_full_pile_in_co_op_is_not_served_an_open_piles_table() -> None:
    s = pos(players=2, decks=ALPHA, voyages=[["alpha1"], ["beta1"], [], []])
    assert has(s, LAUNCH)  # the table with empty piles is now kept
    full = s.clone()
    idx = s.game.voyage_index  # type: ignore[attr-defined]
    full.piles[0] = [idx["beta2"], idx["gamma1"]]  # two Galaxies already: no alpha
    assert not has(_again(full), LAUNCH)
    assert has(_again(s), LAUNCH)


def test_no_shooting_star_left_is_not_served_a_table_with_one() -> None:
    decks = {k: v for k, v in ALPHA.items() if k != "stars"}  # the Stars Type is missing
    s = pos(stars=1, decks=decks, voyages=[["alpha1"], [], [], []])
    assert has(s, "launch alpha1 (alpha,nebula,star,planet)")
    spent = s.clone()
    spent.stars = 0
    assert not any(a.kind == "launch" for a in _again(spent).legal_actions(0))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([1, 2]),
    st.lists(st.sampled_from(ALL), unique=True),
    st.integers(0, 10_000),
)
def test_kept_tables_equal_tables_built_anew(players: int, exp: list[str], seed: int) -> None:
    game = reveal_game("one", players=players, expansions=exp)
    rng = Rng(seed)
    compared = 0
    for deal in range(3):  # three games on one game object: its tables are shared
        s = game.new(seed + deal)
        while not s.is_over:
            if s.phase == MAIN:
                kept: dict = {}
                legal.main_actions(s, kept)
                srcs = legal.sources(s)
                srcs.sort()
                built: dict = {}
                legal._main_table(s, srcs, legal.accessible(s), built)
                assert list(kept.items()) == list(built.items())  # order too
                compared += 1
            acts = s.legal_actions(s.turn)
            s.apply(acts[rng.below(len(acts))], s.turn)
    assert compared > 0


def test_kept_tables_stay_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(legal, "MAIN_MEMO_MAX", 8)
    game = reveal_game("one", players=1, expansions=list(ALL))
    rng = Rng(5)
    peak = 0
    for seed in range(3):
        s = game.new(seed)
        while not s.is_over:
            acts = s.legal_actions(s.turn)
            s.apply(acts[rng.below(len(acts))], s.turn)
            peak = max(peak, len(game.main_tables))
    assert peak == 8  # it filled up, and never beyond


def _random_main_steps(game, seeds: range) -> int:  # type: ignore[no-untyped-def]
    """Random play on ``game``; every main step's legal list (the memo's table, or one
    built while it stands aside) compared with its table built anew on a twin game
    (asking the memo twice would make every position a hit). Returns the steps seen."""
    twin = type(game)(**game.options)
    rng = Rng(11)
    seen = 0
    for seed in seeds:
        s = game.new(seed)
        while not s.is_over:
            acts = s.legal_actions(s.turn)
            if s.phase == MAIN:
                t = s.clone()
                t.game = twin
                srcs = legal.sources(t)
                srcs.sort()
                built: dict = {}
                legal._main_table(t, srcs, legal.accessible(t), built)
                assert [a for a in acts if a in built] == list(built)
                seen += 1
            s.apply(acts[rng.below(len(acts))], s.turn)
    return seen


def test_the_memo_stands_aside_where_tables_do_not_come_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Random play almost never meets a table again: after one window of look-ups the
    memo stops keeping tables (and lets go of those it kept), then tries again after
    its rest; the tables handed out are the same either way."""
    monkeypatch.setattr(legal, "MEMO_WINDOW", 64)
    monkeypatch.setattr(legal, "MEMO_REST", 128)
    game = reveal_game("all", players=1)
    seen = _random_main_steps(game, range(40))
    assert seen > 64 + 128
    gate = game.main_gate
    assert gate.rest > 0 or gate.calls < 64  # resting, or judging a fresh window
    assert len(game.main_tables) < 64


def test_the_memo_keeps_tables_that_come_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The same position asked again and again (a search's siblings): every look-up
    after the first is a hit, and the memo never rests."""
    monkeypatch.setattr(legal, "MEMO_WINDOW", 16)
    game = reveal_game("all", players=1)
    s = game.new(3)
    while s.phase != MAIN:
        s.apply(s.legal_actions(s.turn)[0], s.turn)
    for _ in range(100):
        legal.main_actions(s, {})
    assert game.main_gate.rest == 0
    assert len(game.main_tables) == 1
