"""Per-game search support (view inversion, playout policies, evaluations).

One module per game id, each defining ``SUPPORT: skydeck.agents.support.GameSupport``;
:func:`skydeck.agents.support.support_for` imports them on demand.
"""
