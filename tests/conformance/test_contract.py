"""The engine contract, on every registered game and every declared configuration."""

from __future__ import annotations

import pytest

import skydeck
from skydeck import conformance as checks
from skydeck.registry import game_class

CONFIGS = [
    pytest.param(gid, cfg, id=f"{gid}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for gid in skydeck.games()
    for cfg in game_class(gid).conformance_configs()
]
SEEDS = [1, 2] if checks.SHORT else [1, 2, 3]


def test_games_are_registered() -> None:
    ids = skydeck.games()
    assert ids == sorted(ids)
    for gid in ids:
        game = skydeck.load(gid)
        assert game.id == gid


@pytest.mark.parametrize("gid", skydeck.games())
def test_bad_options_are_refused(gid: str) -> None:
    with pytest.raises(ValueError, match="unknown option"):
        skydeck.load(gid, no_such_option=1)
    with pytest.raises(ValueError, match="players"):
        skydeck.load(gid, players=99)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_finishes(gid: str, cfg: dict, seed: int) -> None:
    checks.check_playout_finishes(skydeck.load(gid, **cfg), seed)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_determinism(gid: str, cfg: dict) -> None:
    checks.check_determinism(skydeck.load(gid, **cfg), 11)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_round_trip(gid: str, cfg: dict) -> None:
    checks.check_round_trip(skydeck.load(gid, **cfg), 12, every=1 if not checks.SHORT else 2)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_clone_independent(gid: str, cfg: dict) -> None:
    checks.check_clone_independent(skydeck.load(gid, **cfg), 13)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_snapshot_independent(gid: str, cfg: dict) -> None:
    checks.check_snapshot_independent(skydeck.load(gid, **cfg), 18)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_views_and_resample(gid: str, cfg: dict) -> None:
    checks.check_views_and_resample(skydeck.load(gid, **cfg), 14)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_accepts_answers_as_validate(gid: str, cfg: dict) -> None:
    checks.check_accepts(skydeck.load(gid, **cfg), 19)


PUBLIC = [p for p in CONFIGS if game_class(p.values[0]).public_views]


def test_public_views_are_declared_where_nothing_is_private() -> None:
    """Stellarion (co-operative) and Stellium hide nothing from one player that another
    sees; Stellar Conflict and Stellar Expedition keep hands private."""
    assert {p.values[0] for p in PUBLIC} == {"stellarion", "stellium"}


@pytest.mark.parametrize(("gid", "cfg"), PUBLIC)
def test_public_views(gid: str, cfg: dict) -> None:
    checks.check_public_views(skydeck.load(gid, **cfg), 18)


ACTIONS_PUBLIC = [p for p in CONFIGS if game_class(p.values[0]).public_actions]


def test_public_actions_are_declared_where_every_choice_shows() -> None:
    """Stellium's choices all show on the table. The check fails on every other game:
    Stellar Conflict's fleet purchases and Stellar Expedition's drafts go to hidden
    hands, and a Stellarion Ship search names a card that nobody sees taken (two
    searches leave the same table and different decks)."""
    assert {p.values[0] for p in ACTIONS_PUBLIC} == {"stellium"}


@pytest.mark.parametrize(("gid", "cfg"), ACTIONS_PUBLIC)
def test_public_actions(gid: str, cfg: dict) -> None:
    checks.check_public_actions(skydeck.load(gid, **cfg), 19, every=3 if not checks.SHORT else 9)


@pytest.mark.parametrize("gid", ["conflict", "expedition", "stellarion"])
def test_the_public_actions_check_finds_a_secret_choice(gid: str) -> None:
    with pytest.raises(AssertionError, match="leave the same public view"):
        checks.check_public_actions(skydeck.load(gid), 19, every=1)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_from_view(gid: str, cfg: dict) -> None:
    game = skydeck.load(gid, **cfg)
    if not game.has_from_view:
        pytest.skip(f"{gid} does not declare has_from_view")
    checks.check_from_view(game, 17, every=3 if not checks.SHORT else 6)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_action_round_trips(gid: str, cfg: dict) -> None:
    checks.check_action_round_trips(skydeck.load(gid, **cfg), 15)


@pytest.mark.parametrize(("gid", "cfg"), CONFIGS)
def test_illegal_actions(gid: str, cfg: dict) -> None:
    checks.check_illegal_actions(skydeck.load(gid, **cfg), 16)
