"""Legal actions handed out as the same objects again and again.

``act(kind, args)`` is ``Action(kind, args)`` memoised by value: a look-up is about a
third of the cost of building the frozen dataclass, a re-validation finds the action
by identity before comparing any fields, and the RL catalogue maps a legal list to
indexes by object identity (``skydeck.rl.catalogue``). The memo is bounded by the
game's finite action space (every argument is a content id, a cell or a small int).
"""

from __future__ import annotations

from skydeck.core import Action
from skydeck.core.action import Arg

_MEMO: dict[tuple[str, tuple[Arg, ...]], Action] = {}


def act(kind: str, args: tuple[Arg, ...] = ()) -> Action:
    """The one ``Action(kind, args)`` object (equal to a fresh one in every way)."""
    key = (kind, args)
    action = _MEMO.get(key)
    if action is None:
        action = _MEMO[key] = Action(kind, args)
    return action
