"""People see "Player 1".."Player N"; 0-based seats live only in code, JSON and the API.
Random games of every registered game are scanned for any text a person reads that
names a seat by number: refusals of illegal moves, move names, event sentences (the web
log, the terminal and ``skydeck replay`` share them) and the terminal's boards."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import skydeck
from skydeck.core import Action, IllegalAction, Rng, player_name
from skydeck.registry import game_class, game_ids
from skydeck.terminal import render_view

#: "seat 0", "Seat 2", "seats 1, 2": a seat number where a person reads it.
SEAT_NUMBER = re.compile(r"\bseats?\s*#?\d", re.IGNORECASE)


def _refusal(state: skydeck.State, action: object, seat: object) -> str:
    try:
        state.clone().apply(action, seat)  # type: ignore[arg-type]
    except IllegalAction as exc:
        return str(exc)
    return ""


def _texts(game_id: str, players: int, seed: int, steps: int) -> list[tuple[str, str]]:
    game = skydeck.load(game_id, players=players)
    names = [player_name(s) for s in range(players)]
    state, rng = game.new(seed), Rng(seed)
    out: list[tuple[str, str]] = []
    screen = io.StringIO()
    console = Console(file=screen, width=160, color_system=None)
    for step in range(steps):
        if state.is_over:
            break
        mover = state.to_move[0]
        legal = state.legal_actions(mover)
        out += [("move name", game.describe(a)) for a in legal[:10]]
        for other in range(players):
            if other not in state.to_move:
                out.append(("refusal", _refusal(state, legal[0], other)))
        out.append(("refusal", _refusal(state, Action("zz_no_such", (1,)), mover)))
        if step % 25 == 0:
            console.print(render_view(game, state.view(mover), mover))
        for event in state.apply(rng.choice(legal), mover):
            for seat in (*range(players), None):
                shown = event.for_seat(seat)
                if shown is not None:
                    out.append(("event", game.describe_event(shown, names, state)))
    out.append(("refusal", _refusal(state, Action("zz_no_such"), 0)))
    console.print(render_view(game, state.view(None), None))
    out += [("terminal", line) for line in screen.getvalue().splitlines()]
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_no_text_people_read_names_a_seat_by_number(game_id: str) -> None:
    bad: dict[str, str] = {}
    for players in game_class(game_id).player_counts:
        for seed in (1, 2):
            for where, text in _texts(game_id, players, seed, steps=250):
                if SEAT_NUMBER.search(text):
                    bad.setdefault(f"{where}: {SEAT_NUMBER.sub('seat N', text)[:120]}", text)
    assert not bad, "\n".join(sorted(bad.values())[:20])


def test_refusals_name_players() -> None:
    state = skydeck.load("stellium", players=3).new(4)
    mover = state.to_move[0]
    other = (mover + 1) % 3
    text = _refusal(state, state.legal_actions(mover)[0], other)
    assert f"Player {other + 1} may not act now (to move: Player {mover + 1})" in text
    assert "seat 'x' (no such player)" in _refusal(state, state.legal_actions(mover)[0], "x")
