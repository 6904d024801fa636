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
                text = st.game.describe(a, st.view(s))  # the menu's line names content
                assert text and "_" not in text, text
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


def test_pending_decisions_are_described_in_words() -> None:
    from tests.games.expedition.helpers import act, at_command, crew, exp

    st = at_command(2)
    st.hand[0] = [crew("captain_vance"), crew("archon_miri")]
    st.exps[0] = [exp("bronze_01")]
    act(st, "expedition bronze_01", 0)
    act(st, "play captain_vance", 0)
    text = terminal.describe_pending(st.view(0)["pending"])
    assert "needs officer, psychic" in text and "played: captain_vance" in text


def test_describe_names_the_content() -> None:
    from skydeck.core import Action

    g = game(2)
    assert g.describe(Action("play", ("ensign_okoro",))) == "play Ensign Okoro (L1: Pilot)"
    assert "Lost Survey" in g.describe(Action("expedition", ("bronze_01",)))
    assert g.describe(Action("end")) == "end the Command phase"


def test_render_module_and_solo_views() -> None:
    from tests.games.expedition.helpers import drafted

    st = drafted(1, 3, solo_rank="admiral", modules=["hazards", "legendary"])
    rng = Rng(3)
    console = Console(record=True, width=120)
    while not st.is_over:
        if st.round in (1, 8) and rng.below(20) == 0:
            console.print(terminal.render(st.view(0), 0))
        st.apply(rng.choice(st.legal_actions(0)), 0)
    console.print(terminal.render(st.view(None), None))
    text = console.export_text()
    assert "drone (admiral)" in text and "modules: hazards, legendary" in text


def test_modules_and_rank_from_the_command_line() -> None:
    class Args:
        factions = ""
        modules = "hazards,events"
        solo_rank = "captain"

    opts = terminal.options_from_args(Args())  # type: ignore[arg-type]
    assert opts == {"modules": ["hazards", "events"], "solo_rank": "captain"}
    assert game(1, **opts).options["solo_rank"] == "captain"
