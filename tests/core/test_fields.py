"""The one clone/JSON mechanism (core/fields.py): what a field table generates, and that
every game's state is described by its table completely (a field left out of the table
would be shared between a state and its clone, or lost in a snapshot)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import skydeck
from skydeck.core import Rng
from skydeck.core.fields import (
    FieldTable,
    custom,
    derived,
    int_lists,
    integer,
    ints,
    shared,
    value,
)

GAMES = ("stellarion", "stellium", "conflict", "expedition", "_template")


class Box:
    """A bare object to copy fields between."""


def _table() -> FieldTable:
    return FieldTable(
        "toy",
        [
            value("phase", str),
            integer("flag"),
            ints("deck"),
            int_lists("hands"),
            custom("pairs", "[tuple(_p) for _p in {x}]", "[list(_p) for _p in {x}]", list),
            derived("colours"),
            shared("cache"),
            ints("late", default=lambda s: [7]),
        ],
    )


def _full() -> Box:
    b = Box()
    b.phase, b.flag, b.deck, b.hands = "draw", True, [3, 1], [[1, 2], [5]]
    b.pairs, b.colours, b.cache, b.late = [(1, 2)], [0, 1], {"k": 1}, [4]
    return b


def test_copy_gives_each_mutable_field_its_own_list_and_shares_the_declared_caches() -> None:
    t, src, dst = _table(), _full(), Box()
    t.copy(src, dst)
    assert vars(dst) == vars(src)
    assert dst.deck is not src.deck and dst.colours is not src.colours
    assert all(a is not b for a, b in zip(dst.hands, src.hands, strict=True))
    assert dst.cache is src.cache  # shared: one object for every copy
    dst.hands[0].append(9)
    assert src.hands[0] == [1, 2]


def test_copy_mutable_copies_only_lists_onto_a_dict_copy() -> None:
    t, src = _table(), _full()
    dst = Box()
    dst.__dict__.update(src.__dict__)
    t.copy_mutable(src, dst)
    assert dst.deck is not src.deck and dst.hands[1] is not src.hands[1]
    assert dst.phase == "draw" and dst.cache is src.cache


def test_dump_is_a_snapshot_without_derived_or_shared_fields_and_loads_back() -> None:
    t, src = _table(), _full()
    snap = t.dump(src)
    assert snap == {
        "phase": "draw",
        "flag": 1,
        "deck": [3, 1],
        "hands": [[1, 2], [5]],
        "pairs": [[1, 2]],
        "late": [4],
    }
    src.hands[0].append(8)
    assert snap["hands"][0] == [1, 2]  # shares nothing with the live object
    back = Box()
    t.load(back, snap)
    assert (back.phase, back.flag, back.deck, back.hands, back.late) == (
        "draw",
        1,
        [3, 1],
        [[1, 2], [5]],
        [4],
    )
    assert not hasattr(back, "colours") and not hasattr(back, "cache")


def test_load_names_the_missing_or_malformed_field_and_fills_a_late_field() -> None:
    t = _table()
    snap = t.dump(_full())
    del snap["late"]
    b = Box()
    t.load(b, snap)
    assert b.late == [7]
    broken = dict(snap, hands=[[1, "x"]])
    with pytest.raises(ValueError, match=r"toy: malformed state: field 'hands'"):
        t.load(Box(), broken)
    del broken["deck"]
    with pytest.raises(ValueError, match=r"toy: malformed state: missing 'deck'"):
        t.load(Box(), broken)
    with pytest.raises(ValueError, match="must be a JSON object"):
        t.load(Box(), [1, 2])
    with pytest.raises(ValueError, match="copy: malformed state"):
        t.load(Box(), [1], who="copy")


def test_a_table_naming_a_field_twice_is_refused() -> None:
    with pytest.raises(ValueError, match=r"names \['deck'\] twice"):
        FieldTable("toy", [ints("deck"), int_lists("deck")])


def _table_of(game_id: str) -> FieldTable:
    if game_id == "expedition":
        return importlib.import_module("skydeck.games.expedition.data_state").TABLE
    module = "skydeck.games._template.state" if game_id == "_template" else None
    state = _new(game_id, 0)
    return importlib.import_module(module or type(state).__module__).FIELDS


def _new(game_id: str, seed: int) -> Any:
    if game_id == "_template":
        from skydeck.games._template import GAME

        return GAME().new(seed)
    return skydeck.load(game_id).new(seed)


def _containers(obj: Any, path: str, out: dict[int, str]) -> None:
    """Every list, dict and set reachable from ``obj`` through lists and dicts, by
    identity. Tuples are not entered: a tuple is the engines' sign of data never changed
    in place (Stellar Expedition's pending effects hold the content's own effect rows)."""
    if isinstance(obj, (list, dict, set)):
        out[id(obj)] = path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for k, v in items:
            _containers(v, f"{path}[{k!r}]", out)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_attribute_of_a_state_is_in_its_table(game_id: str) -> None:
    """A field added to a state but not to its table would be shared by clones (or left
    out of them) and missing from snapshots: the table must name every attribute."""
    table = _table_of(game_id)
    s, rng = _new(game_id, 3), Rng(5)
    for _ in range(40):
        if s.is_over:
            break
        seat = s.to_move[0]
        legal = s.legal_actions(seat)
        s.apply(legal[rng.below(len(legal))], seat)
    extra = set(vars(s)) - set(table.names) - {"game", "rng"}
    assert not extra, f"{game_id}: state attributes missing from the field table: {extra}"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_shares_no_list_with_its_state_but_the_declared_caches(game_id: str) -> None:
    table = _table_of(game_id)
    keep = {f.name for f in table.fields if f.copy == "{x}"}  # shared or immutable by design
    rng = Rng(11)
    for seed in range(3):
        s = _new(game_id, seed)
        for step in range(60):
            if s.is_over:
                break
            c = s.clone()
            mine: dict[int, str] = {}
            theirs: dict[int, str] = {}
            for name, v in vars(s).items():
                if name not in keep and name not in ("game", "rng"):
                    _containers(v, name, mine)
            for name, v in vars(c).items():
                if name not in keep and name not in ("game", "rng"):
                    _containers(v, name, theirs)
            both = set(mine) & set(theirs)
            assert not both, f"{game_id} step {step}: clone shares {sorted(mine[i] for i in both)}"
            assert c.to_json() == s.to_json()
            seat = s.to_move[0]
            legal = s.legal_actions(seat)
            s.apply(legal[rng.below(len(legal))], seat)
