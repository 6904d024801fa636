"""Pictures: well-formed SVG, one card per card on the table, one beam per shot with its
result, ghosts for the cards a step removed, one file per step, valid PNG bytes."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from skydeck.core.record import Match, MatchRecord
from skydeck.games.conflict.ai.heuristic import HeuristicAgent
from skydeck.games.conflict.svg import (
    PIXELS_PER_MM,
    battle_pictures,
    main,
    render_record,
    render_svg,
)
from tests.games.conflict.helpers import battle, fire, load

NS = "{http://www.w3.org/2000/svg}"


def _cards(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}g") if e.get("class") == "card"]


def _lines(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}line") if e.get("class") == cls]


def test_a_step_is_drawn_with_cards_shields_and_lasers() -> None:
    st = battle([("vak.raider_1", 1, 100, 100, 0), ("wiss.warden_1", 0, 100, 300, 180)])
    fire(st)
    root = ET.fromstring(render_svg(st.view(None)))
    lasers = _lines(root, "laser")
    assert len(_cards(root)) == 2 and len(_lines(root, "shield")) == 1
    assert [e.get("data-result") for e in lasers] == ["shield"]
    # y is flipped: the Raider's laser starts at table y=144; the table's top edge
    # (y=600) is drawn at MARGIN + TOP, so y=144 is 456 below it
    top = float(next(e for e in root.iter(f"{NS}rect") if e.get("fill") == "#0b1426").get("y"))
    assert float(lasers[0].get("y1")) == pytest.approx(top + 600 - 144)
    text = "".join(root.itertext())
    assert "Warden I" in text and "Raider I" in text and "shield" in text


def test_damage_and_cubes_are_marked_and_a_destroyed_card_stays_as_a_ghost() -> None:
    st = battle(
        [
            ("vak.raider_1", 1, 100, 100, 0),  # 2-laser straight ahead
            ("wiss.glimmer_1", 0, 100, 300, 0),  # hull 1, no shield at its back
        ]
    )
    fire(st)  # initiative 1: the Glimmer shoots up, off the table
    before = st.view(None)
    events = fire(st)  # initiative 3: the Raider hits the Glimmer's back
    after = st.view(None)
    assert after["cards"][1]["on_table"] is False  # the Glimmer was destroyed
    firing = next(e.data["firing"] for e in events if e.kind == "initiative")
    root = ET.fromstring(render_svg(after, "step", before, firing))
    assert len(_cards(root)) == 2  # the destroyed Glimmer is still drawn
    ghost = [e for e in _cards(root) if e.get("opacity")]
    assert [e.get("data-card") for e in ghost] == ["1"]
    assert "DESTROYED" in "".join(root.itertext())
    assert [e.get("data-result") for e in _lines(root, "laser")] == ["damage"]
    # without the view before, the destroyed card is simply gone
    assert len(_cards(ET.fromstring(render_svg(after)))) == 1


def _played_record(seed: int, scale: str = "dispute") -> tuple[MatchRecord, int]:
    game = load(scale=scale)
    match = Match(game, seed=seed)
    agents = [HeuristicAgent(game, 1), HeuristicAgent(game, 2)]
    steps = 0
    while not match.state.is_over:
        seat = match.state.to_move[0]
        view = match.state.view(seat)
        action = agents[seat].choose(view, match.state.legal_actions(seat), seat)
        steps += action.kind == "fire"
        match.play(seat, action)
    return match.record, steps


def test_one_picture_per_initiative_step() -> None:
    record, steps = _played_record(2)
    pictures = battle_pictures(record)
    assert pictures[0][0].startswith("Deployed")
    assert len(pictures) == steps + 1
    assert [label.split(":")[0] for label, _ in pictures[1:]] == [
        f"Step {i}" for i in range(1, steps + 1)
    ]
    for _label, svg in pictures:
        ET.fromstring(svg)


def test_render_record_writes_svg_files_one_per_step(tmp_path: Path) -> None:
    record, steps = _played_record(4)
    paths = render_record(record, tmp_path / "table.svg")
    assert [p.name for p in paths] == [f"table-{i:02d}.svg" for i in range(steps + 1)]
    for p in paths:
        root = ET.fromstring(p.read_text())
        assert root.tag == f"{NS}svg"


def test_render_record_writes_png_pictures(tmp_path: Path) -> None:
    record, steps = _played_record(4)
    paths = render_record(record, tmp_path / "table.png")
    assert len(paths) == steps + 1
    svg_root = ET.fromstring(battle_pictures(record)[0][1])
    for p in paths[:2]:
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
        width, height = struct.unpack(">II", data[16:24])
        assert width == round(float(svg_root.get("width")))
        assert height == round(float(svg_root.get("height")))
        assert width > 900 * PIXELS_PER_MM


def test_a_match_that_never_reached_battle_still_gives_a_picture(tmp_path: Path) -> None:
    match = Match(load(scale="dispute"), seed=1)
    paths = render_record(match.record, tmp_path / "t.svg")
    assert [p.name for p in paths] == ["t-00.svg"]
    assert "preparation" in "".join(ET.fromstring(paths[0].read_text()).itertext())


def test_command_line(tmp_path: Path) -> None:
    record, steps = _played_record(6)
    record.save(tmp_path / "m.json")
    assert main([str(tmp_path / "m.json"), "--out", str(tmp_path / "t.svg")]) == 0
    assert len(list(tmp_path.glob("t-*.svg"))) == steps + 1
