"""The terminal drawing works in every phase and names actions by their cards."""

from __future__ import annotations

import argparse

from rich.console import Console

from skydeck.core import Action, Rng
from skydeck.games.conflict.terminal import add_arguments, options_from_args, render
from skydeck.terminal import action_label
from tests.games.conflict.helpers import load


def test_options_from_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        ["--scale", "war", "--races", "vak,hexai", "--variants", "meteor", "--meteors", "2"]
    )
    opts = options_from_args(args)
    assert opts == {"scale": "war", "races": ["vak", "hexai"], "variants": ["meteor"], "meteors": 2}
    load(**opts)  # accepted by the game


def test_render_every_phase_without_leaking() -> None:
    game = load(scale="dispute")
    st = game.new(4)
    rng = Rng(4)
    seen = set()
    console = Console(width=120, record=True)
    while True:
        if st.phase not in seen or st.is_over:
            seen.add(st.phase)
            for seat in (None, 0, 1):
                console.print(render(st.view(seat), seat))
        if st.is_over:
            break
        seat = rng.choice(st.to_move)
        acts = st.legal_actions(seat)
        for a in acts[:3]:
            assert isinstance(game.describe(a, st.view(seat)), str)
        st.apply(rng.choice(acts), seat)
    assert {"preparation", "deployment", "battle", "over"} <= seen


def test_labels_name_the_cards() -> None:
    """The menu's line is the game's one description given the seat's view: a purchase
    with the card's VP and lasers; the log's (no view) keeps cost, initiative and hull."""
    game = load()
    st = game.new(1)
    buy = Action("buy", ("wiss.tempest_1",))
    text = action_label(game, buy, st.view(0))
    assert text.startswith("buy Tempest I (3 cr, init 4, hull 3, ") and "lasers 3" in text
    assert game.describe(buy) == "buy Tempest I (3 cr, init 4, hull 3)"


# --- hotseat play through the generic terminal loop, with scripted input ------------


def _play(lines: list[str], seed: int = 3, **options):
    import io

    import skydeck
    from skydeck.terminal import play

    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    game = skydeck.load("conflict", **{"scale": "dispute", **options})
    match = play(game, seed, iter(lines), console)
    return out.getvalue(), match


def test_a_placement_can_be_typed_anywhere_on_the_table() -> None:
    text, match = _play(["ready", "ready", "place 455 305 10", "quit"])
    entries = match.record.entries
    assert str(entries[-1].action) == "place 455 305 10"
    card = match.state.view(None)["cards"][0]
    assert (card["x"], card["y"], card["angle"]) == (455, 305, 10)
    assert "Suggested placements" in text
    assert "(x mm; y mm on the left)" in text  # rulers to read coordinates from


def test_a_bad_placement_is_refused_with_a_reason() -> None:
    text, match = _play(["ready", "ready", "place 10 10 0", "place 450 300 0", "quit"])
    assert "leave the" in text  # the card would hang off the table
    assert [str(e.action) for e in match.record.entries][-1] == "place 450 300 0"


def test_a_suggestion_is_played_by_its_number() -> None:
    from skydeck.games.conflict.terminal import suggestions

    game = load(scale="dispute")
    st = game.new(3)
    st.apply(Action("ready"), 0)
    st.apply(Action("ready"), 1)
    st.apply(Action("place", (450, 300, 0)), 0)  # the Cargo ship
    view = st.view(0)
    rows = suggestions(view, 0)
    assert len(rows) == 6
    legal = st.legal_actions(0)
    for number, action, why in rows:
        assert legal[number - 1] == action  # the number to type is its place in the list
        assert why.startswith("lasers hit")
    number, action, _ = rows[0]
    text, match = _play(["ready", "ready", "place 450 300 0", str(number), "quit"])
    assert match.record.entries[-1].action == action
    assert f"{number:>4}  {action}" in text
    # nobody else's view gets suggestions, and no card in hand means none either
    assert suggestions(st.view(1), 0) == [] and suggestions(st.view(None), 0) == []


def test_suggestions_prefer_shooting_at_the_enemy() -> None:
    """With an enemy ship on the table the best suggestion's lasers hit it."""
    from skydeck.games.conflict.terminal import suggestions

    game = load(scale="dispute")
    st = game.new(3)
    st.apply(Action("ready"), 0)
    st.apply(Action("ready"), 1)
    st.apply(Action("place", (450, 300, 0)), 0)
    st.apply(Action("place", (100, 100, 0)), 1)  # Vak's Cargo ship
    view = st.view(0)
    rows = suggestions(view, 0)
    assert "Vak" in rows[0][2] or "Hauler" in rows[0][2], rows[0]


def test_a_whole_hotseat_game_typed_by_numbers() -> None:
    text, match = _play(["1"] * 400, seed=5)
    assert match.state.is_over
    assert "Game over" in text
