"""Actions as small immutable values, with a text and a JSON round trip.

An action is a ``kind`` and a tuple of arguments; each argument is an int, a float, a
word, or a tuple of those (nested as deep as needed). Like python-chess moves, actions
are hashable values: ``Action("launch", ("alpha",))`` equals any other action with the
same kind and arguments, so ``action in state.legal_actions(seat)`` works.

Text notation: ``kind arg arg ...``, tuples written ``(a,b,c)`` without spaces, e.g.
``coordinate (alpha.ship,beta.ship)`` or ``place 12.5 40 90``. Words start with a
letter or ``_`` and may hold letters, digits and ``_ - . : ' / +``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Union

from skydeck.core.errors import IllegalAction

Arg = Union[int, float, str, tuple["Arg", ...]]  # noqa: UP007 - recursive alias

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_\-.:'/+]*\Z")
_INT = re.compile(r"-?\d+\Z")
_FLOAT = re.compile(r"-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?\Z")


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    args: tuple[Arg, ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        return self.kind + " " + " ".join(_arg_text(a) for a in self.args)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": [_arg_json(a) for a in self.args]}

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        # A server reads the same few moves again and again: a flat action read before
        # is found by its words, numbers and their types (so ``true`` never finds ``1``).
        if type(obj) is dict and cls is Action:
            args = obj.get("args", [])
            if type(args) is list:
                try:
                    key = (obj.get("kind"), tuple(args), tuple(map(type, args)))
                    found = _FROM_JSON.get(key)
                except TypeError:  # a nested list (unhashable): read the long way
                    key, found = None, None
                if found is not None:
                    return found
                action = cls._from_json(obj)
                if key is not None and all(t is str or t is int for t in key[2]):
                    # The engine's own object where there is one (``shared``, the same
                    # values of the same types): engines find it by identity.
                    engine = _SHARED.get((action.kind, action.args))
                    if engine is not None and tuple(map(type, engine.args)) == key[2]:
                        action = engine
                    if len(_FROM_JSON) >= _FROM_JSON_MAX:
                        _FROM_JSON.clear()
                    _FROM_JSON[key] = action
                return action
        return cls._from_json(obj)

    @classmethod
    def _from_json(cls, obj: Any) -> Action:
        if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
            raise IllegalAction(f"an action must be an object with a 'kind' string, got {obj!r}")
        args = obj.get("args", [])
        if not isinstance(args, list):
            raise IllegalAction(f"action 'args' must be a list, got {args!r}")
        kind = obj["kind"]
        if not _WORD.match(kind):
            raise IllegalAction(f"bad action kind {kind!r}")
        return cls(kind, tuple(_arg_from_json(a) for a in args))

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"action text must be a string, got {text!r}")
        parts = text.split()
        if not parts:
            raise IllegalAction("empty action text")
        if not _WORD.match(parts[0]):
            raise IllegalAction(f"bad action kind {parts[0]!r} in {text!r}")
        return cls(parts[0], tuple(_parse_arg(p, text) for p in parts[1:]))


#: Flat actions ``from_json`` has read (kind, argument values and types -> the action),
#: started again when full: a client sending endless new junk only fills it.
_FROM_JSON: dict[tuple[Any, tuple[Any, ...], tuple[type, ...]], Action] = {}
_FROM_JSON_MAX = 4096

#: Every action handed out by ``shared``, by value (bounded by the games' finite action
#: spaces: every argument is a content id, a cell or a small number).
_SHARED: dict[tuple[str, tuple[Arg, ...]], Action] = {}


def shared(kind: str, args: tuple[Arg, ...] = ()) -> Action:
    """The one ``Action(kind, args)`` object of this process, equal to a fresh one in
    every way. Engines hand their legal actions out through it: a look-up costs a third
    of building the frozen dataclass, a re-validation finds the action by identity, and
    the RL catalogue maps legal lists to indexes by identity."""
    key = (kind, args)
    action = _SHARED.get(key)
    if action is None:
        action = _SHARED[key] = Action(kind, args)
    return action


def _arg_text(a: Arg) -> str:
    if isinstance(a, tuple):
        return "(" + ",".join(_arg_text(x) for x in a) + ")"
    if isinstance(a, float):
        return repr(a)
    return str(a)


def _arg_json(a: Arg) -> Any:
    if isinstance(a, tuple):
        return [_arg_json(x) for x in a]
    return a


def _arg_from_json(a: Any) -> Arg:
    if isinstance(a, list):
        return tuple(_arg_from_json(x) for x in a)
    if isinstance(a, bool):
        raise IllegalAction(f"booleans are not action arguments: {a!r}")
    if isinstance(a, int):
        return a
    if isinstance(a, float):
        if not math.isfinite(a):
            raise IllegalAction(f"action argument must be finite, got {a!r}")
        return a
    if isinstance(a, str) and _WORD.match(a):
        return a
    raise IllegalAction(f"bad action argument {a!r}")


def _parse_arg(token: str, text: str) -> Arg:
    value, rest = _parse_one(token, 0, text)
    if rest != len(token):
        raise IllegalAction(f"unexpected {token[rest:]!r} in action {text!r}")
    return value


def _parse_one(s: str, i: int, text: str) -> tuple[Arg, int]:
    if i < len(s) and s[i] == "(":
        items: list[Arg] = []
        i += 1
        if i < len(s) and s[i] == ")":
            return (), i + 1
        while True:
            item, i = _parse_one(s, i, text)
            items.append(item)
            if i >= len(s):
                raise IllegalAction(f"unclosed '(' in action {text!r}")
            if s[i] == ",":
                i += 1
                continue
            if s[i] == ")":
                return tuple(items), i + 1
            raise IllegalAction(f"unexpected {s[i]!r} in action {text!r}")
    j = i
    while j < len(s) and s[j] not in ",()":
        j += 1
    tok = s[i:j]
    if _INT.match(tok):
        return int(tok), j
    if _FLOAT.match(tok):
        value = float(tok)
        if not math.isfinite(value):
            raise IllegalAction(f"action argument must be finite, got {tok!r}")
        return value, j
    if _WORD.match(tok):
        return tok, j
    raise IllegalAction(f"bad argument {tok!r} in action {text!r}")
