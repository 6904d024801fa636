"""Stellar Conflict search support: a playout policy, root candidates, a flat search.

Deployment offers hundreds of placements (a 100 mm x 45 degree grid) every card, and
everything after it is a deterministic battle. A tree over such decisions sees the
rival as a random player: its picks at a node are spread over hundreds of untried
placements. So the search is flat (``GameSupport.flat``): UCB over our few root
candidates, and every other decision (the rival's simultaneous pick, both fleets'
later cards) played by a greedy policy: of a few random free placements, the one the
game's heuristic rates best by exact geometry (``_Context.quick``: what its lasers
would hit, which shots it would block). That models the rival as a player who aims,
and each playout ends with the full battle, judged by the default evaluation.

The root candidates are the heuristic's own pick and its next best placements by the
same rating; in the Preparation phase the heuristic's fleet choice alone (random
playouts judge a fleet far worse than its firepower-per-credit rating).

Measured (``skydeck tournament conflict --agents mcts:hard:clock=cpu,heuristic``; see
docs/journal/2026-11-30-search-strength.md): the old tree search with random playouts
won about half its games against the heuristic, this one about two thirds.

States are rebuilt from the view alone by the engine's own ``ConflictGame.from_view``
(``games/conflict/belief.py``: hidden fleets drawn as legal purchases, decks in the deck
rule's order), which :func:`skydeck.agents.support.support_for` supplies because the
game declares ``has_from_view``.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.search import GameSupport
from skydeck.games.conflict.ai import heuristic

ROOT_PLACEMENTS = 6
#: free placements a playout rates before placing a card (the heuristic rates them all,
#: ~320, which would make a playout 25 times slower)
PLAYOUT_SAMPLE = 12


def rollout(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Buy random ships (never sell) until stopping at random; place each card at the
    best of ``PLAYOUT_SAMPLE`` random free placements by the heuristic's rating; fire."""
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
    hand = state.hands[seat]  # type: ignore[attr-defined]
    if places and hand >= 0:
        picks = [places[rng.below(len(places))] for _ in range(PLAYOUT_SAMPLE)]
        ctx = heuristic._Context(state.game, state, seat, hand)  # type: ignore[arg-type]
        return max(picks, key=lambda a: ctx.quick(*(int(v) for v in a.args)))  # type: ignore[arg-type]
    for kind in ("fire", "done", "ready"):
        if kind in kinds:
            return kinds[kind][0]
    return legal[rng.below(len(legal))]


def candidates(game: Game, view: dict[str, Any], legal: list[Action], seat: int) -> list[Action]:
    """The root actions worth searching, best first. Preparation: the heuristic's fleet
    choice (random playouts judge a fleet far worse than its firepower-per-credit rating).
    Deployment: the heuristic's own pick (which may be ``done``) and its next best
    placements by exact geometry."""
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
    # never "done" while placing: stopping early forfeits the rest of the fleet, and
    # playouts, where the rival deploys no better, can make it look safe (after a stop
    # on a real table "done" is the only action, returned above)
    rest = [a for a in ranked[:ROOT_PLACEMENTS] if a != choice]
    return [choice, *rest]


#: flat search; the first candidate is not trusted over a clearly better one, nor
#: kept when about even (measured: 27 of 40 games against the heuristic without the
#: trust rule, 24.5 of 40 with it)
SUPPORT = GameSupport(
    rollout=rollout, candidates=candidates, score_scale=5.0, flat=True, trust=False
)
