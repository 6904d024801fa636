"""A fifth game is one folder: a copy of ``games/_template``, touched only inside its
folder, passes conformance, plays in the terminal, is offered by ``GET /api/games``,
plays a match through the server, runs in ``skydeck simulate`` and passes PettingZoo's
``api_test`` (issue 47); tests/web/test_template_page.py opens it in the browser.
Nothing outside the folder names it."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator

import pytest
from rich.console import Console

from skydeck import conformance
from skydeck.agents import make
from skydeck.registry import game_class, game_ids, game_module, load
from tests.games.fifth import copied_template


@pytest.fixture(scope="module")
def fifth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with copied_template(tmp_path_factory.mktemp("plugin")) as game_id:
        yield game_id


def test_the_template_itself_is_not_offered():
    assert "template" not in game_ids()


def test_the_copy_is_discovered(fifth):
    assert fifth in game_ids()
    assert game_class(fifth).title == "Fifth"
    assert game_class(fifth).__module__ == "skydeck.games.fifth.game"


def test_the_copy_passes_conformance(fifth):
    assert conformance.run(game_class(fifth), seeds=3) == []
    assert conformance.main(["skydeck.games.fifth", "--seeds", "2"]) == 0


def test_conformance_fails_a_broken_copy(fifth, monkeypatch):
    """The shipped checks can fail: a clone that shares its hands is caught."""
    from skydeck.games.fifth.state import TemplateState

    def shallow(self):
        s = TemplateState(self.game, self.rng)
        s.deck, s.hands, s.played, s.turn = self.deck, self.hands, self.played, self.turn
        return s

    monkeypatch.setattr(TemplateState, "clone", shallow)
    assert any("check_clone_independent" in f for f in conformance.run(game_class(fifth), 2))


def test_the_copy_plays_in_the_terminal(fifth):
    from skydeck.terminal import play

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    match = play(load(fifth, players=2), 3, iter(["1"] * 12), console)
    assert match.state.is_over
    assert "Game over" in out.getvalue()


def test_the_copy_has_its_heuristic_and_searches(fifth):
    game = load(fifth, players=2)
    heuristic = make("heuristic", game, seed=1)
    assert type(heuristic).__module__ == "skydeck.games.fifth.ai.heuristic"
    state = game.new(4)
    legal = state.legal_actions(state.to_move[0])
    assert heuristic.choose(state.view(0), legal, 0) == max(legal, key=lambda a: a.args[0])
    mcts = make("mcts:easy:seconds=0:iterations=20", game, seed=1)
    assert mcts.choose(state.view(0), legal, 0) in legal
    assert game_module(game, "encode") is not None


def test_the_copy_is_offered_and_played_by_the_server(fifth, tmp_path):
    from fastapi.testclient import TestClient

    from skydeck.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", ai_delay=0.0)
    with TestClient(app) as client:
        offered = {g["id"]: g for g in client.get("/api/games").json()}
        assert offered[fifth]["title"] == "Fifth"
        assert offered[fifth]["web"] == {}  # the page's generic drawing, panels ...
        assert offered[fifth]["ratable"] is True
        parts = offered["stellium"]["web"]
        assert parts["drawing"] == "/static/games/stellium/drawing.js"
        assert sorted(parts) == ["drawing", "howto", "panel", "rules"]
        for url in parts.values():  # served from the game's own folder
            assert "export" in client.get(url).text
        body = {
            "game": fifth,
            "seed": 2,
            "options": {"players": 2},
            "seats": [{"kind": "ai", "agent": "heuristic"}, {"kind": "ai", "agent": "random"}],
        }
        created = client.post("/api/matches", json=body)
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        for _ in range(200):
            if client.get(f"/api/matches/{match_id}").json()["status"] == "over":
                break
            time.sleep(0.05)
        assert client.get(f"/api/matches/{match_id}").json()["status"] == "over"


def test_the_copy_runs_in_simulate(fifth, tmp_path):
    from skydeck.cli import main

    out = tmp_path / "run"
    code = main(
        ["simulate", fifth, "--agents", "heuristic,random", "--games", "6", "--out", str(out)]
    )
    assert code == 0
    from skydeck.sim.simulate import MANIFEST

    manifest = json.loads((out / MANIFEST).read_text())
    assert fifth in json.dumps(manifest)
    assert any(out.rglob("*.parquet")), "no table was written"


def test_the_copy_passes_pettingzoos_api_test(fifth):
    from pettingzoo.test import api_test

    from skydeck.rl import aec_env

    api_test(aec_env(fifth, players=3), num_cycles=30)


def test_the_copys_own_agent_and_its_parameters_come_from_its_ai_module(fifth, monkeypatch):
    """A game's own agent (like Stellarion's ``pimc``) is declared in its ``ai`` module,
    with its parameters (``PARAMS``) and summary: nothing in skydeck.agents names it."""
    from skydeck.agents.registry import agents, parse_spec

    ai = game_module(fifth, "ai")
    assert ai is not None

    class Bold:
        def __init__(self, game, seed=0, nerve=1):
            self.nerve = nerve

    monkeypatch.setitem(ai.AGENTS, "bold", Bold)
    monkeypatch.setattr(ai, "PARAMS", {"bold": {"nerve": int}}, raising=False)
    monkeypatch.setattr(ai, "SUMMARIES", {"bold": "plays high"}, raising=False)
    agent = make("bold:nerve=3", load(fifth, players=2), seed=1)
    assert isinstance(agent, Bold) and agent.nerve == 3 and agent.name == "bold:nerve=3"
    with pytest.raises(ValueError, match="bold: unknown parameter 'calm'"):
        make("bold:calm=1", load(fifth, players=2))
    assert parse_spec("bold:nerve=2").params == {"nerve": "2"}
    assert any(a.spec == "bold" and fifth in a.games for a in agents())
    with pytest.raises(ValueError, match="game 'stellium' has no bold agent"):
        make("bold", load("stellium", players=2))
