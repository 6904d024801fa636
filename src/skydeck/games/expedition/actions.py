"""Legal actions handed out as the same objects again and again.

``act(kind, args)`` is ``Action(kind, args)`` memoised by value (``core.action.shared``,
the memo every engine uses): a re-validation finds the action by identity before
comparing any fields, and the RL catalogue maps a legal list to indexes by identity
(``skydeck.core.catalogue``). ``each(kind, ids)`` is the same for a whole content
table at once: ``act(kind, (ids[i],))`` by list position, built once.
"""

from __future__ import annotations

from skydeck.core import Action
from skydeck.core.action import shared as act

__all__ = ["act", "each"]

#: (kind, id of a content table's ids) -> (those ids, the actions): the ids tuples are
#: the content tables' (``tables.Tables``), held for good, so an id is never reused
_EACH: dict[tuple[str, int], tuple[tuple[str, ...], tuple[Action, ...]]] = {}


def each(kind: str, ids: tuple[str, ...]) -> tuple[Action, ...]:
    """``act(kind, (ids[i],))`` for every i: a Command menu names its cards (Upgrades to
    buy or use, crew on a Solo mission, Expeditions) by id at every decision."""
    hit = _EACH.get((kind, id(ids)))
    if hit is None or hit[0] is not ids:
        hit = _EACH[kind, id(ids)] = (ids, tuple(act(kind, (i,)) for i in ids))
    return hit[1]
