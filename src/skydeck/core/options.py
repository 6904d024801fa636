"""One option a game accepts, declared once and checked by its own declaration.

Why here: each game used to re-check its options by hand (27 to 56 lines a game, four
wordings of the same refusal). An :class:`OptionSpec` now says everything a value must
be (its kind, its choices, its range, the player counts it applies to, a default or
range per player count) and checks a value itself; :class:`~skydeck.core.game.Game`
applies every spec, so a game keeps only the rules that tie options together.

The kinds:

``bool``
    true or false.
``int``
    a whole number (never a bool), within ``min``..``max`` where given.
``str``
    a string; one of ``choices`` where given.
``choice``
    one of ``choices``.
``set``
    any number of ``choices``; repeats collapse and the result is in the order of
    ``choices`` (so two spellings of one set are one option dict).
``list``
    one of ``choices`` per seat, every seat a different one, in seat order; the
    default (None) is the first ``players`` choices.

A value of None means "not given": the default of the player count. An option that does
not apply to a player count (``players``) must be left out there and is None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from typing import Any

KINDS = ("bool", "int", "str", "choice", "set", "list")
#: What a per-player-count entry (``by_players``) may set.
COUNTED = ("default", "min", "max")


def _same(a: Any, b: Any) -> bool:
    """Equal and of one type: ``True`` is not the choice ``1``, nor ``1.0`` the ``1``."""
    return type(a) is type(b) and a == b


def _among(value: Any, choices: Sequence[Any]) -> bool:
    return any(_same(value, c) for c in choices)


def _players(n: int) -> str:
    return f"{n} player" if n == 1 else f"{n} players"


def _reprs(values: Sequence[Any]) -> str:
    return ", ".join(repr(v) for v in values)


def either(values: Sequence[Any]) -> str:
    """ "'all' or 'one'", "'dispute', 'conflict' or 'war'" (for refusals)."""
    words = [repr(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


@dataclass(frozen=True)
class OptionSpec:
    """One option: what the lobby shows (``to_json``) and what a value must be
    (``check``). See the module docstring for the kinds."""

    name: str
    kind: str
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    #: The player counts the option applies to (None: all); the lobby shows and
    #: sends it only for those, so a default set-up never carries it elsewhere.
    players: tuple[int, ...] | None = None
    _: KW_ONLY
    min: int | None = None
    max: int | None = None
    #: Per player count, a ``default``, ``min`` or ``max`` that differs from the above.
    by_players: Mapping[int, Mapping[str, Any]] | None = None

    def __post_init__(self) -> None:
        where = f"option {self.name!r}"
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind {self.kind!r} is not one of {either(KINDS)}")
        if self.kind in ("choice", "set", "list") and not self.choices:
            raise ValueError(f"{where}: a {self.kind} needs its choices")
        if self.kind not in ("int",) and (self.min is not None or self.max is not None):
            raise ValueError(f"{where}: only an int has a min or a max")
        if self.kind == "int" and self.choices is not None:
            raise ValueError(f"{where}: an int's range is its min and max, not choices")
        for n, entry in (self.by_players or {}).items():
            extra = sorted(set(entry) - set(COUNTED))
            if extra:
                raise ValueError(f"{where}: by_players[{n}] sets {extra}; it may set {COUNTED}")

    # --- per player count --------------------------------------------------------
    def applies(self, players: int) -> bool:
        return self.players is None or players in self.players

    def at(self, players: int) -> OptionSpec:
        """This spec as it stands for ``players`` (its ``by_players`` entry applied)."""
        entry = (self.by_players or {}).get(players)
        return replace(self, by_players=None, **entry) if entry else self

    # --- checking ----------------------------------------------------------------
    def check(self, value: Any, players: int, game: str = "") -> Any:
        """``value`` (None: not given) as the option dict holds it, for a match of
        ``players``; ValueError naming the game, the option, the value and what is
        allowed otherwise. Checking a checked value gives it back unchanged."""
        where = f"{game}: " if game else ""
        if not self.applies(players):
            if value is None:
                return None
            counts = " or ".join(str(n) for n in self.players or ())
            raise ValueError(
                f"{where}{self.name} needs players={counts}, got {value!r} with {_players(players)}"
            )
        spec = self.at(players)
        if value is None:
            value = spec.default
            if value is None and spec.kind != "list":
                return None  # no default: the game's own rule decides (validate_options)
        counted = players in (self.by_players or {})
        return _CHECKS[spec.kind](spec, value, players, where, counted)

    def to_json(self) -> dict[str, Any]:
        choices = None if self.choices is None else list(self.choices)
        if self.kind == "int" and self.min is not None and self.max is not None:
            choices = [self.min, self.max]  # what the lobby's number input reads
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "choices": choices,
            "players": None if self.players is None else list(self.players),
            "min": self.min,
            "max": self.max,
            "by_players": (
                None
                if self.by_players is None
                else {str(n): dict(e) for n, e in self.by_players.items()}
            ),
        }

    @property
    def item(self) -> str:
        """One entry of a set or list option, for messages: races -> race."""
        return self.name.removesuffix("s")


def _bool(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    if not isinstance(value, bool):
        raise ValueError(f"{where}{spec.name} must be true or false, got {value!r}")
    return value


def _int(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    lo, hi = spec.min, spec.max
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (lo is not None and value < lo)
        or (hi is not None and value > hi)
    ):
        if lo is not None and hi is not None:
            span = f" {lo}-{hi}" if lo >= 0 else f" from {lo} to {hi}"
        elif lo is not None:
            span = f" of at least {lo}"
        else:
            span = "" if hi is None else f" of at most {hi}"
        when = f" with {_players(players)}" if counted else ""
        raise ValueError(f"{where}{spec.name} must be a whole number{span}{when}, got {value!r}")
    return value


def _str(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    if spec.choices is not None:
        return _choice(spec, value, players, where, counted)
    if not isinstance(value, str):
        raise ValueError(f"{where}{spec.name} must be a string, got {value!r}")
    return value


def _choice(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    choices = spec.choices or ()
    if not _among(value, choices):
        raise ValueError(f"{where}{spec.name} must be {either(choices)}, got {value!r}")
    return value


def _unknown(spec: OptionSpec, value: Sequence[Any], where: str) -> None:
    choices = spec.choices or ()
    bad = [x for x in value if not _among(x, choices)]
    if bad:
        what = f"{spec.item} {bad[0]!r}" if len(bad) == 1 else f"{spec.name} {_reprs(bad)}"
        known = ", ".join(str(c) for c in choices)
        raise ValueError(f"{where}unknown {what}; known: {known}")


def _set(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    if not isinstance(value, list | tuple | set | frozenset):
        raise ValueError(f"{where}{spec.name} must be a list, got {value!r}")
    given = list(value)
    _unknown(spec, given, where)
    return [c for c in spec.choices or () if _among(c, given)]


def _list(spec: OptionSpec, value: Any, players: int, where: str, counted: bool) -> Any:
    choices = list(spec.choices or ())
    if value is None:
        if len(choices) < players:
            raise ValueError(f"{where}{spec.name} has no default for {players} players")
        return choices[:players]
    if not isinstance(value, list | tuple) or len(value) != players:
        raise ValueError(
            f"{where}{spec.name} must list one {spec.item} per seat ({players}), got {value!r}"
        )
    _unknown(spec, value, where)
    for i, x in enumerate(value):
        if _among(x, value[:i]):
            raise ValueError(
                f"{where}each seat needs a different {spec.item}; {list(value)!r} repeats {x!r}"
            )
    return list(value)


_CHECKS = {
    "bool": _bool,
    "int": _int,
    "str": _str,
    "choice": _choice,
    "set": _set,
    "list": _list,
}
