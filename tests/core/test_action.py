"""Action values: hashing, text and JSON round trips, clear errors on garbage."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skydeck.core import Action, IllegalAction

words = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-.:'/+]{0,8}", fullmatch=True)
scalars = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    words,
)
args = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=12)
actions = st.builds(Action, words, st.lists(args, max_size=5).map(tuple))


@given(actions)
def test_text_round_trip(action: Action) -> None:
    assert Action.parse(str(action)) == action


@given(actions)
def test_json_round_trip(action: Action) -> None:
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_value_semantics() -> None:
    a = Action("launch", ("alpha", ("ship", "nebula")))
    b = Action("launch", ("alpha", ("ship", "nebula")))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert str(a) == "launch alpha (ship,nebula)"
    assert str(Action("pass")) == "pass"
    assert Action.parse("place 12.5 -3 90") == Action("place", (12.5, -3, 90))
    assert Action.parse("x ()") == Action("x", ((),))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("9lives", "bad action kind"),
        ("go (a,b", "unclosed"),
        ("go a)b", "unexpected"),
        ("go !", "bad argument"),
        ("go 1e999", "finite"),
        ("go (a;b)", "bad argument"),
    ],
)
def test_parse_errors_say_what_was_wrong(text: str, fragment: str) -> None:
    with pytest.raises(IllegalAction, match=fragment):
        Action.parse(text)


@pytest.mark.parametrize(
    "obj",
    [
        None,
        3,
        [],
        {"args": []},
        {"kind": 1},
        {"kind": "a", "args": {}},
        {"kind": "a", "args": [True]},
        {"kind": "a", "args": [float("nan")]},
        {"kind": "a b"},
        {"kind": "a", "args": ["x y"]},
    ],
)
def test_from_json_rejects_malformed(obj: object) -> None:
    with pytest.raises(IllegalAction):
        Action.from_json(obj)


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
