"""Legal actions are shared by value (``legal.action``): the same object for the same
action in every game of the process, and always the action a fresh ``Action(kind,
args)`` would be. A memo that mixed two actions up fails here."""

from __future__ import annotations

import skydeck
from skydeck.core import Action, Rng
from skydeck.games.stellarion.content import EXPANSIONS
from skydeck.games.stellarion.legal import action


def test_action_is_the_action_it_names() -> None:
    a = action("coordinate", (("alpha", "beta"),))
    assert a == Action("coordinate", (("alpha", "beta"),)) and type(a) is Action
    assert action("coordinate", (("alpha", "beta"),)) is a
    assert action("coordinate", (("alpha", "gamma"),)) != a
    assert action("end") is action("end", ()) and action("end") == Action("end")


def test_two_games_hand_out_the_same_objects() -> None:
    options = {"players": 2, "expansions": list(EXPANSIONS)}
    one, two = skydeck.load("stellarion", **options), skydeck.load("stellarion", **options)
    rng = Rng(3)
    seen = 0
    for seed in range(3):
        a, b = one.new(seed), two.new(seed)
        while not a.is_over:
            seat = a.to_move[0]
            legal, other = a.legal_actions(seat), b.legal_actions(seat)
            for x, y in zip(legal, other, strict=True):
                assert x is y and x == Action(x.kind, x.args) and str(x) == str(y)
            seen += len(legal)
            choice = rng.below(len(legal))
            a.apply(legal[choice], seat)
            b.apply(other[choice], seat)
    assert seen > 300
