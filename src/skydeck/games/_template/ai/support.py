"""What the generic searches need to know of the template: scores are card totals, so
a difference of a few points matters."""

from skydeck.core.search import GameSupport

SUPPORT = GameSupport(score_scale=5.0)
