"""The optional modules' rules: player powers, end-game Objectives, Hazard tiles,
Legendary and Artifact Locations, Galactic events (RULINGS.md, "Optional modules").

Every hook is a no-op when its module is off, so the base game runs as before; the
module content itself is data (``modules_content.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skydeck.core import Action, Event
from skydeck.games.expedition import effects
from skydeck.games.expedition.actions import act

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def has(st: ExpeditionState, module: str) -> bool:
    return module in st.content.modules


# --- set-up ------------------------------------------------------------------------------
def setup_modules(st: ExpeditionState) -> None:
    """Module decks (after the base set-up, so the base game draws exactly as before)."""
    mf = st.content.mod
    n = st.n
    st.powers = [[] for _ in range(n)]
    st.ev_pts = [[] for _ in range(n)]
    if mf is None:
        return
    if has(st, "player_powers"):
        pile = [p for p in range(len(mf.powers.powers)) for _ in range(mf.powers.copies)]
        st.rng.shuffle(pile)
        for seat in range(n):
            got: list[int] = []
            for i, p in enumerate(pile):
                if p not in got:
                    got.append(p)
                    pile[i] = -1
                    if len(got) == 3:
                        break
            pile = [p for p in pile if p >= 0]
            st.powers[seat] = got
        st.phase = "powers"
    if has(st, "objectives"):
        st.obj_deck = list(range(len(mf.objectives.cards)))
        st.rng.shuffle(st.obj_deck)
    if has(st, "events"):
        st.ev_deck = list(range(len(mf.events.events)))
        st.rng.shuffle(st.ev_deck)
    if has(st, "artifacts"):
        st.art_deck = list(range(len(st.content.artifacts)))


# --- player powers -----------------------------------------------------------------------
def power_actions(st: ExpeditionState, seat: int) -> list[Action]:
    if seat != st.acted or len(st.powers[seat]) != 3:
        return []
    ids = st.t.power_ids
    return [act("power_drop", (ids[p],)) for p in st.powers[seat]]


def apply_power(st: ExpeditionState, seat: int, a: Action, events: list[Event]) -> None:
    """Keep two of the three dealt tiles (dealt order: special 1, then special 2)."""
    p = st.t.power_ids.index(str(a.args[0]))
    st.powers[seat].remove(p)
    kept = [st.t.power_ids[x] for x in st.powers[seat]]
    events.append(Event("powers_kept", {"seat": seat, "powers": kept}))
    st.acted += 1
    if st.acted >= st.n:
        st.acted = 0
        st.phase = "draft"


# --- round start: reveals and Artifact abilities -----------------------------------------
def module_round_start(st: ExpeditionState, events: list[Event] | None) -> None:
    mf = st.content.mod
    if mf is None:
        return
    if has(st, "objectives") and st.round in mf.objectives.rounds and st.obj_deck:
        card = st.obj_deck.pop()
        st.objs.append(card)
        st.reveals += 1
        if events is not None:
            events.append(Event("objective", {"objective": mf.objectives.cards[card].id}))
    if has(st, "events") and st.round in mf.events.rounds and st.ev_deck:
        card = st.ev_deck.pop()
        st.gevents.append(card)
        for pts in st.ev_pts:
            pts.append(0)
        st.reveals += 1
        if events is not None:
            events.append(Event("galactic_event", {"event": mf.events.events[card].id}))
    if st.content.artifacts and st.round >= 2:
        t = st.t
        frames = []
        for seat in range(st.n):
            for u in st.enabled_upgrades(seat):
                if t.upg_artifact[u] and t.upg_each_round[u]:
                    frames.append({"k": "fx", "s": seat, "fx": t.upg_each_round[u]})
        st.pending.extend(reversed(frames))


# --- Hazards -----------------------------------------------------------------------------
def hazard_landing(st: ExpeditionState, seat: int, cell: int, events: list[Event]) -> None:
    tile = st.board[cell]
    if st.anomaly_kind(tile) != "hazard":
        return
    roll = st.rng.randint(1, 6)
    events.append(
        Event("hazard_roll", {"seat": seat, "tile": st.tile_name(tile), "roll": roll})
    )
    effects.push_fx(st, seat, st.t.anomaly_roll[tile - st.n_locations][roll - 1])


# --- Artifacts ---------------------------------------------------------------------------
def artifact_actions(st: ExpeditionState, seat: int) -> list[Action]:
    ids = st.t.upg_ids
    base = len(st.content.upgrades)
    acts: list[Action] = []
    if st.slot_capacity_left(seat) > 0:
        acts = [act("artifact", (ids[base + a],)) for a in st.art_deck]
    elif st.dmg[seat] < st.content.rules.upgrade_slots:
        acts = [
            act("artifact", (ids[base + a], ids[old]))
            for a in st.art_deck
            for old in effects.discardable(st, seat)
        ]
    return [*acts, act("decline")]


def apply_artifact(st: ExpeditionState, seat: int, a: Action, events: list[Event]) -> None:
    st.pending.pop()
    if a.kind != "artifact":
        return
    ci = st.content.upgrade_index
    u = ci[str(a.args[0])]
    if len(a.args) > 1:
        st.remove_upgrade(seat, ci[str(a.args[1])])
    st.art_deck.remove(u - len(st.content.upgrades))
    st.install(seat, u)
    events.append(Event("artifact", {"seat": seat, "artifact": str(a.args[0])}))


def offer_artifact(st: ExpeditionState, seat: int) -> None:
    if st.art_deck and (
        st.slot_capacity_left(seat) > 0
        or (st.dmg[seat] < st.content.rules.upgrade_slots and effects.discardable(st, seat))
    ):
        st.pending.append({"k": "artifact", "s": seat})


# --- Galactic events ---------------------------------------------------------------------
# --- scoring -----------------------------------------------------------------------------
def points(st: ExpeditionState, seat: int) -> int:
    total = st.base_points(seat)
    if st.content.mod is None:
        return total
    t = st.t
    if has(st, "legendary"):
        total += sum(
            1
            for pile in (st.hand, st.transit, st.sickbay, st.solo)
            for c in pile[seat]
            if t.crew_free_solo[c]
        )
    if st.content.artifacts:
        total += sum(1 for u in st.slots[seat] if u >= 0 and t.upg_artifact[u])
    total += sum(st.ev_pts[seat])
    if st.phase == "over" and st.objs:
        total += sum(objective_points(st, seat))
    return total


def metric(st: ExpeditionState, who: int, metric: str) -> int:
    """An Objective's measure for a seat (or the drone, index n, in solo)."""
    t = st.t
    drone = who >= st.n
    emb = st.d_emb if drone else st.emb[who]
    done = st.d_done if drone else st.done[who]
    if metric == "embassies":
        return sum(emb)
    if metric == "full_locations":
        return sum(1 for c in emb if c >= 3)
    if metric == "expeditions":
        return len(done)
    if metric == "gold_expeditions":
        return sum(1 for x in done if t.exp_tier[x] == 2)
    if metric == "location_types":
        return len({t.loc_type[i] for i, c in enumerate(emb) if c})
    if drone:
        return 0  # no crew, cards, Upgrades or resources
    if metric == "location_cards":
        return len(st.loc_cards[who])
    if metric == "crew_levels":
        return st.crew_levels(who)
    if metric == "upgrades":
        return len(effects.discardable(st, who))
    if metric == "resources":
        return st.rm[who] + st.cr[who]
    return st.inf[who]  # influence


def objective_points(st: ExpeditionState, who: int) -> list[int]:
    """Points per revealed Objective: places by value among the eligible (ties share a
    place and the next place is skipped), only places 1-3 score."""
    cards = st.content.mod.objectives.cards
    out = []
    contestants = range(st.turns)
    for card in st.objs:
        o = cards[card]
        mine = metric(st, who, o.metric)
        if mine < o.min:
            out.append(0)
            continue
        better = sum(
            1
            for x in contestants
            if x != who and (v := metric(st, x, o.metric)) >= o.min and v > mine
        )
        out.append(o.points[better] if better < 3 else 0)
    return out
