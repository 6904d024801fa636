"""Stellium's rules as plain functions of the state (``StelliumState``, in state.py):

- ``legal``: the legal moves of each step;
- ``effects``: what each action does (a draw, a placement, a body's effect, a Mission
  completed or taken, a refill);
- ``phases``: the turn's steps, passed over where they hold no choice.

A turn runs through phases, each decision one action of the right seat:

    DRAW -> PLACE -> EFFECT -> MISSIONS <-> KEEP -> NEW_MISSION -> next player
                         \\-> REFILL (any seat, when a Galaxy was emptied) -/

Phases without a real choice (an empty bag, no Mission that can be completed, an
effect with no target and no token to use instead) are passed over automatically,
with an event saying so.
"""
