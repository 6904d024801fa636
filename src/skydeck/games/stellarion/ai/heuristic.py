"""A Stellarion heuristic agent: plans each turn by greedy look-ahead on states rebuilt
from the view (never the true state).

For every legal action it plays the rest of the turn on a determinised copy (unknown deck
orders dealt at random from the known contents), always taking the follow-up choice that
scores best, and judges the position at the start of the next turn with ``evaluate``:
Voyages taken, how close each Galaxy is to a Launch (its four Types in the Observatory or
the Outpost), whether the cards still needed exist outside the discard piles, how many
cards are left to play with, and the Sun, Meteors, Stars and Theories. What each part
is worth is a ``Weights`` value: ``BASE`` in the base game, ``EXPANSIONS`` (Black Holes
in sight, dearer Meteors, a cheaper Sun) once any expansion is in play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.games.stellarion.cards import BLACK_HOLE
from skydeck.games.stellarion.inverse import from_view
from skydeck.games.stellarion.legal import END, MAIN, OVER
from skydeck.games.stellarion.state import StellarionState


@dataclass(frozen=True)
class Weights:
    """What ``evaluate`` pays for each part of a position. Two sets: the base game's
    (hand-set, 53% of solo games at 1 Shooting Star) and the expansions' (tuned on
    all-four deals, docs/journal/2026-12-03-stellarion-ai.md "A heuristic for the expansions")."""

    voyage: float = 1000.0  # a Voyage in a victory pile
    ready: tuple[float, ...] = (0.0, 15.0, 80.0, 300.0, 700.0)  # k Types of a Galaxy in sight
    star_ready: float = 550.0  # three in sight and a Shooting Star left
    card: float = 4.0  # a card still in a deck
    spare: float = 20.0  # a card no Galaxy still needs
    up: float = 25.0  # a face-up top
    pair: float = 30.0  # a Type that can Coordinate
    no_move: float = 1500.0  # nothing to Coordinate and no Launch in sight
    mirror_and_hole_moves: bool = False  # Mirror + Celestial, or a Traverse, is a move
    short_dead: float = 120.0  # a needed card missing, a copy in a discard pile
    short_gone: float = 400.0  # a needed card missing, no copy to retrieve
    holes: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)  # k Black Holes in the Observatory
    hole_discarded: float = 0.0  # a Black Hole lost to its discard pile
    meteor_pair: float = 400.0  # two Meteor tokens held: a Voyage on demand
    meteor_odd: float = 120.0  # the odd Meteor token held
    sun_cubed: float = 500.0  # the Sun's progress to its final space, cubed
    sun_linear: float = 150.0  # ... and as it is
    theory: float = 250.0  # a Theory proven
    theory_seen: float = 60.0  # a card the next Theory needs, face up (up to its count)


BASE = Weights()
EXPANSIONS = Weights(
    voyage=1500.0,
    ready=(0.0, 7.5, 40.0, 150.0, 350.0),
    star_ready=275.0,
    holes=(0.0, 30.0, 100.0, 300.0, 1500.0),
    hole_discarded=300.0,
    meteor_pair=900.0,
    meteor_odd=300.0,
    sun_cubed=250.0,
    sun_linear=75.0,
    mirror_and_hole_moves=True,
)
WIN = 1e6


def weights_for(game: Any) -> Weights:
    """The expansions' weights once any expansion is in play, else the base game's."""
    if game.black_holes or game.glaucous_sun or game.mirrors or game.theories:
        return EXPANSIONS
    return BASE


def evaluate(s: StellarionState, w: Weights | None = None) -> float:
    """A position's worth for the team (higher is better), with ``w`` or the weights
    for the game's set-up."""
    if s.outcome:
        return WIN if s.outcome > 0 else -WIN
    game = s.game
    if w is None:
        w = weights_for(game)
    score = w.voyage * sum(map(len, s.piles)) + 45.0 * s.stars
    decks, up = s.decks, s.up
    # each face-up top's face (the Observatory)
    tops = [decks[d][-1] & 31 for d in range(8) if up[d]]
    visible = [False] * 18
    for f in tops:
        visible[f] = True
    live = [0] * 18  # copies still in a deck or the Outpost
    for deck in decks:
        for c in deck:
            live[c & 31] += 1
    for c in s.outpost:
        f = c & 31
        visible[f] = True
        live[f] += 1
    dead = [0] * 18
    for pile in s.discards:
        for c in pile:
            dead[c & 31] += 1
    left = [0, 0, 0, 0]
    vg = game.voyage_galaxy
    reach = [1.0, 1.0, 1.0, 1.0]
    for col in s.columns:
        for v in col:
            left[vg[v]] += 1
    if game.mirrors:  # only the uncovered Voyages can be launched now
        reach = [0.15, 0.15, 0.15, 0.15]
        for col in s.columns:
            if col:
                reach[vg[col[-1]]] = 1.0
    best = 0.0
    spare = 0
    ready_of = w.ready
    for g in range(4):
        need = left[g]
        if not need:
            spare += live[g * 4] + live[g * 4 + 1] + live[g * 4 + 2] + live[g * 4 + 3]
            continue
        base = g * 4
        k = visible[base] + visible[base + 1] + visible[base + 2] + visible[base + 3]
        ready = ready_of[k]
        if k == 3 and s.stars:
            ready = w.star_ready
        ready *= reach[g]
        if ready > best:
            best = ready
        score += 0.5 * ready
        for t in range(4):
            short = need - live[base + t]
            if short > 0:
                score -= (w.short_dead if dead[base + t] else w.short_gone) * short
            else:
                spare -= short
    score += best
    score += w.card * sum(map(len, decks)) + w.spare * spare
    # the Observatory is the engine: face-up cards and Types that can Coordinate
    per_type = [0, 0, 0, 0]
    holes = mirrors = 0
    for f in tops:
        if f < 16:
            per_type[f & 3] += 1
        elif f == BLACK_HOLE:
            holes += 1
        else:
            mirrors += 1
    for c in s.outpost:
        per_type[c & 3] += 1
    pairs = (per_type[0] >= 2) + (per_type[1] >= 2) + (per_type[2] >= 2) + (per_type[3] >= 2)
    score += w.up * len(tops) + w.pair * pairs
    # a Mirror Coordinates with any Celestial card; four Black Holes Traverse
    can_move = pairs or (w.mirror_and_hole_moves and ((mirrors and any(per_type)) or holes >= 4))
    if not can_move and best < ready_of[4] and best < w.star_ready:
        score -= w.no_move  # the next turn may find nothing to do
    if game.black_holes:
        score += w.holes[min(holes, 4)] - w.hole_discarded * dead[BLACK_HOLE]
    if game.glaucous_sun:
        frac = (s.sun - game.sun_start) / (game.sun_final - game.sun_start)
        score -= w.sun_cubed * frac**3 + w.sun_linear * frac
        score += w.meteor_pair * (s.held // 2) + w.meteor_odd * (s.held % 2)
    if game.theories:
        score += w.theory * len(s.proven)
        if s.theories:  # progress towards the next proof
            token = s.theories[-1]
            want = game.theory_type[token]
            seen = sum(1 for f in tops if f < 16 and (f & 3) == want)
            score += w.theory_seen * min(seen, game.theory_needs[token])
    return score


def position_value(state: State) -> float:
    """The heuristic's position value in thousands (about one a Voyage taken, plus how
    ready the Galaxies are), RL's ``heuristic`` potential (``Capabilities.value``). At
    the end the position itself is valued (not the outcome), so the final step's shaping
    is no larger for a win than for a loss; the outcome reward says which it was."""
    s: Any = state
    outcome, s.outcome = s.outcome, 0  # value the position, not the result
    try:
        return evaluate(s) / 1000.0
    finally:
        s.outcome = outcome


def best_first(actions: list[Action], totals: list[float]) -> list[Action]:
    """``actions`` by ``totals``, highest first (ties: the order given)."""
    order = sorted(range(len(actions)), key=lambda i: (-totals[i], i))
    return [actions[i] for i in order]


def forced_action(legal_actions: list[Action], seat: int, agent: str) -> Action | None:
    """The action to play without thinking, if any: the only one, or a Theory proof
    (free and never harmful: solve.py, pruning 1). ValueError naming ``agent`` when
    there is none at all."""
    if not legal_actions:
        raise ValueError(f"{agent} agent: seat {seat} was given no legal action")
    if len(legal_actions) == 1:
        return legal_actions[0]
    for a in legal_actions:
        if a.kind == "prove":
            return a
    return None


class HeuristicAgent:
    """Greedy turn planner over determinisations of the view. ``samples``: how many
    deals of the unknown cards each decision averages over (more is stronger and
    slower: 1 -> ~30%, 3 -> ~50%, 6 -> ~60% wins with the "all" reveal reading)."""

    name = "heuristic"
    #: Decides on the true state (solve.py's clairvoyant devices, not players): ``_deal``
    #: gives the truth, so one deal a decision is all there is to see.
    sees_state = False

    def __init__(
        self, game: Game, seed: int = 0, samples: int = 4, weights: Weights | None = None
    ) -> None:
        self.game = game
        self.rng = Rng(seed)
        self.samples = max(1, samples)
        self.weights = weights if weights is not None else weights_for(game)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        forced = forced_action(legal_actions, seat, self.name)
        return forced if forced is not None else self.rank(view, legal_actions)[0]

    def rank(self, view: dict[str, Any], legal_actions: list[Action]) -> list[Action]:
        """The legal actions, best first by the greedy rest-of-turn value averaged over
        the dealt states (ties: the order given). ``pimc`` takes its candidates here."""
        samples = self.samples
        if all(a.kind in ("reveal", "end", "meteor") for a in legal_actions):
            samples = max(samples, 6)  # the revealed card is unknown: average over deals
        totals, _ = self._on_deals(view, legal_actions, samples, self._line_value)
        return best_first(legal_actions, totals)

    def _on_deals(
        self,
        view: dict[str, Any],
        actions: list[Action],
        deals: int,
        value: Callable[[StellarionState, Action, Any], float],
        more: Callable[[], bool] | None = None,
    ) -> tuple[list[float], int]:
        """Each action's ``value`` summed over up to ``deals`` states dealt from the view,
        every action on the same deals, and how many were dealt. ``more`` (asked before
        every deal after the first) may stop early. An action the rebuilt state does not
        offer scores -WIN a deal: never picked."""
        if self.sees_state:
            deals = 1
        totals = [0.0] * len(actions)
        dealt = 0
        while dealt < deals and (not dealt or more is None or more()):
            root = self._deal(view)
            table = root._table()
            for i, a in enumerate(actions):
                key = table.get(a)
                totals[i] += -WIN if key is None else value(root, a, key)
            dealt += 1
        return totals, dealt

    def _deal(self, view: dict[str, Any]) -> StellarionState:
        """A complete state consistent with the view (unknown orders dealt at random)."""
        return from_view(self.game, view, self.rng)

    def _line_value(self, root: StellarionState, action: Action, key: Any) -> float:
        """Play ``action`` then the greedy best follow-ups until the turn is over."""
        s = root.clone()
        turn = s.turns
        s._do(key, action, s.turn)
        self._finish_turn(s, turn)
        return evaluate(s, self.weights)

    def _finish_turn(self, s: StellarionState, turn: int) -> None:
        finish_turn(s, turn, self.weights)

    def _greedy_step(self, s: StellarionState, table: dict[Action, Any]) -> Action:
        return greedy_step(s, table, self.weights)


#: One child as ``greedy_step`` rated it: (action, key, ``evaluate``'s value, outcome).
Rating = tuple[Action, Any, float, int]


def finish_turn(
    s: StellarionState,
    turn: int,
    weights: Weights,
    ratings: list[list[Rating] | None] | None = None,
) -> None:
    """Play the greedy best follow-ups in ``s`` (in place) until turn ``turn``'s main
    part is over. It stops before the end-of-turn reveal: the card to come is unknown,
    and a determinisation would let the line pick it with hindsight. ``ratings``, if
    given, gets each step's ratings of every child (None for a Theory proof, taken
    unrated): ``pimc.turn_line`` reads its next steps from them."""
    steps = 0
    while s.phase not in (OVER, END) and s.turns == turn and steps < 12:
        steps += 1
        table = s._table()
        if s.phase in (MAIN, END) and any(k[0] == "P" for k in table.values()):
            pick = next(a for a, k in table.items() if k[0] == "P")
            s._do(table[pick], pick, s.turn)
            if ratings is not None:
                ratings.append(None)
        else:
            greedy_step(s, table, weights, ratings)


def greedy_step(
    s: StellarionState,
    table: dict[Action, Any],
    weights: Weights,
    ratings: list[list[Rating] | None] | None = None,
) -> Action:
    """Play in ``s`` (in place) the action whose child ``evaluate`` rates best (ties:
    the first), and return it. The child built to rate it becomes ``s``, so the step is
    not played a second time (the engine step is deterministic: its shuffles draw from
    the state's own Rng, which the child carries). ``ratings``, if given, gets every
    child's ``Rating``, in table order."""
    best_val, best, best_child = -2 * WIN, None, None
    rated: list[Rating] | None = None if ratings is None else []
    for a, k in table.items():
        child = s.clone()
        child._do(k, a, child.turn)
        val = evaluate(child, weights)
        if rated is not None:
            rated.append((a, k, val, child.outcome))
        if val > best_val:
            best_val, best, best_child = val, a, child
    assert best is not None and best_child is not None
    s.__dict__.update(best_child.__dict__)
    if ratings is not None:
        ratings.append(rated)
    return best
