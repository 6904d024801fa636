"""The queue of pending frames: automatic ones run until a seat has a decision to make.

Above the effects (effects.py) and the drone's own effects (drone.py), which both queue
frames here and call back into neither: the one place that knows both kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skydeck.core import Event
from skydeck.games.expedition import drone, effects

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def run_pending(st: ExpeditionState, events: list[Event]) -> None:
    """Run automatic frames until a decision is needed or nothing is pending."""
    while st.pending:
        top = st.pending[-1]
        k = top["k"]
        if k == "fx":
            fx = top["fx"]
            if len(fx) <= 1:
                st.pending.pop()
            else:
                top["fx"] = fx[1:]
            if fx:
                effects.execute(st, top["s"], fx[0], events)
        elif k == "harm":
            st.pending.pop()
            effects.apply_harm(st, top, events)
        elif k == "dfx":
            fx = top["fx"]
            if len(fx) <= 1:
                st.pending.pop()
            else:
                top["fx"] = fx[1:]
            if fx:
                drone.execute_drone(st, top, fx[0], events)
        elif k == "new_exp" and not any(st.exp_decks):
            st.pending.pop()  # queued before earlier draws emptied every deck
        else:
            return
