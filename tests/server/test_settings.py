"""The server's one Settings class: flags, environment, defaults, and where they are
listed for people (``skydeck serve --help`` and PROTOCOL.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from skydeck.cli import build_parser
from skydeck.server.settings import Settings, flag_name, from_args

PROTOCOL = Path(__file__).resolve().parents[2] / "src/skydeck/server/PROTOCOL.md"


def _serve(*argv: str) -> Settings:
    return from_args(build_parser().parse_args(["serve", *argv]))


def test_serve_help_and_protocol_list_every_setting():
    help_text = subprocess.run(
        [sys.executable, "-m", "skydeck.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    protocol = PROTOCOL.read_text()
    for name in Settings.model_fields:
        assert flag_name(name) in help_text, f"serve --help lacks {flag_name(name)}"
        assert f"`{flag_name(name)}`" in protocol, f"PROTOCOL.md lacks {flag_name(name)}"
        assert f"`SKYDECK_{name.upper()}`" in protocol


def test_a_flag_wins_over_the_environment_which_wins_over_the_default(monkeypatch):
    assert _serve().max_unfinished == 20
    monkeypatch.setenv("SKYDECK_MAX_UNFINISHED", "7")
    monkeypatch.setenv("SKYDECK_ALLOWED_ORIGINS", "https://a.example, https://B.example/")
    assert _serve().max_unfinished == 7
    assert _serve().allowed_origins == ["https://a.example", "https://b.example"]
    assert _serve("--max-unfinished", "3").max_unfinished == 3
    assert _serve("--no-limits").limits is False


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--create-rate", "lots"], "--create-rate: Value error, 'lots' is not a rate limit"),
        (["--port", "0"], "--port: Input should be greater than or equal to 1"),
        (["--max-sockets", "many"], "--max-sockets: Input should be a valid integer"),
        (["--allowed-origins", "evil.example"], "--allowed-origins"),
    ],
)
def test_a_bad_setting_stops_start_up_naming_its_flag(argv, words):
    with pytest.raises(SystemExit) as stopped:
        _serve(*argv)
    assert words in str(stopped.value)


def test_settings_go_to_the_workers_as_flags_and_come_back_the_same():
    given = _serve(
        "--no-limits", "--create-rate", "3/minute", "--allowed-origins", "https://x.example",
        "--idle-expiry", "90", "--models", "elsewhere",
    )
    names = [n for n in Settings.model_fields if n not in ("host", "port", "workers")]
    again = _serve(*given.as_flags(*names))
    assert again == given
