"""The planter of planted mistakes (analysis/plant.py): the move it plants is legal and
is what the record holds, it is measured from the seat's view alone (the same view with
other hidden parts plants the same move at a fixed seed), and where no move is clearly
bad the match is the heuristic's own."""

from __future__ import annotations

from functools import lru_cache

from skydeck.agents.registry import make
from skydeck.analysis.plant import Planted, Planter, planted_record, weigh, worst_move
from skydeck.analysis.selfplay import heuristic_record
from skydeck.core import Rng
from skydeck.core.record import MatchRecord
from skydeck.registry import load

QUICK = Planter(candidates=6, playouts=8, margin=0.2, start=10, tries=2)


@lru_cache(maxsize=2)
def _planted(seed: int) -> tuple[MatchRecord, Planted | None]:
    return planted_record(load("stellium", players=2), seed, seed, QUICK)


def test_the_planted_move_is_legal_clearly_worse_and_in_the_record() -> None:
    record, planted = _planted(2)
    assert planted is not None, "a clearly bad move exists in this match"
    assert planted.move != planted.chosen
    assert planted.drop >= QUICK.margin and planted.drop > 2 * planted.se
    assert planted.tries <= QUICK.tries
    entry = record.entries[planted.step]
    assert entry.action == planted.move
    for i, (state, _, _) in enumerate(record.replay()):  # one state, stepped on
        if i == planted.step:
            assert planted.move in state.legal_actions(entry.seat)
            break
    else:
        raise AssertionError("the planted step is not in the record")
    # before the planted step the match is the heuristic's own
    own, _ = heuristic_record(load("stellium", players=2), 2)
    assert [e.action for e in own.entries[: planted.step]] == [
        e.action for e in record.entries[: planted.step]
    ]
    assert own.entries[planted.step].action == planted.chosen


def test_no_clearly_bad_move_leaves_the_heuristics_match() -> None:
    game = load("stellium", players=2)
    never = Planter(candidates=2, playouts=2, margin=2.0, tries=2)
    record, planted = planted_record(game, 1, 1, never)
    assert planted is None
    own, _ = heuristic_record(game, 1)
    assert [e.action for e in record.entries] == [e.action for e in own.entries]


def test_the_planter_reads_only_the_seats_view() -> None:
    game = load("stellium", players=2)
    state = game.new(11)
    agents = [make("heuristic", game, seed=i) for i in range(2)]
    for step in range(200):  # mid-match: the bag and the rival's Missions are hidden
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        chosen = agents[seat].choose(state.view(seat), legal, seat)
        if len(legal) > 3 and step >= 12:
            break
        state.apply(chosen, seat)
    other = state.resample(seat, Rng(2024))
    other.rng = Rng(777, state.rng.draws)  # the generator is hidden too
    assert other.view(seat) == state.view(seat)
    assert other.to_json() != state.to_json(), "the hidden parts must differ for the test"
    knobs = Planter(candidates=3, playouts=4, margin=-1.0)
    _, a = weigh(game, state.view(seat), seat, chosen, 5, knobs)
    _, b = weigh(game, other.view(seat), seat, chosen, 5, knobs)
    assert len(a) == 3 and a == b
    assert {m for m, _ in a} <= set(state.legal_actions(seat)) - {chosen}
    _, c = weigh(game, state.view(seat), seat, chosen, 6, knobs)
    assert c != a, "the seed matters: the numbers are playouts"
    assert worst_move(game, state.view(seat), seat, chosen, 5, knobs) == worst_move(
        game, other.view(seat), seat, chosen, 5, knobs
    )
