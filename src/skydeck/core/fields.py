"""One field table per game state: its copy, its snapshot and its restore, from one list.

A state is plain data (Pgx's lesson): lists of ints, a few scalars, the Rng. Each game
used to spell every field out three times (``clone``, ``to_json``, ``restore``), and a
field added to one and forgotten in another cloned wrongly or saved nothing, silently.
A :class:`FieldTable` is the one place a field is named. From it come:

- ``copy(src, dst)``: a straight-line function generated once (``dst.a = src.a[:]`` per
  field), because ``clone`` is the hottest call of tree search and a loop of
  ``getattr``/``setattr`` costs about twice as much;
- ``dump(src)``: the JSON snapshot, sharing no list with the live state;
- ``load(dst, obj)``: the restore, which names the field that is missing or malformed.

Field kinds are small constructors (``value``, ``ints``, ``int_lists`` ...). A game with an
odd field (a frame of tuples, a card row holding a tuple) gives its own expressions with
:func:`custom`. ``shared`` fields (caches of immutable objects) are copied by reference
and never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

Loader = Callable[[Any], Any]


@dataclass(frozen=True)
class Field:
    """One attribute of a state. ``copy`` and ``dump`` are Python expressions in which
    ``{x}`` stands for the source attribute; ``load`` turns a JSON value back into the
    attribute. ``default`` (a factory) is used when a snapshot older than the field
    lacks it; without one the field is required."""

    name: str
    copy: str | None
    dump: str | None
    load: Loader | None
    default: Callable[[Any], Any] | None = None


def _int_list(v: Any) -> list[int]:
    return [int(x) for x in v]


def _int_lists(v: Any) -> list[list[int]]:
    return [[int(y) for y in x] for x in v]


def value(name: str, load: Loader = int, *, default: Callable[[Any], Any] | None = None) -> Field:
    """An immutable scalar (int, str, bool), stored as it is."""
    return Field(name, "{x}", "{x}", load, default)


def integer(name: str, *, default: Callable[[Any], Any] | None = None) -> Field:
    """A scalar stored as an int whatever its Python type (a bool phase flag saves as 0/1)."""
    return Field(name, "{x}", "int({x})", int, default)


def ints(name: str, *, default: Callable[[Any], Any] | None = None) -> Field:
    """A flat list of ints."""
    return Field(name, "{x}[:]", "list({x})", _int_list, default)


def bools(name: str, *, default: Callable[[Any], Any] | None = None) -> Field:
    """A flat list of flags."""
    return Field(name, "{x}[:]", "{x}[:]", lambda v: [bool(x) for x in v], default)


def int_lists(name: str, *, default: Callable[[Any], Any] | None = None) -> Field:
    """A list of lists of ints (a pile per seat, a deck per Galaxy)."""
    return Field(name, "[_v[:] for _v in {x}]", "[list(_v) for _v in {x}]", _int_lists, default)


def derived(name: str, copy: str = "{x}[:]") -> Field:
    """Copied with the state but never stored: the restore recomputes it (a cache of
    what the stored fields imply, such as Stellium's colours of the board)."""
    return Field(name, copy, None, None)


def own(name: str) -> Field:
    """This object's alone: neither copied nor stored (a clone starts from the class's
    default), such as a count of the moves applied to one object."""
    return Field(name, None, None, None)


def shared(name: str) -> Field:
    """A cache of immutable objects, shared with every copy and never stored."""
    return Field(name, "{x}", None, None)


def custom(
    name: str,
    copy: str,
    dump: str,
    load: Loader,
    *,
    default: Callable[[Any], Any] | None = None,
) -> Field:
    """A field with its own copy and dump expressions (``{x}`` is the attribute)."""
    return Field(name, copy, dump, load, default)


class FieldTable:
    """The fields of one game's state, in snapshot order. ``game`` prefixes every error."""

    def __init__(self, game: str, fields: Iterable[Field], env: dict[str, Any] | None = None):
        self.game = game
        self.fields: tuple[Field, ...] = tuple(fields)
        names = [f.name for f in self.fields]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"{game}: field table names {sorted(dup)} twice")
        self.names = tuple(names)
        # names the generated expressions may use (a game's helpers, constants)
        namespace: dict[str, Any] = dict(env or {})

        def copier(fn: str, fields: list[Field]) -> str:
            body = [
                f"    dst.{f.name} = {f.copy.format(x='src.' + f.name)}"
                for f in fields
                if f.copy is not None
            ]
            return "\n".join([f"def {fn}(src, dst):", *(body or ["    pass"])])

        mutable = [f for f in self.fields if f.copy is not None and f.copy != "{x}"]
        dump_items = [
            f"        {f.name!r}: {f.dump.format(x='src.' + f.name)},"
            for f in self.fields
            if f.dump is not None
        ]
        dump_lines = ["def dump(src):", "    return {", *dump_items, "    }"]
        exec(copier("copy", list(self.fields)), namespace)
        exec(copier("copy_mutable", mutable), namespace)
        exec("\n".join(dump_lines), namespace)
        #: every field onto a bare ``__new__`` object
        self.copy: Callable[[Any, Any], None] = namespace["copy"]
        #: only the fields that need their own copy, onto an object whose ``__dict__``
        #: was already updated from the source (scalars and shared caches are there)
        self.copy_mutable: Callable[[Any, Any], None] = namespace["copy_mutable"]
        self.dump: Callable[[Any], dict[str, Any]] = namespace["dump"]

    def load(self, dst: Any, obj: Any, who: str | None = None) -> None:
        """Set every stored field of ``dst`` from the snapshot ``obj``; a missing or
        malformed field is a ValueError naming it (nothing else is guessed). ``who``
        names the game in errors where one table serves several (the template's copies)."""
        game = who or self.game
        if not isinstance(obj, dict):
            raise ValueError(f"{game}: malformed state: a state must be a JSON object")
        for f in self.fields:
            if f.load is None:
                continue
            if f.name not in obj:
                if f.default is None:
                    raise ValueError(f"{game}: malformed state: missing {f.name!r}")
                setattr(dst, f.name, f.default(dst))
                continue
            try:
                setattr(dst, f.name, f.load(obj[f.name]))
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise ValueError(f"{game}: malformed state: field {f.name!r}: {exc}") from None


__all__ = [
    "Field",
    "FieldTable",
    "bools",
    "custom",
    "derived",
    "own",
    "int_lists",
    "integer",
    "ints",
    "shared",
    "value",
]
