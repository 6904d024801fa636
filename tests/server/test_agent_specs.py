"""AI seat specs from the network (``server/ai.py``): only what the lobby offers, budgets
within the server's limits, a model by its listed name and never a path outside the
models folder; and the command line keeps every override."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from skydeck import agents
from skydeck.agents.model_file import META_NAME, read_meta
from skydeck.registry import game_class, game_ids
from skydeck.server import ai
from skydeck.server.ai import available_specs, make_agent, model_specs, network_spec
from skydeck.server.settings import Settings


def write_model(path: Path, game: str) -> Path:
    """The smallest zip ``read_meta`` takes for a model of ``game`` (never loaded)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(META_NAME, json.dumps({"game": game, "options": {}}))
    assert read_meta(path)["game"] == game
    return path


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """A models folder with one Stellium and one Stellarion model among things that are
    not models, and an outside folder with a real-looking model and a plain file."""
    models, outside = tmp_path / "models", tmp_path / "outside"
    write_model(models / "x.zip", "stellium")
    write_model(models / "star.zip", "stellarion")
    write_model(outside / "evil.zip", "stellium")
    (outside / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    (models / "notzip.zip").write_text("not a zip file")
    with zipfile.ZipFile(models / "nometa.zip", "w") as z:
        z.writestr("other.json", "{}")
    (models / "dir.zip").mkdir()
    write_model(models / ".hidden.zip", "stellium")
    (models / "out.zip").symlink_to(outside / "evil.zip")  # listed nowhere, loaded never
    (models / "inner.zip").symlink_to(models / "x.zip")  # a link that stays inside is fine
    return {"models": models, "outside": outside}


@pytest.fixture
def settings(folders: dict[str, Path]) -> Settings:
    return Settings(models=folders["models"])


@pytest.fixture
def policy_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path ``PolicyAgent`` is asked to open (it is replaced: nothing is loaded)."""
    calls: list[str] = []

    class Recorder:
        name = "policy"

        def __init__(self, game: Any, path: Any, seed: int = 0) -> None:
            calls.append(str(path))

    import skydeck.agents.policy

    monkeypatch.setattr(skydeck.agents.policy, "PolicyAgent", Recorder)
    return calls


def refusal(spec: Any, game_id: str, settings: Settings) -> str:
    with pytest.raises(ValueError) as info:
        network_spec(spec, game_id, settings)
    return str(info.value)


# --- the models folder -------------------------------------------------------------------


def test_the_lobby_lists_only_models_inside_the_folder(folders: dict[str, Path]) -> None:
    models = folders["models"]
    assert model_specs("stellium", models) == ["policy:inner.zip", "policy:x.zip"]
    assert model_specs("stellarion", models) == ["policy:star.zip"]
    assert model_specs("stellium", models / "missing") == []
    assert available_specs("stellium", models) == [
        "random",
        "heuristic",
        "greedy",
        "mcts:easy",
        "mcts:normal",
        "mcts:hard",
        "policy:inner.zip",
        "policy:x.zip",
    ]


def test_the_lobby_offers_what_it_did(tmp_path: Path) -> None:
    """GET /api/games shows the same agents as before (no models: the registry's)."""
    for g in game_ids():
        assert available_specs(g, tmp_path) == [
            "random",
            *[s for s in agents.specs_for(g) if s != "random"],
        ]
    assert "pimc" in available_specs("stellarion", tmp_path)
    assert "lookahead" in available_specs("stellarion", tmp_path)


def test_the_models_folder_is_not_read_from_the_environment(
    folders: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKYDECK_MODELS", str(folders["outside"]))
    assert ai.models_dir() == Path("skydeck-data/models")
    assert ai.models_dir(folders["models"]) == folders["models"]
    assert model_specs("stellium", folders["models"]) == ["policy:inner.zip", "policy:x.zip"]
    assert not hasattr(ai, "MODELS_ENV")
    source = Path(ai.__file__).read_text()
    assert "os.environ" not in source and "getenv" not in source


# --- hole 1: a model path around the models-folder check ---------------------------------


def policy_bypasses(folders: dict[str, Path]) -> list[str]:
    outside = folders["outside"]
    return [
        " policy:/etc/passwd",
        "\tpolicy:/etc/passwd\n",
        "policy:/etc/passwd",
        "policy:/etc/no-such-file",
        f" policy:{outside / 'passwd'}",
        f" policy:{outside / 'evil.zip'}",
        f"policy:{outside / 'evil.zip'}",
        f"policy:{outside / 'missing.zip'}",
        "policy:../outside/evil.zip",
        "policy:../outside/missing.zip",
        "policy:../../../../etc/passwd",
        "policy:..",
        "policy:.",
        "policy:./x.zip",
        "policy:x.zip/",
        "policy:x.zip/.",
        "policy:..\\outside\\evil.zip",
        "policy:\\etc\\passwd",
        "policy:..%2Foutside%2Fevil.zip",
        "policy:..%2F..%2Fetc%2Fpasswd",
        "policy:%2Fetc%2Fpasswd",
        "policy:x%2Ezip",
        "policy:X.ZIP",
        "policy:X.zip",
        "policy:x.ZIP",
        "policy:x",
        "policy:x.zip:seconds=1",
        "policy:out.zip",  # a link out of the folder
        "policy:notzip.zip",  # not a zip file
        "policy:nometa.zip",  # a zip that is not a model
        "policy:dir.zip",  # a folder
        "policy:.hidden.zip",
        "policy:star.zip",  # a model for another game
        "policy:~/x.zip",
        "policy:file:///etc/passwd",
        "policy:",
    ]


def test_every_model_path_bypass_is_refused_alike(
    folders: dict[str, Path], settings: Settings, policy_calls: list[str]
) -> None:
    messages = {spec: refusal(spec, "stellium", settings) for spec in policy_bypasses(folders)}
    assert len(set(messages.values())) == 1, messages  # nothing tells one path from another
    (message,) = set(messages.values())
    assert "policy:x.zip" in message  # the refusal says what may be named
    assert "outside" not in message and "passwd" not in message
    assert policy_calls == []


def test_a_stored_model_spec_is_rechecked_when_built(
    folders: dict[str, Path], policy_calls: list[str]
) -> None:
    """``make_agent`` builds stored specs: a spec stored before the check (or edited in
    the database) still reaches no file outside the models folder."""
    game = game_class("stellium")()
    models = folders["models"]
    messages = set()
    for spec in policy_bypasses(folders):
        if spec.strip().startswith("policy:") and spec.strip() not in (
            "policy:notzip.zip",
            "policy:nometa.zip",
            "policy:star.zip",  # these lie inside: PolicyAgent refuses them itself
        ):
            with pytest.raises(ValueError) as info:
                make_agent(spec, game, 0, models)
            messages.add(str(info.value))
    assert len(messages) == 1, messages
    assert policy_calls == []


def test_the_hole_as_it_was(folders: dict[str, Path], policy_calls: list[str]) -> None:
    """A leading space took ``policy:/etc/passwd`` past the check, to the file."""
    game = game_class("stellium")()
    for spec in (" policy:/etc/passwd", f" policy:{folders['outside'] / 'evil.zip'}"):
        with pytest.raises(ValueError, match="models folder"):
            make_agent(spec, game, 0, folders["models"])
    assert policy_calls == []


def test_a_listed_model_is_accepted_and_built_from_inside_the_folder(
    folders: dict[str, Path], settings: Settings, policy_calls: list[str]
) -> None:
    models = folders["models"]
    game = game_class("stellium")()
    assert network_spec("policy:x.zip", "stellium", settings) == "policy:x.zip"
    assert network_spec(" policy:x.zip\n", "stellium", settings) == "policy:x.zip"
    assert network_spec("policy:inner.zip", "stellium", settings) == "policy:inner.zip"
    assert network_spec("policy:star.zip", "stellarion", settings) == "policy:star.zip"
    make_agent("policy:x.zip", game, 0, models)
    make_agent("policy:inner.zip", game, 0, models)
    real = str((models / "x.zip").resolve())
    assert policy_calls == [real, real]


def test_a_model_replaced_by_a_link_out_is_not_built(
    folders: dict[str, Path], settings: Settings, policy_calls: list[str]
) -> None:
    models = folders["models"]
    assert network_spec("policy:x.zip", "stellium", settings) == "policy:x.zip"
    (models / "x.zip").unlink()
    (models / "x.zip").symlink_to(folders["outside"] / "evil.zip")
    with pytest.raises(ValueError, match="models folder"):
        make_agent("policy:x.zip", game_class("stellium")(), 0, models)
    assert policy_calls == []


# --- hole 2: the AI's budget from the network --------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "spec", "stored"),
    [
        ("stellium", "random", "random"),
        ("stellium", "heuristic", "heuristic"),
        ("stellium", "mcts", "mcts"),
        ("stellium", "mcts:easy", "mcts:easy"),
        ("stellium", "mcts:normal", "mcts:normal"),
        ("stellium", "mcts:hard", "mcts:hard"),
        ("stellium", "  mcts:hard\n", "mcts:hard"),
        ("stellium", "\u00a0mcts:hard\t", "mcts:hard"),
        ("stellium", "mcts:hard:seconds=1", "mcts:hard:seconds=1"),
        ("stellium", "mcts:hard:time=0.5", "mcts:hard:seconds=0.5"),
        ("stellium", "mcts:iterations=500", "mcts:iterations=500"),
        ("stellium", "mcts:iters=500", "mcts:iterations=500"),
        ("stellium", "mcts:easy:iterations=1", "mcts:easy:iterations=1"),
        (
            "stellium",
            "mcts:hard:seconds=1.6:iterations=100000",
            "mcts:hard:seconds=1.6:iterations=100000",
        ),
        ("stellium", "mcts:seconds=1e-1", "mcts:seconds=0.1"),
        ("conflict", "mcts:hard", "mcts:hard"),
        ("expedition", "heuristic", "heuristic"),
        ("stellarion", "pimc", "pimc"),
        ("stellarion", "pimc:seconds=1", "pimc:seconds=1"),
        ("stellarion", "lookahead", "lookahead"),
        (
            "stellarion",
            "lookahead:seconds=1.5:endgame_seconds=0.5",
            "lookahead:seconds=1.5:endgame_seconds=0.5",
        ),
    ],
)
def test_what_the_lobby_offers_is_accepted(
    game_id: str, spec: str, stored: str, settings: Settings
) -> None:
    assert network_spec(spec, game_id, settings) == stored
    assert network_spec(stored, game_id, settings) == stored  # stored specs pass again
    agent = make_agent(stored, game_class(game_id)(), 0, settings.models)
    assert hasattr(agent, "choose")


def test_an_accepted_budget_is_the_one_built(settings: Settings) -> None:
    game = game_class("stellium")()
    agent = make_agent(network_spec("mcts:hard:seconds=1", "stellium", settings), game, 0)
    assert (agent.budget.seconds, agent.budget.iterations) == (1.0, 100_000)
    agent = make_agent(network_spec("mcts:iterations=500", "stellium", settings), game, 0)
    assert (agent.budget.seconds, agent.budget.iterations) == (0.8, 500)


@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("mcts:hard:seconds=3600", "seconds may be at most 1.6 on this server (ai_max_seconds)"),
        ("mcts:hard:seconds=3600:iterations=1000000000", "at most"),
        ("mcts:hard:time=1.7", "seconds may be at most 1.6 on this server (ai_max_seconds)"),
        ("mcts:seconds=1e9", "ai_max_seconds"),
        ("mcts:seconds=inf", "seconds"),
        ("mcts:seconds=nan", "seconds"),
        ("mcts:seconds=-1", "seconds"),
        ("mcts:seconds=0", "no limit"),
        ("mcts:time=0", "no limit"),
        ("mcts:seconds=abc", "seconds"),
        ("mcts:hard:seconds=1:seconds=3600", "ai_max_seconds"),
        ("mcts:hard:seconds=1:time=3600", "ai_max_seconds"),
        (
            "mcts:iterations=1000000000",
            "iterations may be at most 100000 on this server (ai_max_iterations)",
        ),
        ("mcts:iters=100001", "ai_max_iterations"),
        ("mcts:iterations=0", "no limit"),
        ("mcts:iterations=-5", "iterations"),
        ("mcts:iterations=1.5", "iterations"),
        ("mcts:hard:seconds=0:iterations=0", "no limit"),
        ("mcts:iterations=10:iterations=0", "no limit"),
    ],
)
def test_a_budget_beyond_the_limits_is_refused(spec: str, limit: str, settings: Settings) -> None:
    assert limit in refusal(spec, "stellium", settings)


def test_the_limit_message_names_the_limit(settings: Settings) -> None:
    assert refusal("mcts:hard:seconds=3600", "stellium", settings) == (
        "mcts:hard:seconds=3600: seconds may be at most 1.6 on this server (ai_max_seconds)"
    )
    assert refusal("pimc:seconds=100", "stellarion", settings) == (
        "pimc:seconds=100: seconds may be at most 1.6 on this server (ai_max_seconds)"
    )
    assert "endgame_seconds may be at most 1.6" in refusal(
        "lookahead:endgame_seconds=100", "stellarion", settings
    )
    assert "no limit" in refusal("pimc:seconds=0", "stellarion", settings)


def test_the_limits_are_the_servers(folders: dict[str, Path]) -> None:
    roomy = Settings(models=folders["models"], ai_max_seconds=10, ai_max_iterations=10**6)
    assert network_spec("mcts:hard:seconds=10", "stellium", roomy) == "mcts:hard:seconds=10"
    assert network_spec("mcts:iterations=1000000", "stellium", roomy) == "mcts:iterations=1000000"
    tight = Settings(models=folders["models"], ai_max_seconds=0.5, ai_max_iterations=200)
    assert "at most 0.5" in refusal("mcts:seconds=1", "stellium", tight)
    assert "at most 200" in refusal("mcts:iterations=201", "stellium", tight)


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [
        ("stellium", "mcts:hard:c=2"),
        ("stellium", "mcts:exploration=2"),
        ("stellium", "mcts:depth=400"),
        ("stellium", "mcts:hard:policy=random"),
        ("stellium", "mcts:clock=cpu"),
        ("stellium", "mcts:reuse=0"),
        ("stellium", "mcts:early=0"),
        ("stellium", "mcts:trust=0"),
        ("stellium", "mcts:flat=1"),
        ("stellium", "mcts:hard:seconds=1:c=2"),
        ("stellium", "mcts:bogus=1"),
        ("stellarion", "pimc:samples=1000"),
        ("stellarion", "pimc:candidates=50"),
        ("stellarion", "pimc:turns=9"),
        ("stellarion", "lookahead:deals=1000"),
        ("stellarion", "lookahead:top=50"),
        ("stellarion", "lookahead:samples=9"),
        ("stellarion", "lookahead:endgame=30"),
        ("stellarion", "lookahead:iterations=5"),
    ],
)
def test_other_parameters_are_for_the_command_line(
    game_id: str, spec: str, settings: Settings
) -> None:
    message = refusal(spec, game_id, settings)
    assert "command line" in message and "skydeck tournament" in message


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        (None, "string"),
        (3, "string"),
        (["mcts:hard"], "string"),
        ({"agent": "mcts"}, "string"),
        (b"random", "string"),
        ("", "empty"),
        ("   ", "empty"),
        ("\n\t", "empty"),
        ("mcts: hard", "space"),
        ("mcts:hard :seconds=1", "space"),
        ("policy:x .zip", "space"),
        ("policy:x.zip\x00", "control"),
        ("mcts:hard\u200b", "control"),
        ("alphazero", "unknown agent"),
        ("POLICY:x.zip", "unknown agent"),
        ("Random", "unknown agent"),
        ("MCTS:hard", "unknown agent"),
        ("mcts:HARD", "unknown mcts level"),
        ("mcts:insane", "unknown mcts level"),
        ("random:seconds=1", "takes no level or parameters"),
        ("heuristic:hard", "takes no level or parameters"),
        ("pimc", "not offered for 'stellium'"),
        ("lookahead", "not offered for 'stellium'"),
        ("x" * 10_000, "characters"),
    ],
)
def test_malformed_specs_are_refused(spec: Any, says: str, settings: Settings) -> None:
    assert says in refusal(spec, "stellium", settings)


def test_an_offer_is_per_game(settings: Settings) -> None:
    assert "not offered for 'conflict'" in refusal("pimc:seconds=1", "conflict", settings)
    assert "not offered for 'conflict'" in refusal("lookahead", "conflict", settings)


# --- the command line keeps every override -----------------------------------------------


def test_the_command_line_keeps_its_overrides() -> None:
    game = game_class("stellium")()
    agent = agents.make("mcts:hard:seconds=3600", game)
    assert agent.budget.seconds == 3600
    agent = agents.make("mcts:hard:seconds=0:iterations=1000000000:c=2", game)
    assert (agent.budget.seconds, agent.budget.iterations) == (None, 1_000_000_000)
    assert agents.make("mcts:depth=3:policy=random", game).name == "mcts:depth=3:policy=random"


def test_the_command_line_still_loads_a_model_by_path(tmp_path: Path) -> None:
    """``policy:PATH`` keeps meaning a path for ``skydeck.agents.make``: the guard is
    the server's (the path is read, and fails here as the file is no model)."""
    path = tmp_path / "elsewhere" / "m.zip"
    write_model(path, "conflict")
    with pytest.raises(ValueError, match="trained for 'conflict'"):
        agents.make(f"policy:{path}", game_class("stellium")())
