"""Heuristic-versus-heuristic match records, with one move replaced on request (the
planted mistakes of docs/analysis.md, and the tests')."""

from __future__ import annotations

from collections.abc import Callable

from skydeck.agents.registry import make
from skydeck.analysis.support import analysis_for
from skydeck.core import Action, Game, Rng, State
from skydeck.core.record import Match, MatchRecord

#: ``pick(state, seat, legal, chosen, decision, step)``: the move to play instead of
#: the heuristic's ``chosen`` at the ``decision``-th decision (two or more legal
#: moves), record index ``step``; None keeps the heuristic's.
Replace = Callable[[State, int, list[Action], Action, int, int], Action | None]


def play_heuristic(
    game: Game, seed: int, pick: Replace | None = None, max_steps: int = 5000
) -> MatchRecord:
    """A match of the game's heuristic on every seat, deal ``seed``, each decision
    offered to ``pick``, which reads the true state and must not change it (a pick that
    plays on it clones it: most decisions are declined, and a copy each is waste)."""
    match = Match(game, seed, [f"heuristic {i + 1}" for i in range(game.players)])
    agents = [make("heuristic", game, seed=seed * 7 + i) for i in range(game.players)]
    decision = 0
    for _ in range(max_steps):
        state = match.state
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = agents[seat].choose(state.view(seat), legal, seat)
        if pick is not None and len(legal) > 1:
            other = pick(state, seat, legal, action, decision, len(match.record.entries))
            if other is not None:
                action = other
            decision += 1
        match.play(seat, action, t=0.0)
    return match.record


def heuristic_record(
    game: Game, seed: int, plant: int | None = None, max_steps: int = 5000
) -> tuple[MatchRecord, int | None]:
    """A match of the game's heuristic on every seat, deal ``seed``. ``plant``: the
    index of the first decision (two or more legal moves, the game's ``bad_move``
    offering one) from which on the first such decision gets the game's clearly bad
    move instead; returns the record and the step that was replaced (None: none).
    (:mod:`.plant` measures its bad move from the seat's view instead.)"""
    bad = analysis_for(game).bad_move
    rng = Rng(seed)
    planted: list[int] = []

    def pick(
        state: State, seat: int, legal: list[Action], action: Action, decision: int, step: int
    ) -> Action | None:
        if plant is None or planted or bad is None or decision < plant:
            return None
        worse = bad(state.clone(), seat, legal, rng)
        if worse is not None and worse != action:
            planted.append(step)
            return worse
        return None

    record = play_heuristic(game, seed, pick if plant is not None else None, max_steps)
    return record, (planted[0] if planted else None)
