"""OptionSpec checks a value by itself and Game applies every spec (core/options.py):
each kind refused in words naming the game, the option, the value and what is allowed;
ranges, choices, player counts, defaults and normalisation; every registered game's
specs exercised; and any option dict either validates to one that re-validates to
itself or is refused with ValueError, never another exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skydeck
from skydeck.core import Game, OptionSpec, State
from skydeck.registry import game_class, game_ids

SEATS = OptionSpec("colours", "list", None, "colour of each seat", ["red", "blue", "green"])
EXTRAS = OptionSpec("extras", "set", [], "optional rules", ["fog", "ice", "wind"])
LIMIT = OptionSpec("limit", "int", 3, "rounds", min=1, max=5)
SIZE = OptionSpec("size", "choice", "small", "board size", ["small", "large"])
FAST = OptionSpec("fast", "bool", False, "a short game")
NAME = OptionSpec("name", "str", "x", "a name")
HANDICAP = OptionSpec(
    "handicap",
    "int",
    None,
    "tokens: 0-2 alone, 1-4 in pairs",
    by_players={1: {"default": 1, "min": 0, "max": 2}, 2: {"default": 2, "min": 1, "max": 4}},
)
SOLO = OptionSpec(
    "level", "choice", None, "solo only", ["easy", "hard"], players=(1,),
    by_players={1: {"default": "easy"}},
)  # fmt: skip


class Board(Game):
    """A game of options only: one of each kind, and one rule tying two together."""

    id = "board"
    title = "Board"
    player_counts = (1, 2, 3)
    option_specs = (SEATS, EXTRAS, LIMIT, SIZE, FAST, NAME, HANDICAP, SOLO)

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if "ice" in options["extras"] and options["size"] != "large":
            raise ValueError("board: extras 'ice' needs size='large'")
        return options

    def new(self, seed: int) -> State:
        raise NotImplementedError

    def restore(self, obj: dict[str, Any]) -> State:
        raise NotImplementedError


# --- each kind refused in words ---------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"fast": "yes"}, "board: fast must be true or false, got 'yes'"),
        ({"fast": 1}, "board: fast must be true or false, got 1"),
        ({"limit": "3"}, "board: limit must be a whole number 1-5, got '3'"),
        ({"limit": True}, "board: limit must be a whole number 1-5, got True"),
        ({"limit": 3.0}, "board: limit must be a whole number 1-5, got 3.0"),
        ({"limit": 0}, "board: limit must be a whole number 1-5, got 0"),
        ({"limit": 6}, "board: limit must be a whole number 1-5, got 6"),
        ({"size": "huge"}, "board: size must be 'small' or 'large', got 'huge'"),
        ({"size": ["small"]}, r"board: size must be 'small' or 'large', got \['small'\]"),
        ({"name": 7}, "board: name must be a string, got 7"),
        ({"extras": "fog"}, "board: extras must be a list, got 'fog'"),
        ({"extras": ["fog", "sun"]}, "board: unknown extra 'sun'; known: fog, ice, wind"),
        ({"extras": ["sun", 1]}, "board: unknown extras 'sun', 1; known: fog, ice, wind"),
        ({"colours": "red"}, r"board: colours must list one colour per seat \(2\), got 'red'"),
        ({"colours": ["red"]}, r"board: colours must list one colour per seat \(2\)"),
        ({"colours": ["red", "pink"]}, "board: unknown colour 'pink'; known: red, blue, green"),
        (
            {"colours": ["red", "red"]},
            r"board: each seat needs a different colour; \['red', 'red'\] repeats 'red'",
        ),
        ({"handicap": 0}, "board: handicap must be a whole number 1-4 with 2 players, got 0"),
        ({"level": "hard"}, "board: level needs players=1, got 'hard' with 2 players"),
        ({"extras": ["ice"]}, "board: extras 'ice' needs size='large'"),
        ({"colour": ["red"]}, "board: unknown option.s. colour; known options: colours"),
    ],
)
def test_each_kind_is_refused_naming_game_option_value_and_what_is_allowed(
    options: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        Board(players=2, **options)


def test_defaults_are_filled_per_player_count() -> None:
    assert Board(players=2).options == {
        "players": 2,
        "colours": ["red", "blue"],
        "extras": [],
        "limit": 3,
        "size": "small",
        "fast": False,
        "name": "x",
        "handicap": 2,
        "level": None,  # not an option of two players
    }
    solo = Board(players=1).options
    assert solo["colours"] == ["red"] and solo["handicap"] == 1 and solo["level"] == "easy"
    # None is "not given": the default of the player count
    assert Board(players=1, handicap=None, level=None, fast=None).options == solo


def test_ranges_per_player_count() -> None:
    assert Board(players=1, handicap=0).options["handicap"] == 0
    assert Board(players=2, handicap=4).options["handicap"] == 4
    with pytest.raises(ValueError, match="handicap must be a whole number 0-2 with 1 player,"):
        Board(players=1, handicap=3)
    # a count without its own entry keeps the spec's (here: none, any whole number)
    assert Board(players=3, handicap=-7).options["handicap"] == -7
    assert Board(players=3).options["handicap"] is None


def test_an_option_of_other_player_counts_is_refused_and_left_none() -> None:
    assert Board(players=1, level="hard").options["level"] == "hard"
    with pytest.raises(ValueError, match="level needs players=1, got 'easy' with 3 players"):
        Board(players=3, level="easy")


def test_sets_and_lists_are_normalised() -> None:
    g = Board(players=3, extras=("wind", "fog", "wind"), colours=("green", "red", "blue"))
    assert g.options["extras"] == ["fog", "wind"]  # repeats collapse, in choice order
    assert g.options["colours"] == ["green", "red", "blue"]  # seat order kept, a list
    assert Board(players=2, extras={"wind", "fog"}).options["extras"] == ["fog", "wind"]


def test_choices_compare_type_as_well_as_value() -> None:
    spec = OptionSpec("n", "choice", 1, "one or two", [1, 2])
    assert spec.check(2, 2) == 2
    for bad in (True, 1.0, "1"):
        with pytest.raises(ValueError, match="n must be 1 or 2"):
            spec.check(bad, 2)


def test_a_checked_value_checks_to_itself() -> None:
    for spec in Board.option_specs:
        for n in Board.player_counts:
            once = spec.check(None, n)
            assert spec.check(once, n) == once


# --- declarations ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"kind": "float"}, "kind 'float' is not one of"),
        ({"kind": "choice"}, "a choice needs its choices"),
        ({"kind": "set", "choices": []}, "a set needs its choices"),
        ({"kind": "bool", "min": 0}, "only an int has a min or a max"),
        ({"kind": "int", "choices": [1, 5]}, "an int's range is its min and max"),
        ({"kind": "int", "by_players": {2: {"help": "x"}}}, r"by_players\[2\] sets \['help'\]"),
    ],
)
def test_a_bad_declaration_is_refused(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        OptionSpec(**{"name": "o", "default": None, "help": "h", **kwargs})


def test_to_json_keeps_the_lobby_fields_and_adds_the_range() -> None:
    assert LIMIT.to_json() == {
        "name": "limit",
        "kind": "int",
        "default": 3,
        "help": "rounds",
        "choices": [1, 5],  # the lobby's number input reads an int's bounds here
        "players": None,
        "min": 1,
        "max": 5,
        "by_players": None,
    }
    assert SOLO.to_json()["players"] == [1]
    assert HANDICAP.to_json()["by_players"] == {
        "1": {"default": 1, "min": 0, "max": 2},
        "2": {"default": 2, "min": 1, "max": 4},
    }
    assert Board.describe_options()["options"][0]["choices"] == ["red", "blue", "green"]


# --- every registered game's specs ---------------------------------------------------


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_fills_every_option_and_refuses_a_wrong_kind(gid: str) -> None:
    cls = game_class(gid)
    for n in cls.player_counts:
        game = skydeck.load(gid, players=n)
        assert list(game.options) == ["players", *(s.name for s in cls.option_specs)]
        assert skydeck.load(gid, **game.options).options == game.options
        for spec in cls.option_specs:
            if not spec.applies(n):
                assert game.options[spec.name] is None
                continue
            with pytest.raises(ValueError, match=f"^{gid}: {spec.name} must .*got {{'x': 1}}"):
                skydeck.load(gid, players=n, **{spec.name: {"x": 1}})


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_config_validates_to_itself(gid: str) -> None:
    for cfg in game_class(gid).conformance_configs():
        options = skydeck.load(gid, **cfg).options
        assert skydeck.load(gid, **options).options == options


def _values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    choices = list(spec.choices or ["a", "b"])
    junk = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 8),
        st.floats(allow_nan=False),
        st.text(max_size=3),
    )
    item = st.one_of(st.sampled_from(choices), junk)
    return st.one_of(
        st.just(spec.default),
        item,
        st.lists(item, max_size=5),
        st.lists(st.sampled_from(choices), max_size=5),
        st.lists(st.sampled_from(choices), max_size=5, unique=True).map(tuple),
        st.dictionaries(st.text(max_size=2), junk, max_size=2),
        st.lists(st.lists(junk, max_size=2), max_size=2),
    )


def _option_dicts(cls: type[Game]) -> st.SearchStrategy[dict[str, Any]]:
    named = {spec.name: _values(spec) for spec in cls.option_specs}
    return st.fixed_dictionaries(
        {"players": st.sampled_from(cls.player_counts)},
        optional=named,
    )


@pytest.mark.parametrize("cls", [*(game_class(g) for g in game_ids()), Board])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_any_options_validate_to_themselves_or_are_refused(cls: type[Game], data: Any) -> None:
    options = data.draw(_option_dicts(cls))
    try:
        game = cls(**options)
    except ValueError as exc:
        assert str(exc).startswith(f"{cls.id}: ")
        return
    again = cls(**game.options)
    assert again.options == game.options
