"""Errors shared by every game."""


class IllegalAction(ValueError):
    """An action that the rules (or the seat's turn) do not allow right now.

    The message always says what was wrong; the state that refused the action is
    left exactly as it was.
    """


class Unsupported(Exception):
    """A game was asked for a capability it does not declare (e.g. ``Game.from_view``
    on a game whose ``has_from_view`` is False). Not a rules error: callers either
    check the capability flag first or fall back on something else."""
