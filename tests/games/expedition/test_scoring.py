"""End of game: Expedition points, 3-Embassy points, and the tie-breaks."""

from __future__ import annotations

from skydeck.games.expedition import flow
from tests.games.expedition.helpers import at_command, crew, exp, loc


def over(st):  # type: ignore[no-untyped-def]
    st.round = 8
    st.pending, st.phase, st.step = [], "end", 0
    flow.settle(st, [])
    assert st.is_over
    return st


def test_points_from_expeditions_and_full_embassy_locations() -> None:
    st = at_command(2)
    st.done[0] = [exp("bronze_01"), exp("gold_02")]  # 1 + 6
    st.emb[0][loc("terra_nova")] = 3
    st.emb[0][loc("port_meridian")] = 3
    st.emb[0][loc("cinder_reach")] = 2
    over(st)
    assert st.scores == [9.0, 0.0] and st.winners == (0,)


def test_tie_broken_by_crew_levels() -> None:
    st = at_command(2)
    st.done[0] = [exp("bronze_01")]
    st.done[1] = [exp("bronze_03")]
    st.hand[1].append(crew("port_meridian_3"))
    over(st)
    assert st.scores[0] == st.scores[1] and st.winners == (1,)


def test_then_by_location_cards_then_shared() -> None:
    st = at_command(2)
    st.loc_cards[0].append(loc("port_meridian"))
    over(st)
    assert st.crew_levels(0) == st.crew_levels(1) and st.winners == (0,)
    st2 = at_command(2)
    over(st2)
    assert st2.winners == (0, 1)
