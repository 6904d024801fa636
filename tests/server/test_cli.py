"""`skydeck serve` and `skydeck bench server` are wired into the CLI."""

from __future__ import annotations

import pytest

from skydeck.cli import build_parser


def test_serve_parses_host_port_and_db():
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9001", "--db", "sqlite:///x.sqlite"]
    )
    from skydeck.server.settings import from_args

    settings = from_args(args)
    assert (settings.host, settings.port) == ("0.0.0.0", 9001)
    assert settings.database_url == "sqlite:///x.sqlite"
    assert callable(args.func)


def test_bench_still_takes_games_and_now_server():
    parser = build_parser()
    assert parser.parse_args(["bench", "server", "--matches", "3"]).matches == 3
    assert parser.parse_args(["bench", "server", "--once"]).once is True
    assert parser.parse_args(["bench", "server"]).once is False
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "no-such-game"])


@pytest.mark.skipif(
    "stellium" not in __import__("skydeck").registry.game_ids(),
    reason="Stellium is not registered",
)
def test_bench_server_plays_real_matches_over_websockets():
    from skydeck.server.bench import run_bench

    result = run_bench("stellium", matches=2, seconds=6)
    assert result["moves"] > 0 and result["errors"] == 0
    assert 0 < result["p50_ms"] <= result["p99_ms"]
