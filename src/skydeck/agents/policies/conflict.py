"""Stellar Conflict search support: a playout policy and root candidates.

Uniform random play in the Preparation phase buys and sells forever, so playouts buy
random ships (never sell) until they stop at random, then deploy at random offered
placements and fire. Deployment offers hundreds of placements (a 100 mm x 45 degree
grid); at the root the search only considers the few that the game's heuristic rates
best by exact geometry (what the lasers would hit, which shots the card would block),
so the budget goes into comparing plausible placements against hidden fleets. The fleet
itself is the heuristic's (see :func:`candidates`).

States are rebuilt from the view alone by the engine's own ``ConflictGame.from_view``
(``games/conflict/belief.py``: hidden fleets drawn as legal purchases, decks in the deck
rule's order), which :func:`skydeck.agents.support.support_for` supplies because the
game declares ``has_from_view``; no match record is needed, so the agent searches in a
server or terminal match just the same.
"""

from __future__ import annotations

from typing import Any

from skydeck.agents.support import GameSupport
from skydeck.core import Action, Game, Rng, State

ROOT_PLACEMENTS = 6
#: playouts rarely deploy more cards: random placements mostly add noise, while the
#: battle of the cards already placed is what tells two candidate placements apart
PLACE_IN_PLAYOUT = 0.2


def rollout(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    if len(legal) == 1:
        return legal[0]
    kinds: dict[str, list[Action]] = {}
    for a in legal:
        kinds.setdefault(a.kind, []).append(a)
    if "buy" in kinds or "ready" in kinds:
        buys = kinds.get("buy")
        if buys and (rng.random() < 0.85 or "ready" not in kinds):
            return buys[rng.below(len(buys))]
        if "ready" in kinds:
            return kinds["ready"][0]
    places = kinds.get("place")
    if places and (rng.random() < PLACE_IN_PLAYOUT or "done" not in kinds):
        return places[rng.below(len(places))]
    for kind in ("fire", "done", "ready"):
        if kind in kinds:
            return kinds[kind][0]
    return legal[rng.below(len(legal))]


def candidates(game: Game, view: dict[str, Any], legal: list[Action], seat: int) -> list[Action]:
    """The root actions worth searching, best first. Preparation: the heuristic's fleet
    choice (random playouts judge a fleet far worse than its firepower-per-credit rating).
    Deployment: the heuristic's own pick (which may be ``done``) and its next best
    placements by exact geometry."""
    from skydeck.games.conflict import agents as heuristic

    h = heuristic.HeuristicAgent(game, seed=0)  # type: ignore[arg-type]
    if view["phase"] == "preparation":
        return [h.choose(view, legal, seat)]
    places = [a for a in legal if a.kind == "place"]
    if len(places) <= ROOT_PLACEMENTS or view["seats"][seat]["hand"] is None:
        return legal
    hand = game.content.by_id[view["seats"][seat]["hand"]]  # type: ignore[attr-defined]
    ctx = heuristic._Context(game, h.table_state(view), seat, hand)  # type: ignore[arg-type]
    ranked = sorted(places, key=lambda a: -ctx.quick(*(int(v) for v in a.args)))  # type: ignore[arg-type]
    choice = h.choose(view, legal, seat)  # its battle-replayed pick goes first
    rest = [a for a in ranked[:ROOT_PLACEMENTS] if a != choice]
    # No "done" unless the heuristic itself would stop: in playouts the rival seldom
    # deploys more cards, so stopping early looks safe to the search and is not (it
    # left most of the fleet in hand; measured: 40% instead of about even).
    return [choice, *rest]


SUPPORT = GameSupport(rollout=rollout, candidates=candidates, score_scale=5.0)
