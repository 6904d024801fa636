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


def test_a_flat_action_read_again_is_the_same_value() -> None:
    first = Action.from_json({"kind": "place", "args": ["c4", 2]})
    again = Action.from_json({"kind": "place", "args": ["c4", 2], "extra": 1})
    assert again == first == Action("place", ("c4", 2))
    assert Action.from_json({"kind": "pass"}) == Action("pass")


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ([1], [True]),  # True == 1 and hashes alike: a read of 1 must not let it in
        ([0], [False]),
        ([1], [1.0]),  # read as a float, not as the int action read before
        (["a"], ["a b"]),
    ],
)
def test_a_read_before_never_stands_in_for_a_different_argument(good: list, bad: list) -> None:
    Action.from_json({"kind": "go", "args": good})
    if type(bad[0]) is float:
        read = Action.from_json({"kind": "go", "args": bad})
        assert type(read.args[0]) is float
        return
    with pytest.raises(IllegalAction):
        Action.from_json({"kind": "go", "args": bad})


@given(st.lists(st.one_of(st.integers(-5, 5), st.booleans(), words), max_size=3))
def test_reading_twice_gives_what_one_read_gives(values: list) -> None:
    """The cache of flat reads answers as the full reading would, refusals included."""
    obj = {"kind": "go", "args": values}
    outcomes = []
    for _ in range(2):
        try:
            outcomes.append(Action.from_json(obj))
        except IllegalAction as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]
    if isinstance(outcomes[0], Action):
        assert outcomes[0] == Action("go", tuple(values))
        assert [type(v) for v in outcomes[0].args] == [type(v) for v in values]


def test_the_cache_of_reads_stays_bounded() -> None:
    from skydeck.core import action as module

    for i in range(module._FROM_JSON_MAX + 10):
        Action.from_json({"kind": "n", "args": [i]})
    assert len(module._FROM_JSON) <= module._FROM_JSON_MAX


def test_a_read_finds_the_engines_own_object_only_for_the_same_types() -> None:
    from skydeck.core.action import shared

    engine = shared("lean", ("x", 3))
    assert Action.from_json({"kind": "lean", "args": ["x", 3]}) is engine
    assert Action.from_json({"kind": "lean", "args": ["x", 3]}) is engine  # cached
    floaty = Action.from_json({"kind": "lean", "args": ["x", 3.0]})
    assert floaty == engine and floaty is not engine and type(floaty.args[1]) is float
