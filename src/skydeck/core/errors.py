"""Errors shared by every game."""


class IllegalAction(ValueError):
    """An action that the rules (or the seat's turn) do not allow right now.

    The message always says what was wrong; the state that refused the action is
    left exactly as it was.
    """
