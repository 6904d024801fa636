"""Set-up, options and the Universe's geometry as loaded from data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import skydeck
from skydeck.games.stellium.content import DATA, load_missions
from skydeck.games.stellium.missions import build_cards
from skydeck.games.stellium.tables import CARDS, UNIVERSE
from skydeck.games.stellium.universe import build_universe, load


@pytest.mark.parametrize(("players", "shown", "target"), [(2, 6, 20), (3, 7, 25), (4, 8, 30)])
def test_set_up_by_player_count(players: int, shown: int, target: int) -> None:
    game = skydeck.load("stellium", players=players)
    s = game.new(5)
    assert len(s.available) == shown and len(s.reserve) == 40 - shown
    assert game.target == target
    assert skydeck.load("stellium", players=players, first_game=True).target == target - 5
    assert s.hands == [[] for _ in range(players)]
    assert s.tokens == [0b11110] * players  # four different tokens each
    assert 0 <= s.first < players and s.turn == s.first
    assert s.bag == [0, 5, 4, 3, 2]  # 38 minus 4 different bodies in each of 6 Galaxies


def test_four_different_bodies_on_each_galaxys_starting_spaces() -> None:
    for seed in range(10):
        s = skydeck.load("stellium", players=2).new(seed)
        for g, cells in enumerate(UNIVERSE.slot_cells):
            starts = UNIVERSE.disc_start[s.discs[g]][s.turns[g]]
            assert sorted(s.board[cells[p]] for p in starts) == [1, 2, 3, 4]
            assert sum(1 for c in cells if s.board[c]) == 4


def test_set_up_is_random_but_seeded() -> None:
    g = skydeck.load("stellium", players=4)
    layouts = {(tuple(g.new(k).discs), tuple(g.new(k).turns)) for k in range(20)}
    assert len(layouts) > 10
    assert g.new(3).to_json() == g.new(3).to_json()


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="first_game"):
        skydeck.load("stellium", first_game="yes")
    with pytest.raises(ValueError, match="players"):
        skydeck.load("stellium", players=5)


def test_universe_geometry() -> None:
    u = UNIVERSE
    assert len(u.spaces) == 52 and len(u.holes) == 10 and len(u.slot_cells) == 6
    assert [u.names[c] for c in u.centres] == ["d2", "j2", "p2", "g5", "m5", "s5"]
    assert len(u.neighbours[u.index_of["j2"]]) == 6
    assert set(u.names[c] for c in u.neighbours[u.index_of["b2"]]) == {"d2", "c3", "c1"}
    # neighbours across Galaxies exist: f2 | h2 side by side, e3 | f4 north to south
    assert u.index_of["h2"] in u.neighbours[u.index_of["f2"]]
    assert u.galaxy_of[u.index_of["f2"]] != u.galaxy_of[u.index_of["h2"]]
    assert u.galaxy_of[u.index_of["e3"]] != u.galaxy_of[u.index_of["f4"]]
    # each disc has 4 coloured holes, one per colour, and 4 starting holes
    for d in range(6):
        for q in range(6):
            assert sorted(x for x in u.disc_colour[d][q] if x) == [1, 2, 3, 4]
            assert len(u.disc_start[d][q]) == 4


def test_forty_missions_ten_per_colour() -> None:
    assert len(CARDS) == 40
    assert sorted(sum(1 for c in CARDS if c.colour == k) for k in (1, 2, 3, 4)) == [10] * 4
    kinds = {c.kind for c in CARDS}
    assert kinds == {
        "line",
        "semicircle",
        "rectangle",
        "diamond",
        "triangle",
        "around",
        "s_shape",
        "across",
        "centres",
        "colour_spaces",
    }


def _write(tmp: Path, name: str, obj: object) -> Path:
    p = tmp / name
    p.write_text(json.dumps(obj))
    return p


def test_broken_universe_file_names_the_field(tmp_path: Path) -> None:
    raw = json.loads((DATA / "universe.json").read_text())
    raw["map"][0] = "#########X"
    with pytest.raises(ValueError, match=r"universe.json: field map"):
        load(_write(tmp_path, "universe.json", raw))
    raw = json.loads((DATA / "universe.json").read_text())
    raw["discs"][2]["start"] = ["xxx", "...", "..."]
    with pytest.raises(ValueError, match=r"discs.2.start"):
        load(_write(tmp_path, "universe.json", raw))
    raw = json.loads((DATA / "universe.json").read_text())
    raw["galaxies"][1]["centre"] = "d2"  # overlaps the north-west disc
    with pytest.raises(ValueError, match=r"galaxies.1"):
        load(_write(tmp_path, "universe.json", raw))


def test_broken_missions_file_names_the_field(tmp_path: Path) -> None:
    raw = json.loads((DATA / "missions.json").read_text())
    raw["missions"][4]["shape"] = ["PX"]
    with pytest.raises(ValueError, match=r"missions.json: field missions.4"):
        load_missions(_write(tmp_path, "missions.json", raw))
    raw = json.loads((DATA / "missions.json").read_text())
    raw["missions"][3]["kind"] = "spiral"
    with pytest.raises(ValueError, match=r"missions.json: field missions.3"):
        load_missions(_write(tmp_path, "missions.json", raw))
    raw = json.loads((DATA / "missions.json").read_text())
    raw["missions"][0]["shape"] = ["PPPPPPPPPPPPP"]  # longer than the Universe is wide
    with pytest.raises(ValueError, match="fits nowhere"):
        build_cards(build_universe(load_universe_model()), _write(tmp_path, "missions.json", raw))


def load_universe_model():  # type: ignore[no-untyped-def]
    from skydeck.games.stellium.content import load_universe

    return load_universe()
