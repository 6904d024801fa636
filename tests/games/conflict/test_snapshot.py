"""``to_json()`` is a snapshot (issue 13, item 10): it must not follow the live state."""

from __future__ import annotations

import json

from tests.games.conflict.helpers import load, prepared


def test_a_snapshot_keeps_its_moment_and_restores_it() -> None:
    game = load(2, scale="dispute", races=["wiss", "hexai"])
    st = prepared(game, [["wiss.lancer_1", "wiss.lancer_2"], ["hexai.cell_1"]], seed=1)
    snap = st.to_json()
    text = json.dumps(snap, sort_keys=True)
    # play on to the end: cards leave the decks and hands, the battle fills kill piles,
    # damage counts and the last step's shots
    while not st.is_over:
        seat = st.to_move[0]
        st.apply(st.legal_actions(seat)[0], seat)
    assert st.step > 0 and st.last_shots
    assert json.dumps(snap, sort_keys=True) == text, "the snapshot followed the live state"
    back = game.restore(snap)
    assert json.dumps(back.to_json(), sort_keys=True) == text
    assert back.phase == "deployment" and back.to_move == (0, 1)
    later = st.to_json()
    later["last_shots"][0]["to"].append(0.0)  # a snapshot's owner may change it freely
    assert st.to_json()["last_shots"] != later["last_shots"]
