"""Every game's declared capabilities are well formed, and the fronts read them (no
table keyed by game id is left outside the games' folders)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skydeck.agents import make
from skydeck.core.capabilities import Capabilities, resolve
from skydeck.registry import game_class, game_ids
from skydeck.sim.facets import count_actions, seat_facets
from skydeck.sim.runner import play_match

SRC = Path(__file__).resolve().parents[2] / "src" / "skydeck"
GAMES = game_ids()


def test_environment_ids_are_unique_and_gymnasium_shaped():
    ids = [game_class(g).capabilities.environment_id(g) for g in GAMES]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"skydeck/[A-Z]\w*-v\d+", i) for i in ids), ids


def test_a_game_that_declares_nothing_gets_a_made_environment_id():
    assert Capabilities().environment_id("toy") == "skydeck/Toy-v0"


def test_every_declared_reference_resolves_to_a_function():
    """The solver and the picture are imported only when used: a typo would show late."""
    references = [
        ref
        for g in GAMES
        for c in [game_class(g).capabilities]
        for ref in (c.solver, c.picture, c.value)
        if ref is not None
    ]
    assert len(references) >= 3  # Stellarion's solver and value, Conflict's picture
    for ref in references:
        assert callable(resolve(ref)), ref


def test_a_bad_reference_is_refused_by_name():
    with pytest.raises(ValueError, match="'no_colon'"):
        resolve("no_colon")


@pytest.mark.parametrize("game_id", GAMES)
def test_facets_and_uses_read_a_finished_match(game_id):
    cls = game_class(game_id)
    game = cls(players=cls.player_counts[-1])
    agents = [make("random", game, seed=k) for k in range(game.players)]
    result = play_match(game, agents, seed=3, keep_match=True)
    assert result.match is not None
    facets = seat_facets(game, result.match.state.view(None), game.players)
    assert len(facets) == game.players
    if cls.capabilities.facets is not None and game_id != "stellarion":
        assert any(f.faction or f.order is not None for f in facets)
    entries = [(e.seat, e.action) for e in result.match.record.entries]
    kinds, used = count_actions(game, entries)
    assert sum(kinds.values()) == len(entries)
    if cls.capabilities.uses is not None:
        assert used, f"{game_id}: a whole match used no component"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_shared_memo_counts_as_a_fresh_reading(game_id):
    """A study shares one memo of each action's components across its matches (the
    runner's overhead): the counts must be those of reading every action afresh."""
    cls = game_class(game_id)
    game = cls(players=cls.player_counts[-1])
    memo: dict = {}
    for seed in (3, 4):
        agents = [make("random", game, seed=seed + k) for k in range(game.players)]
        match = play_match(game, agents, seed=seed, keep_match=True).match
        assert match is not None
        entries = [(e.seat, e.action) for e in match.record.entries]
        assert count_actions(game, entries, memo) == count_actions(game, entries)
    if cls.capabilities.uses is not None:
        assert memo, f"{game_id}: the memo kept nothing"


def test_no_front_keeps_a_table_keyed_by_game_id():
    """server/, sim/, rl/ and cli.py name no game id as a dict key: the facts are the
    games' own (a new game left out of a table used to fail silently)."""
    key = re.compile(r"""["'](stellarion|stellium|expedition|conflict)["']\s*:""")
    offenders = []
    for folder in ("server", "sim", "rl", "agents"):
        for path in (SRC / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if key.search(line):
                    offenders.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    for n, line in enumerate((SRC / "cli.py").read_text().splitlines(), 1):
        if key.search(line):
            offenders.append(f"cli.py:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
