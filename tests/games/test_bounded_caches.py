"""The engines' process-wide caches stay bounded: a server that runs for days plays
every map and placement sooner or later (the soak read an unbounded-looking cache as a
leak), and an answer after the cache starts again is the same answer."""

from __future__ import annotations

import random

import skydeck
from skydeck.games.conflict import shapes as conflict_shapes
from skydeck.games.expedition import command as expedition_command


def test_expedition_distances_cache_is_bounded_and_answers_the_same(monkeypatch) -> None:
    monkeypatch.setattr(expedition_command, "DISTANCES_KEPT", 8)
    monkeypatch.setattr(expedition_command, "_DISTANCES", {})
    game = skydeck.load("expedition", players=2)
    rng = random.Random(3)
    peak = 0
    answers: list[tuple[object, int, tuple[int, ...], tuple[tuple[int, int], ...]]] = []
    for seed in range(3):
        state = game.new(seed)
        while state.to_move and len(answers) < 400:
            seat = rng.choice(state.to_move)
            for cell in range(0, len(state.board), 7):
                found = expedition_command.distances(state, cell)
                answers.append((state.grid, cell, tuple(state.board), found))
            peak = max(peak, len(expedition_command._DISTANCES))
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert peak == 8  # it filled up, and never beyond
    expedition_command._DISTANCES.clear()
    for grid, cell, board, got in answers[::13]:
        state = game.new(0)
        state.grid, state.board = grid, list(board)
        assert expedition_command.distances(state, cell) == got


def test_expedition_move_and_search_caches_are_bounded_and_answer_the_same(monkeypatch) -> None:
    """The moves by map and the search orders by blocking tiles (issue 52) start again
    when full, like the distances, and answer as before afterwards."""
    monkeypatch.setattr(expedition_command, "DISTANCES_KEPT", 8)
    monkeypatch.setattr(expedition_command, "_MOVES", {})
    monkeypatch.setattr(expedition_command, "_ORDERS", {})
    game = skydeck.load("expedition", players=2)
    rng = random.Random(5)
    seen: list[tuple[object, list[str]]] = []
    for seed in range(3):
        state = game.new(seed)
        while state.to_move:
            seat = rng.choice(state.to_move)
            legal = state.legal_actions(seat)
            if state.phase == "command" and not state.pending and len(seen) < 60:
                seen.append((state.clone(), [str(a) for a in legal]))
            assert len(expedition_command._MOVES) <= 8
            assert len(expedition_command._ORDERS) <= 8
            state.apply(rng.choice(legal), seat)
    expedition_command._MOVES.clear()
    expedition_command._ORDERS.clear()
    for state, texts in seen:
        seat = state.to_move[0]
        assert [str(a) for a in state.legal_actions(seat)] == texts


def test_conflict_shape_cache_is_bounded_and_answers_the_same(monkeypatch) -> None:
    monkeypatch.setattr(conflict_shapes, "SHAPES_KEPT", 16)
    game = skydeck.load("conflict", players=2)
    shapes = conflict_shapes.Shapes(game.shapes.content)
    spots = list(shapes.grid)[:40]
    ships = range(min(3, len(shapes.content.ships)))
    got = {}
    for ship in ships:
        for x, y, angle in spots:
            got[ship, x, y, angle] = shapes.shape(ship, x, y, angle)
            assert len(shapes._cache) <= 16
    fresh = conflict_shapes.Shapes(game.shapes.content)
    for (ship, x, y, angle), shape in got.items():
        assert fresh.shape(ship, x, y, angle) == shape
