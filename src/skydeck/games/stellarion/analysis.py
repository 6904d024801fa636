"""What the after-the-game analyser needs of Stellarion (``skydeck analyse``).

Measured: the table's win chance (co-operative: every seat wins or loses together).
A playout is the heuristic for every seat, dealing 2 deals of the unknown cards a
decision (the agent's default is 4: half the cost, a little weaker, so the chances
lean low; docs/analysis.md measures it), played to the end of the game.

Chance events: every card turned up from a deck (the Observatory's reveals, a Ship's
search, a Nebula's retrieval, the Stars' shuffles): the steps that drew from the
state's generator or turned up what was hidden.

Thresholds (drop in win chance): inaccuracy 0.05, mistake 0.10, blunder 0.20.
The planted mistake: the legal move the heuristic ranks last.

The deal (``deal_report``): a won match was a winnable deal, lost by no move; for a lost
one, the clairvoyant solver (``ai/solve.py``, every card order
known, as ``skydeck solve``) says whether the deal could have been won, and, replaying
the match, the first move after which it no longer could. Feasible within seconds for
the base game and most one-expansion deals; with several expansions the solver often
answers "unknown" within its budget, and the report says so.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.analysis import AnalysisSupport, Policy
from skydeck.core.record import Entry

from .ai.heuristic import HeuristicAgent
from .state import StellarionState


def policy(game: Game) -> Policy:
    agents: dict[int, HeuristicAgent] = {}

    def choose(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = HeuristicAgent(game, seed=rng.next64() >> 33, samples=2)
        return agent.choose(state.view(seat), legal, seat)

    return choose


def bad_move(state: State, seat: int, legal: list[Action], rng: Rng) -> Action | None:
    ranked = HeuristicAgent(state.game, seed=0).rank(state.view(seat), legal)
    return ranked[-1] if len(ranked) > 1 else None


def deal_report(states: list[State], entries: list[Entry], seconds: float) -> dict[str, Any]:
    """Whether the deal was winnable, and the first move after which it was not.

    ``states[i]`` is the true state before ``entries[i]``. The solver's winning line is
    followed while the match plays it; where the match departs from it, the position
    after that move is solved again."""
    from .ai.solve import UNWINNABLE, WON, Solver

    if not states:
        return {"winnable": "unknown", "note": "no move was played"}
    game = states[0].game
    assert isinstance(states[0], StellarionState)
    final = states[-1].clone()
    final.apply(entries[-1].action, entries[-1].seat)
    if final.is_over and final.winners:
        # Won: the deal was winnable and no move lost it; no solving needed (a solver
        # that fails to prove it within its budget would only add doubt).
        return {"winnable": WON, "solver_seconds": seconds, "lost_after": None}
    first = Solver(states[0], seconds).solve()
    report: dict[str, Any] = {
        "winnable": first.status,
        "solver_seconds": seconds,
        "lost_after": None,
    }
    if first.status != WON:
        report["note"] = (
            "the solver proved no line wins this deal"
            if first.status == UNWINNABLE
            else f"the solver found no win and no proof within {seconds:g} s"
        )
        return report
    line = list(first.line)
    for i, entry in enumerate(entries):
        if line and line[0] == (entry.seat, entry.action):
            line.pop(0)
            continue
        after = states[i + 1] if i + 1 < len(states) else None
        if after is None:  # the last move: the final state tells
            return report
        if after.is_over:
            if not after.winners:
                report["lost_after"] = {
                    "step": i,
                    "seat": entry.seat,
                    "move": game.describe(entry.action),
                }
            return report
        assert isinstance(after, StellarionState)
        sol = Solver(after, seconds).solve()
        if sol.status == WON:
            line = list(sol.line)
            continue
        if sol.status == UNWINNABLE:
            report["lost_after"] = {
                "step": i,
                "seat": entry.seat,
                "move": game.describe(entry.action),
            }
        else:
            report["note"] = (
                f"after step {i} the solver found no win and no proof within "
                f"{seconds:g} s; the search for the losing move stops there"
            )
        return report
    return report


ANALYSIS = AnalysisSupport(
    measure="the table's win chance (co-operative); heuristic playouts to the end",
    cooperative=True,
    policy=policy,
    playouts=16,
    width=3,
    chance="cards turned up from the decks (reveals, searches, retrievals, shuffles)",
    bad_move=bad_move,
    solver="skydeck.games.stellarion.analysis:deal_report",
)
