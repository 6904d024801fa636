"""Hypothesis properties over random playouts of every expansion mix: components are
conserved, the Outpost stays legal, knowledge in the view is true, and illegal actions
leave the state byte-identical."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skydeck.core import Action, IllegalAction, Rng
from skydeck.games.stellarion.cards import FACE_NAMES
from skydeck.games.stellarion.legal import BIODOMES
from skydeck.games.stellarion.state import StellarionState
from tests.games.stellarion.helpers import ALL, every_card, full_box, reveal_game

CONFIG = st.tuples(
    st.sampled_from([1, 2]),
    st.lists(st.sampled_from(ALL), unique=True),
    st.integers(0, 10_000),
    st.sampled_from(["one", "all"]),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players: int, exp: list[str], seed: int, reveal: str = "one"):  # type: ignore[no-untyped-def]
    s = reveal_game(reveal, players=players, expansions=exp).new(seed)
    assert isinstance(s, StellarionState)
    rng = Rng(seed)
    voyages = Counter(v for c in s.columns for v in c)
    yield s, voyages
    while not s.is_over:
        acts = s.legal_actions(s.turn)
        s.apply(acts[rng.below(len(acts))], s.turn)
        yield s, voyages


def check_invariants(s: StellarionState, voyages: Counter[int]) -> None:
    game = s.game
    assert every_card(s) == full_box(s)  # every card in exactly one place
    for d in range(8):
        assert all(c >> 5 == d for c in s.decks[d] + s.discards[d])
        n = len(s.decks[d])
        assert s.ktop[d] >= 0 and s.kbot[d] >= 0 and s.ktop[d] + s.kbot[d] <= n
        if s.up[d]:
            assert n > 0 and s.ktop[d] >= 1
    faces = [c & 31 for c in s.outpost]
    assert len(set(faces)) == len(faces) and all(f < 16 for f in faces)
    if s.breakthrough != BIODOMES:
        assert len({f >> 2 for f in faces}) <= 1
    held = Counter(v for c in s.columns for v in c) + Counter(v for p in s.piles for v in p)
    assert held == voyages and set(held.values()) <= {1}
    for p in s.piles:
        assert len({game.voyage_galaxy[v] for v in p}) <= (2 if game.players == 2 else 4)
    if game.glaucous_sun:
        assert game.sun_start <= s.sun <= game.sun_final
        assert s.held <= 4 - len(s.meteors)


@SETTINGS
@given(CONFIG)
def test_components_conserved_and_outpost_legal(cfg: tuple[int, list[str], int, str]) -> None:
    for s, voyages in playout(*cfg):
        check_invariants(s, voyages)


@SETTINGS
@given(CONFIG)
def test_view_knowledge_is_true_and_hides_the_rest(cfg: tuple[int, list[str], int, str]) -> None:
    rng = Rng(cfg[2])
    for i, (s, _) in enumerate(playout(*cfg)):
        if i % 3:
            continue
        v = s.view(0)
        for d, dv in enumerate(v["decks"]):
            real = [FACE_NAMES[c & 31] for c in s.decks[d]]
            assert dv["known_top"] == real[::-1][: len(dv["known_top"])]
            assert dv["known_bottom"] == real[: len(dv["known_bottom"])]
            assert dv["count"] == len(real) and sum(dv["contents"].values()) == len(real)
        other = s.resample(0, rng.spawn())
        assert other.view(0) == v
        assert every_card(other) == every_card(s)


KINDS = [
    "launch",
    "coordinate",
    "traverse",
    "prove",
    "meteor",
    "bottom",
    "discard",
    "forfeit",
    "search",
    "retrieve",
    "stars",
    "place",
    "outpost",
    "take",
    "reveal",
    "end",
    "stop",
]
WORDS = [
    "alpha",
    "beta",
    "ship",
    "planet",
    "alpha.ship",
    "out:alpha.ship",
    "star",
    "alpha1",
    "mirror",
    "blackhole",
    "top",
]
ARG = st.recursive(
    st.one_of(st.sampled_from(WORDS), st.integers(-2, 9)),
    lambda inner: st.lists(inner, max_size=4).map(tuple),
    max_leaves=6,
)


@SETTINGS
@given(CONFIG, st.lists(st.tuples(st.sampled_from(KINDS), st.lists(ARG, max_size=3)), min_size=5))
def test_illegal_actions_never_change_the_state(
    cfg: tuple[int, list[str], int, str], attempts: list[tuple[str, list[object]]]
) -> None:
    for i, (s, _) in enumerate(playout(*cfg)):
        if s.is_over or i % 4:
            continue
        legal = set(s.legal_actions(s.turn))
        for kind, args in attempts:
            action = Action(kind, tuple(args))  # type: ignore[arg-type]
            if action in legal:
                continue
            before = json.dumps(s.to_json(), sort_keys=True)
            try:
                s.apply(action, s.turn)
            except IllegalAction as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{action} accepted")
            assert json.dumps(s.to_json(), sort_keys=True) == before
