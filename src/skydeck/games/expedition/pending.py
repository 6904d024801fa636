"""The queue of pending frames: automatic ones run until a seat has a decision to make.

Above the effects (effects.py) and the drone's own effects (drone.py), which both queue
frames here and call back into neither: the one place that knows both kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Event
from skydeck.games.expedition import drone, effects

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def _next_effect(st: ExpeditionState, top: dict[str, Any]) -> Any:
    """Take the first effect off an effects frame (the frame goes with its last one);
    None for an empty frame."""
    fx = top["fx"]
    if len(fx) <= 1:
        st.pending.pop()
    else:
        top["fx"] = fx[1:]
    return fx[0] if fx else None


def run_pending(st: ExpeditionState, events: list[Event]) -> None:
    """Run automatic frames until a decision is needed or nothing is pending."""
    while st.pending:
        top = st.pending[-1]
        k = top["k"]
        if k == "fx":
            op = _next_effect(st, top)
            if op is not None:
                effects.execute(st, top["s"], op, events)
        elif k == "harm":
            st.pending.pop()
            effects.apply_harm(st, top, events)
        elif k == "dfx":
            op = _next_effect(st, top)
            if op is not None:
                drone.execute_drone(st, top, op, events)
        elif k == "new_exp" and not any(st.exp_decks):
            st.pending.pop()  # queued before earlier draws emptied every deck
        else:
            return
