"""Legal actions handed out as the same objects again and again.

``act(kind, args)`` is ``Action(kind, args)`` memoised by value (``core.action.shared``,
the memo every engine uses): a re-validation finds the action by identity before
comparing any fields, and the RL catalogue maps a legal list to indexes by identity
(``skydeck.core.catalogue``).
"""

from __future__ import annotations

from skydeck.core.action import shared as act

__all__ = ["act"]
