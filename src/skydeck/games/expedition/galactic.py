"""Galactic events (the modules): the points a revealed event pays for what a player did.

Below the effects, the Sensor and Command rules, which all report what a player did
here; it reads and writes only the state's event fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def trigger(st: ExpeditionState, seat: int, kind: str, arg: str = "") -> None:
    """A player did something a revealed Galactic event rewards."""
    if not st.gevents or seat >= st.n:
        return
    evs = st.content.mod.events.events
    for k, card in enumerate(st.gevents):
        e = evs[card]
        if e.trigger != kind:
            continue
        if (e.tier is not None and e.tier != arg) or (e.type is not None and e.type != arg):
            continue
        st.ev_pts[seat][k] = min(e.max, st.ev_pts[seat][k] + e.points)
