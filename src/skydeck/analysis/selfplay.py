"""Heuristic-versus-heuristic match records, with one move replaced on request (the
planted mistakes of docs/analysis.md, and the tests')."""

from __future__ import annotations

from skydeck.agents.registry import make
from skydeck.analysis.support import analysis_for
from skydeck.core import Game, Rng
from skydeck.core.record import Match, MatchRecord


def heuristic_record(
    game: Game, seed: int, plant: int | None = None, max_steps: int = 5000
) -> tuple[MatchRecord, int | None]:
    """A match of the game's heuristic on every seat, deal ``seed``. ``plant``: the
    index of the first decision (two or more legal moves, the game's ``bad_move``
    offering one) from which on the first such decision gets the game's clearly bad
    move instead; returns the record and the step that was replaced (None: none)."""
    match = Match(game, seed, [f"heuristic {i + 1}" for i in range(game.players)])
    agents = [make("heuristic", game, seed=seed * 7 + i) for i in range(game.players)]
    bad = analysis_for(game).bad_move
    rng = Rng(seed)
    planted: int | None = None
    decision = 0
    for _ in range(max_steps):
        state = match.state
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = agents[seat].choose(state.view(seat), legal, seat)
        if plant is not None and planted is None and len(legal) > 1 and bad is not None:
            if decision >= plant:
                worse = bad(state.clone(), seat, legal, rng)
                if worse is not None and worse != action:
                    action, planted = worse, len(match.record.entries)
            decision += 1
        match.play(seat, action, t=0.0)
    return match.record, planted
