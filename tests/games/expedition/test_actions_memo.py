"""Legal actions come from a memo (``expedition/actions.py``): the same object for the
same action every time, and always the action a fresh ``Action(kind, args)`` would be.
A memo that mixed two actions up, or handed out a fresh object, fails here."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.core import Action, Rng
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.modules_content import MODULES
from tests.games.expedition.helpers import game

OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4, "modules": list(MODULES), "nothing_bad_happens": True},
    {"players": 1, "solo_rank": "admiral", "modules": list(MODULES)},
]


def test_act_is_the_action_it_names() -> None:
    a = act("warp", (12, "crystal"))
    assert a == Action("warp", (12, "crystal")) and type(a) is Action
    assert act("warp", (12, "crystal")) is a
    assert act("warp", (12, "rm")) is not a and act("warp", (12, "rm")) != a
    assert act("end") is act("end", ()) and act("end") == Action("end")


@pytest.mark.parametrize("options", OPTIONS)
def test_legal_actions_are_memoised_values(options: dict[str, Any]) -> None:
    g = game(**options)
    rng = Rng(11)
    seen = 0
    for seed in range(2):
        st = g.new(seed)
        while not st.is_over:
            movers = st.to_move
            seat = movers[rng.below(len(movers))]
            legal = st.legal_actions(seat)
            again = st.legal_actions(seat)
            for a, b in zip(legal, again, strict=True):
                assert a is b  # the same objects: the RL catalogue's identity path
                fresh = Action(a.kind, a.args)
                assert a == fresh and str(a) == str(fresh) and hash(a) == hash(fresh)
                assert act(a.kind, a.args) is a
            seen += len(legal)
            st.apply(legal[rng.below(len(legal))], seat)
    assert seen > 500


def test_an_offered_action_validates_without_a_second_list_and_nothing_else_slips_by() -> None:
    """``validate`` finds an action from the list just handed out by identity (issue
    52); a list the caller changed, another seat's list, a clone and a move since all
    leave it to the full check."""
    from skydeck.core import IllegalAction
    from tests.games.expedition.helpers import at_command

    st = at_command()
    legal = st.legal_actions(0)
    st.validate(legal[0], 0)
    legal.append(Action("warp", (0, "crystal", 99)))  # the caller's list, not the state's
    with pytest.raises(IllegalAction):
        st.validate(legal[-1], 0)
    with pytest.raises(IllegalAction):
        st.validate(legal[0], 1)  # offered to seat 0, not 1
    twin = st.clone()
    assert twin._offered is None
    twin.validate(Action(legal[0].kind, legal[0].args), 0)  # an equal copy: checked in full
    end = next(a for a in legal if a.kind == "end")
    st.apply(end, 0)
    assert st._offered is None
