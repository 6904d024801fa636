"""The terminal renderer draws any view (spectator and seated) without error."""

from __future__ import annotations

from rich.console import Console

from skydeck.core import Rng
from skydeck.games.expedition import terminal
from tests.games.expedition.helpers import fresh, game


def test_render_views_along_a_game() -> None:
    st = fresh(3, 2)
    rng = Rng(2)
    console = Console(record=True, width=100)
    for step in range(400):
        if st.is_over:
            break
        if step % 40 == 0:
            for seat in (None, 0):
                console.print(terminal.render(st.view(seat), seat))
            s = st.to_move[0]
            for a in st.legal_actions(s)[:5]:
                assert str(a) in terminal.label(a, st.view(s))
        s = rng.choice(st.to_move)
        st.apply(rng.choice(st.legal_actions(s)), s)
    text = console.export_text()
    assert "GT" in text and "Dashboards" in text and "Upgrade store" in text


def test_factions_from_the_command_line() -> None:
    class Args:
        factions = "edda, maheri"

    opts = terminal.options_from_args(Args())  # type: ignore[arg-type]
    assert opts == {"factions": ["edda", "maheri"]}
    assert game(2, **opts).options["factions"] == ["edda", "maheri"]
