"""The terminal drawing works in every phase and names actions by their cards."""

from __future__ import annotations

import argparse

from rich.console import Console

from skydeck.core import Action, Rng
from skydeck.games.conflict.terminal import add_arguments, label, options_from_args, render
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
            assert isinstance(label(a, st.view(seat)), str)
        st.apply(rng.choice(acts), seat)
    assert {"preparation", "deployment", "battle", "over"} <= seen


def test_labels_name_the_cards() -> None:
    game = load()
    st = game.new(1)
    text = label(Action("buy", ("wiss.tempest_1",)), st.view(0))
    assert text.startswith("buy Tempest I: 3 cr, init 4, hull 3") and "lasers 3" in text
