"""Invariants over random play with modules and in the solo game: components conserved
(Embassies, Artifacts, Upgrades, Encounters, drone cards), Location limits, and views that
never show hidden deck orders or other seats' hands."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as hs

from skydeck.core import Action, IllegalAction, Rng
from skydeck.games.expedition.modules_content import MODULES, default_modules
from tests.games.expedition.helpers import fresh
from tests.games.expedition.test_properties import hidden_ids

MF = default_modules()
CONFIGS = [
    {"players": 2, "modules": list(MODULES), "nothing_bad_happens": True},
    {"players": 3, "modules": ["legendary", "artifacts", "hazards"]},
    {"players": 4, "modules": ["player_powers", "objectives", "events"]},
    {"players": 1, "solo_rank": "commander"},
    {"players": 1, "solo_rank": "admiral", "modules": list(MODULES), "nothing_bad_happens": True},
]


def check_invariants(st) -> None:  # type: ignore[no-untyped-def]
    c = st.content
    t = st.t
    total = c.rules.embassies
    for s in range(st.n):
        assert st.emb_left[s] + sum(st.emb[s]) == total
        mine = sorted(x for pile in (st.hand, st.transit, st.sickbay, st.solo) for x in pile[s])
        expect = [c.crew_index[c.dashboards[st.factions[s]].captain]]
        for i, count in enumerate(st.emb[s]):
            if st.owner[i] == s:
                expect += [c.crew_index[x] for x in c.locations[i].crew[:count]]
        if st.is_solo:  # a drone cube on a Location stops recruiting there
            assert set(mine) <= set(expect) and len(set(mine)) == len(mine)
        else:
            assert mine == sorted(expect)
    for i, loc in enumerate(c.locations):
        here = [st.emb[s][i] for s in range(st.n)] + ([st.d_emb[i]] if st.is_solo else [])
        assert all(0 <= x <= 3 for x in here)
        if loc.kind == "legendary":
            assert sum(here) <= 1
        if loc.kind == "artifact":
            assert max(here) <= 1
    n_up = len(c.upgrades)
    in_slots = [u for s in range(st.n) for u in st.slots[s] if u >= 0]
    arts = [u for u in in_slots if t.upg_artifact[u]]
    if c.artifacts:
        assert len(arts) + len(st.art_deck) == len(c.artifacts)
        assert len(set(arts)) == len(arts)
    out = sum(t.upg_no_solo) if st.is_solo else 0
    upg = len(st.upg_deck) + len(st.upg_discard) + sum(1 for u in st.store if u >= 0)
    upg += len(in_slots) - len(arts) + len(st.upg_out)
    assert upg == n_up - out
    enc = len(st.enc_deck) + len(st.enc_discard)
    enc += sum(1 for f in st.pending if f["k"] == "enc") + 2 * sum(
        1 for f in st.pending if f["k"] == "enc_pick"
    )
    assert enc == len(c.encounters) - (sum(t.enc_no_solo) if st.is_solo else 0)
    if st.is_solo:
        assert st.d_left + sum(st.d_emb) == total
        for i, deck in enumerate(MF.drone.decks):
            assert sorted(st.d_decks[i] + st.d_used[i]) == list(range(len(deck)))
    assert len(st.objs) + len(st.obj_deck) in (0, len(MF.objectives.cards))
    assert len(st.gevents) + len(st.ev_deck) in (0, len(MF.events.events))


def hidden_deck_ids(st) -> list[str]:  # type: ignore[no-untyped-def]
    ids = [MF.objectives.cards[x].id for x in st.obj_deck]
    ids += [MF.events.events[x].id for x in st.ev_deck]
    for i, deck in enumerate(st.d_decks):
        if not st.d_known[i]:
            ids += [MF.drone.decks[i][x].id for x in deck]
    return ids


@settings(max_examples=10, deadline=None)
@given(seed=hs.integers(0, 10**6), cfg=hs.sampled_from(CONFIGS))
def test_module_play_keeps_invariants_and_views_private(seed: int, cfg: dict) -> None:
    st = fresh(seed=seed, **cfg)
    rng = Rng(seed)
    step = 0
    while not st.is_over:
        check_invariants(st)
        if step % 13 == 0:
            for seat in range(st.n):
                text = json.dumps(st.view(seat))
                for hid in hidden_deck_ids(st):
                    assert f'"{hid}"' not in text, hid
                for other in range(st.n):
                    if other == seat:
                        continue
                    own_public = set(st.view(other)["players"][other]["transit"])
                    for hid in hidden_ids(st, seat, other):
                        if hid not in own_public:
                            assert f'"{hid}"' not in text, (seat, other, hid)
        seat = rng.choice(st.to_move)
        legal = st.legal_actions(seat)
        if step % 17 == 0:  # an action of another moment is refused without change
            before = json.dumps(st.to_json(), sort_keys=True)
            for bad in ("power_drop hyperlane", "artifact artifact_idol", "build", "end"):
                a = Action.parse(bad)
                if a in legal:
                    continue
                try:
                    st.apply(a, seat)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{a} accepted")
                assert json.dumps(st.to_json(), sort_keys=True) == before
        st.apply(rng.choice(legal), seat)
        step += 1
    check_invariants(st)
    if st.is_solo:
        assert st.winners in ((0,), ())
    else:
        assert len(st.winners) >= 1
