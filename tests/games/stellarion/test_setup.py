"""Options, content data and set-up."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import skydeck
from skydeck.games.stellarion.cards import FACE_NAMES
from skydeck.games.stellarion.content import DATA, load_content
from tests.games.stellarion.helpers import ALL, full_box


def test_default_shooting_stars_solo_and_coop() -> None:
    assert skydeck.load("stellarion").options["shooting_stars"] == 1
    assert skydeck.load("stellarion", players=2).options["shooting_stars"] == 3


@pytest.mark.parametrize(("players", "ok", "bad"), [(1, [0, 4], [-1, 5]), (2, [2, 6], [1, 7])])
def test_shooting_star_handicap_range(players: int, ok: list[int], bad: list[int]) -> None:
    for n in ok:
        assert skydeck.load("stellarion", players=players, shooting_stars=n).new(1).stars == n
    for n in bad:
        with pytest.raises(ValueError, match="shooting_stars"):
            skydeck.load("stellarion", players=players, shooting_stars=n)
    with pytest.raises(ValueError, match="shooting_stars"):
        skydeck.load("stellarion", shooting_stars="2")


def test_expansions_validated_and_sorted() -> None:
    g = skydeck.load("stellarion", expansions=("theories", "black_holes"))
    assert g.options["expansions"] == ["black_holes", "theories"]
    with pytest.raises(ValueError, match="wormholes"):
        skydeck.load("stellarion", expansions=["mirrors", "wormholes"])
    with pytest.raises(ValueError, match="list"):
        skydeck.load("stellarion", expansions="mirrors")
    # a set of expansions: one named twice is named once
    assert skydeck.load("stellarion", expansions=["mirrors", "mirrors"]).options["expansions"] == [
        "mirrors"
    ]


def test_content_loads_and_broken_file_names_field(tmp_path: Path) -> None:
    c = load_content()
    assert len(c.sun.meteors) == 4 and c.sun.final > c.sun.start
    text = DATA.read_text().replace("meteors = [5, 11, 18, 26]", "meteors = [5, 11, 18]")
    bad = tmp_path / "content.toml"
    bad.write_text(text)
    with pytest.raises(ValueError, match=r"content.toml.*sun.*meteors"):
        load_content(bad)
    bad.write_text(DATA.read_text().replace('galaxy = "delta"', 'galaxy = "omega"', 1))
    with pytest.raises(ValueError, match="galaxy"):
        load_content(bad)
    bad.write_text(DATA.read_text().replace('id = "time_shift_radar"', 'id = "warp"'))
    with pytest.raises(ValueError, match="warp"):
        load_content(bad)
    bad.write_text("not = [valid")
    with pytest.raises(ValueError, match="cannot read"):
        load_content(bad)


def test_base_setup_decks_and_voyages() -> None:
    s = skydeck.load("stellarion").new(5)
    assert [len(d) for d in s.decks] == [8] * 8
    assert all(s.up) and s.ktop == [1] * 8
    copies = Counter(c & 31 for d in s.decks for c in d)
    assert set(copies.values()) == {4} and len(copies) == 16  # 4 copies of each card
    for d, deck in enumerate(s.decks):  # 2 copies of each of its 4 cards
        assert set(Counter(deck).values()) == {2}
        assert all((c >> 5) == d for c in deck)
    assert sorted(len(c) for c in s.columns) == [2, 2, 2, 2]
    assert s.stars == 1 and s.outpost == [] and not any(s.discards)


@pytest.mark.parametrize(
    ("exp", "voyages"),
    [
        ([], 8),
        (["black_holes"], 13),
        (["theories"], 9),
        (["mirrors"], 9),
        (["glaucous_sun"], 9),
        (ALL, 16),
    ],
)
def test_advanced_voyages_added(exp: list[str], voyages: int) -> None:
    s = skydeck.load("stellarion", expansions=exp).new(3)
    assert sum(len(c) for c in s.columns) == voyages


def test_black_holes_and_mirrors_one_per_deck() -> None:
    s = skydeck.load("stellarion", expansions=["black_holes", "mirrors"]).new(2)
    for d in range(8):
        names = Counter(FACE_NAMES[c & 31] for c in s.decks[d])
        assert names["blackhole"] == 1 and names["mirror"] == 1 and len(s.decks[d]) == 10
    assert Counter(c for d in s.decks for c in d) == full_box(s)


def test_mirror_columns_uneven_and_even() -> None:
    s = skydeck.load("stellarion", expansions=["mirrors"]).new(1)
    assert [len(c) for c in s.columns] == [5, 4]  # 9 cards: the left column has one more
    s = skydeck.load("stellarion", expansions=["mirrors", "theories"]).new(1)
    assert [len(c) for c in s.columns] == [5, 5]
    s = skydeck.load("stellarion", expansions=ALL).new(1)
    assert [len(c) for c in s.columns] == [8, 8]


def test_theories_and_sun_setup() -> None:
    s = skydeck.load("stellarion", expansions=["theories", "glaucous_sun"]).new(4)
    assert sorted(s.theories) == [0, 1, 2, 3] and 0 <= s.breakthrough < 4
    v = s.view(0)
    assert v["theories"]["left"] == 4 and v["theories"]["top"] is not None
    assert v["sun"]["position"] == 0 and v["sun"]["meteors_on_board"] == [5, 11, 18, 26]
    assert v["breakthrough"]["type"] in ("ship", "nebula", "stars", "planet")


def test_setup_depends_on_seed_only() -> None:
    g = skydeck.load("stellarion", expansions=ALL)
    assert g.new(9).to_json() == g.new(9).to_json()
    assert g.new(9).to_json() != g.new(10).to_json()


def test_restore_refuses_malformed_states() -> None:
    g = skydeck.load("stellarion")
    good = g.new(1).to_json()
    for broken in (
        {k: v for k, v in good.items() if k != "decks"},
        {**good, "phase": 42},
        {**good, "decks": good["decks"][:7]},
        {**good, "discards": [[5 << 5 | 3], *good["discards"][1:]]},
    ):
        with pytest.raises(ValueError, match="malformed"):
            g.restore(broken)
    assert g.restore(good).to_json() == good
