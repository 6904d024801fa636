"""Invariants over random play: tracks within limits, Embassies within 12 and 3 per
Location, every card conserved, illegal actions refused without change, views that
never show another seat's hand or Secret Expeditions."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as hs

from skydeck.core import IllegalAction, Rng
from tests.games.expedition.helpers import C, fresh, total_cards

# tiles: 24 Recruiting + 8 Anomalies + the Space gate + one Starting tile per player
EXPECTED = {"upgrades": 26, "expeditions": 54, "encounters": 45, "tiles": 33, "damage": 6}


def check_invariants(st) -> None:  # type: ignore[no-untyped-def]
    assert st.is_over == (not st.to_move)  # the state's own is_over (issue 52)
    for s in range(st.n):
        assert 0 <= st.rm[s] <= 20 and 0 <= st.cr[s] <= 10 and 0 <= st.inf[s] <= 10
        assert st.emb_left[s] + sum(st.emb[s]) == 12
        assert all(0 <= c <= 3 for c in st.emb[s])
        for i, c in enumerate(st.emb[s]):
            if c and st.owner[i] != s:
                assert c == 1
        assert max(len(st.slots[s]), st.dmg[s]) <= 6
        assert len(st.secret[s]) <= 3
        assert len(st.tokens[s]) <= 4
    counts = total_cards(st)
    for k, v in EXPECTED.items():
        assert counts[k] == v + (st.n if k == "tiles" else 0), (k, counts[k])
    owned = [c for pile in (st.hand, st.transit, st.sickbay, st.solo) for p in pile for c in p]
    assert len(owned) == len(set(owned))
    for s in range(st.n):
        mine = sorted(c for pile in (st.hand, st.transit, st.sickbay, st.solo) for c in pile[s])
        expect = [C.crew_index[C.dashboards[st.factions[s]].captain]]
        for i, count in enumerate(st.emb[s]):
            if st.owner[i] == s:
                expect += [C.crew_index[x] for x in C.locations[i].crew[:count]]
        assert mine == sorted(expect), s


def hidden_ids(st, seat: int, other: int) -> list[str]:  # type: ignore[no-untyped-def]
    shown: set[int] = set()
    for f in st.pending:
        if f["k"] in ("exp", "enc"):
            shown.update(f["sel"])
    t = st.t
    shown.update(st.reprog[other][0::2])  # reprogramming names the Robot openly
    ids = [t.crew_ids[c] for c in st.hand[other] if c not in shown]
    open_x = {f["x"] for f in st.pending if f["k"] == "exp"}
    ids += [t.exp_ids[x] for x in st.secret[other] if x not in open_x]
    if st.phase == "draft":
        mine = set(st.packs[seat]) | set(st.kept[seat]) | set(st.seen[seat])
        ids += [t.exp_ids[x] for x in st.packs[other] + st.kept[other] if x not in mine]
    return ids


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 10**6), players=hs.sampled_from([2, 3, 4]))
def test_random_play_keeps_invariants_and_views_private(seed: int, players: int) -> None:
    st = fresh(players, seed)
    rng = Rng(seed)
    step = 0
    while not st.is_over:
        check_invariants(st)
        if step % 11 == 0:
            for seat in range(players):
                text = json.dumps(st.view(seat))
                for other in range(players):
                    if other == seat:
                        continue
                    own_public = set(st.view(other)["players"][other]["transit"])
                    for hid in hidden_ids(st, seat, other):
                        if hid not in own_public:
                            assert f'"{hid}"' not in text, (seat, other, hid)
        seat = rng.choice(st.to_move)
        st.apply(rng.choice(st.legal_actions(seat)), seat)
        step += 1
    check_invariants(st)
    assert len(st.winners) >= 1


@settings(max_examples=6, deadline=None)
@given(seed=hs.integers(0, 10**6), players=hs.sampled_from([2, 3, 4]))
def test_illegal_actions_leave_the_state_intact(seed: int, players: int) -> None:
    st = fresh(players, seed)
    rng = Rng(seed + 1)
    seen = []
    while not st.is_over:
        seat = rng.choice(st.to_move)
        legal = st.legal_actions(seat)
        seen.extend(legal[:3])
        for a in seen[-12:]:
            if a in legal:
                continue
            before = json.dumps(st.to_json(), sort_keys=True)
            try:
                st.apply(a, seat)
            except IllegalAction as exc:
                assert str(a).split()[0] in str(exc) or "not a legal" in str(exc)
            else:
                raise AssertionError(f"{a} accepted")
            assert json.dumps(st.to_json(), sort_keys=True) == before
        st.apply(rng.choice(legal), seat)


def test_resample_redraws_hidden_order_only() -> None:
    st = fresh(3, 5)
    while st.phase == "draft":
        s = st.to_move[0]
        st.apply(st.legal_actions(s)[0], s)
    st.apply(st.legal_actions(st.to_move[0])[0], st.to_move[0])
    differs = 0
    for k in range(5):
        sample = st.resample(1, Rng(k))
        assert sample.view(1) == st.view(1)
        assert sorted(sample.stack) == sorted(st.stack)
        assert sample.hand == st.hand
        differs += sample.stack != st.stack
    assert differs > 0
    assert C is not None


def test_is_over_is_nobody_to_move_in_a_finished_draft_too() -> None:
    """The one position other than the end where nobody moves: a draft (a scenario's
    plain fields) whose every seat has picked."""
    st = fresh()
    st.phase, st.pending, st.picked = "draft", [], [1] * st.n
    assert st.is_over and not st.to_move
    st.picked[0] = 0
    assert not st.is_over and st.to_move == (0,)
