"""SVG pictures: well-formed, one card polygon per card on the table, one line per shot,
one picture per initiative step."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from skydeck.core.record import Match
from skydeck.games.conflict.agents import HeuristicAgent
from skydeck.games.conflict.svg import battle_pictures, render_svg
from tests.games.conflict.helpers import battle, fire, load

NS = "{http://www.w3.org/2000/svg}"


def test_a_step_is_drawn_with_cards_shields_and_lasers() -> None:
    st = battle([("vak.raider_1", 1, 100, 100, 0), ("wiss.warden_1", 0, 100, 300, 180)])
    fire(st)
    root = ET.fromstring(render_svg(st.view(None)))
    cards = [e for e in root.iter(f"{NS}polygon") if e.get("class") == "card"]
    lasers = [e for e in root.iter(f"{NS}line") if e.get("class") == "laser"]
    shields = [e for e in root.iter(f"{NS}line") if e.get("class") == "shield"]
    assert len(cards) == 2 and len(shields) == 1
    assert [e.get("data-result") for e in lasers] == ["shield"]
    # y is flipped: the Raider's laser starts at table y=144, i.e. 600 - 144 + margin 20
    assert float(lasers[0].get("y1")) == 476.0
    assert "Warden I" in "".join(root.itertext())


def test_one_picture_per_initiative_step() -> None:
    game = load(scale="dispute")
    match = Match(game, seed=2)
    agents = [HeuristicAgent(game, 1), HeuristicAgent(game, 2)]
    steps = 0
    while not match.state.is_over:
        seat = match.state.to_move[0]
        view = match.state.view(seat)
        action = agents[seat].choose(view, match.state.legal_actions(seat), seat)
        steps += action.kind == "fire"
        match.play(seat, action)
    pictures = battle_pictures(match.record)
    assert pictures[0][0] == "deployed"
    assert len(pictures) == steps + 1
    for _label, svg in pictures:
        ET.fromstring(svg)


def test_command_line_writes_one_file_per_step(tmp_path) -> None:
    from skydeck.games.conflict.svg import main

    game = load(scale="dispute")
    match = Match(game, seed=4)
    agents = [HeuristicAgent(game, 1), HeuristicAgent(game, 2)]
    while not match.state.is_over:
        seat = match.state.to_move[0]
        match.play(
            seat, agents[seat].choose(match.state.view(seat), match.state.legal_actions(seat), seat)
        )
    match.record.save(tmp_path / "m.json")
    assert main([str(tmp_path / "m.json"), "--out", str(tmp_path / "t.svg")]) == 0
    files = sorted(p.name for p in tmp_path.glob("t*.svg"))
    assert files[0] == "t-00.svg" and files[-1] == "t.svg" and len(files) >= 3
    for name in files:
        ET.fromstring((tmp_path / name).read_text())
