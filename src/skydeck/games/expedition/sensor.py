"""The Sensor phase (dice combinations, re-rolls) and the card-playing frames:
Encounters (tests and chance) and Expedition attempts.

Playing cards is incremental (``play <crew>`` / ``use <upgrade>`` one at a time, then
``resolve``/``complete``), which keeps the legal-action lists short; nothing moves to
Transit until the attempt is committed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event
from skydeck.games.expedition import effects, galactic
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.content import REWARD_FACES, TIERS

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState

FACE_FX: dict[str, tuple[dict[str, Any], ...]] = {
    "rm2": ({"op": "gain", "rm": 2, "crystal": 0, "influence": 0},),
    "crystal": ({"op": "gain", "rm": 0, "crystal": 1, "influence": 0},),
    "upgrade": ({"op": "take_upgrade"},),
}


def face_effects(st: ExpeditionState, seat: int, face: str) -> tuple[Any, ...]:
    if face in ("special1", "special2") and st.powers and st.powers[seat]:
        return st.t.powers[st.powers[seat][0 if face == "special1" else 1]]
    if face == "special1":
        return st.t.specials[st.factions[seat]][0]
    if face == "special2":
        return st.t.specials[st.factions[seat]][1]
    return FACE_FX.get(face, ())


def roll_die(st: ExpeditionState, i: int) -> str:
    return st.content.dice[i][st.rng.below(len(st.content.dice[i]))]


def start_sensor(st: ExpeditionState, seat: int, events: list[Event]) -> None:
    dice = (roll_die(st, 0), roll_die(st, 1))
    events.append(Event("sensor_roll", {"seat": seat, "dice": list(dice)}))
    st.pending.append({"k": "sensor", "s": seat, "d": dice, "fu": 0})


# --- the Sensor frame ------------------------------------------------------------------
def sensor_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    seat, d = f["s"], f["d"]
    acts: list[Action] = []
    if st.inf[seat] >= st.content.rules.costs["reroll"] and not st.rerolled[seat]:
        acts += [act("reroll", (0,)), act("reroll", (1,))]
    if d[0] == "blank" and d[1] == "blank" and not f["fu"]:
        acts += [act("reroll_free", (0,)), act("reroll_free", (1,))]
    if "encounter" in d:
        acts.append(act("encounter"))
        return acts
    for face in sorted({x for x in d if x in REWARD_FACES}):
        acts.append(act("reward", (face,)))
    acts.append(act("pass"))
    return acts


def apply_sensor(st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]) -> None:
    seat = f["s"]
    if a.kind in ("reroll", "reroll_free"):
        i = int(a.args[0])  # type: ignore[arg-type]
        if a.kind == "reroll":
            st.inf[seat] -= st.content.rules.costs["reroll"]
            st.rerolled[seat] = 1
        else:
            f["fu"] = 1
        d = list(f["d"])
        d[i] = roll_die(st, i)
        f["d"] = tuple(d)
        events.append(Event("sensor_roll", {"seat": seat, "dice": d}))
        return
    st.pending.pop()
    if a.kind == "reward":
        take_face(st, seat, str(a.args[0]), events)
    elif a.kind == "encounter":
        d = f["d"]
        if d[0] == "encounter" and d[1] == "encounter":
            first = st.draw_encounter()
            second = st.draw_encounter() if first >= 0 else -1
            if second >= 0:
                st.pending.append({"k": "enc_pick", "s": seat, "cards": (first, second)})
                ids = st.t.enc_ids
                events.append(
                    Event(
                        "encounters_drawn", {"seat": seat, "cards": [ids[first], ids[second]]}
                    )
                )
            elif first >= 0:
                start_encounter(st, seat, first, "", events)
        else:
            other = d[1] if d[0] == "encounter" else d[0]
            alt = other if other in REWARD_FACES else ""
            card = st.draw_encounter()
            if card >= 0:
                start_encounter(st, seat, card, alt, events)


# --- Encounters --------------------------------------------------------------------------
def start_encounter(
    st: ExpeditionState, seat: int, card: int, alt: str, events: list[Event]
) -> None:
    events.append(Event("encounter", {"seat": seat, "card": st.t.enc_ids[card]}))
    if st.t.enc_kind[card] == "boon":
        st.enc_discard.append(card)
        encounter_success(st, seat, card, alt)
        return
    st.pending.append({"k": "enc", "s": seat, "e": card, "alt": alt, "sel": (), "su": ()})
    if st.t.enc_kind[card] == "plus":  # the gift first, then the optional bonus
        effects.push_fx(st, seat, st.t.enc_gift[card])


def encounter_success(st: ExpeditionState, seat: int, card: int, alt: str) -> None:
    if alt:
        st.pending.append({"k": "enc_reward", "s": seat, "e": card, "alt": alt})
    else:
        effects.push_fx(st, seat, st.t.enc_bonus[card])


def _selectable(st: ExpeditionState, f: dict[str, Any], helper: int) -> tuple[list[int], list[int]]:
    seat = f["s"]
    t = st.t
    crews = [c for c in st.hand[seat] if c not in f["sel"]]
    upgs = [u for u in effects.usable_upgrades(st, seat) if u not in f["su"]]
    if helper >= 0:
        rp = st.reprog[seat]
        extra = {rp[i] for i in range(0, len(rp), 2) if rp[i + 1] == helper}
        crews = [c for c in crews if helper in t.crew_skills[c] or c in extra]
        upgs = [u for u in upgs if t.upg_skill[u] == helper]
    return crews, upgs


def selection_actions(st: ExpeditionState, f: dict[str, Any], helper: int = -1) -> list[Action]:
    t = st.t
    crews, upgs = _selectable(st, f, helper)
    acts = [act("play", (t.crew_ids[c],)) for c in sorted(crews)]
    acts += [act("use", (t.upg_ids[u],)) for u in upgs]
    return acts


def select(st: ExpeditionState, f: dict[str, Any], a: Action) -> None:
    if a.kind == "play":
        f["sel"] = (*f["sel"], st.content.crew_index[str(a.args[0])])
    else:
        f["su"] = (*f["su"], st.content.upgrade_index[str(a.args[0])])


def enc_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    card = f["e"]
    ch = st.t.enc_chance[card]
    if ch is not None:
        return [*selection_actions(st, f, ch[1]), act("roll")]
    acts = selection_actions(st, f)
    req = st.t.enc_req[card]
    if req is not None and effects.meets(st, f["s"], req, f["sel"], f["su"]):
        acts.append(act("resolve"))
    acts.append(act("fail"))
    return acts


def apply_enc(st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]) -> None:
    if a.kind in ("play", "use"):
        select(st, f, a)
        return
    seat, card = f["s"], f["e"]
    st.pending.pop()
    st.enc_discard.append(card)
    if a.kind == "resolve":
        effects.commit_cards(st, seat, f["sel"], f["su"])
        events.append(Event("encounter_overcome", {"seat": seat}))
        galactic.trigger(st, seat, "encounter")
        encounter_success(st, seat, card, f["alt"])
    elif a.kind == "fail":
        events.append(Event("encounter_failed", {"seat": seat}))
        effects.push_fx(st, seat, st.t.enc_fail[card])
    else:  # roll
        target, _helper, per = st.t.enc_chance[card]
        effects.commit_cards(st, seat, f["sel"], f["su"])
        need = target - per * (len(f["sel"]) + len(f["su"]))
        roll = st.rng.randint(1, 6)
        ok = roll >= need
        events.append(
            Event("chance_roll", {"seat": seat, "roll": roll, "need": need, "ok": ok})
        )
        if ok:
            galactic.trigger(st, seat, "encounter")
            encounter_success(st, seat, card, f["alt"])
        else:
            effects.push_fx(st, seat, st.t.enc_fail[card])


def take_face(st: ExpeditionState, seat: int, face: str, events: list[Event]) -> None:
    """A reward face: resources and Upgrades at once; a special action is kept for
    the moment the player chooses this round (RULINGS.md 19a)."""
    if face in ("special1", "special2"):
        ready_special(st, seat, face, events)
    else:
        effects.push_fx(st, seat, face_effects(st, seat, face))


def ready_special(st: ExpeditionState, seat: int, face: str, events: list[Event]) -> None:
    """Usable once this round, when the player chooses; a window offers it at once
    (its frame is resolved by flow.apply_window)."""
    k = 1 if face == "special1" else 2
    if k not in st.ready[seat]:
        st.ready[seat].append(k)
    events.append(Event("special_ready", {"seat": seat, "special": k}))
    st.pending.append({"k": "window", "s": seat, "w": "sensor", "of": seat})


def apply_enc_reward(
    st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]
) -> None:
    st.pending.pop()
    if a.kind == "alt":
        take_face(st, f["s"], f["alt"], events)
    else:
        effects.push_fx(st, f["s"], st.t.enc_bonus[f["e"]])


def apply_enc_pick(st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]) -> None:
    st.pending.pop()
    chosen = st.content.encounter_index[str(a.args[0])]
    other = f["cards"][1] if f["cards"][0] == chosen else f["cards"][0]
    st.enc_deck.insert(0, other)
    st.enc_known += 1
    start_encounter(st, f["s"], chosen, "", events)


# --- Expedition attempts -------------------------------------------------------------
def exp_actions(st: ExpeditionState, f: dict[str, Any]) -> list[Action]:
    acts = selection_actions(st, f)
    if effects.meets(st, f["s"], st.t.exp_req[f["x"]], f["sel"], f["su"]):
        acts.append(act("complete"))
    acts.append(act("cancel"))
    return acts


def apply_exp(st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]) -> None:
    if a.kind in ("play", "use"):
        select(st, f, a)
        return
    st.pending.pop()
    if a.kind == "cancel":
        return
    seat, x = f["s"], f["x"]
    t = st.t
    bonus_req = t.exp_bonus_req[x]
    bonus = bonus_req is not None and effects.meets(st, seat, bonus_req, f["sel"], f["su"])
    effects.commit_cards(st, seat, f["sel"], f["su"])
    if x in st.exps[seat]:
        st.exps[seat].remove(x)
    else:
        st.secret[seat].remove(x)
    st.done[seat].append(x)
    events.append(
        Event(
            "expedition_completed", {"seat": seat, "expedition": t.exp_ids[x], "bonus": bonus}
        )
    )
    galactic.trigger(st, seat, "expedition", TIERS[t.exp_tier[x]])
    if bonus:
        effects.push_fx(st, seat, t.exp_bonus[x])


def can_complete(st: ExpeditionState, seat: int, x: int) -> bool:
    """Could this Expedition be completed now with every card at hand?"""
    return effects.meets(st,
        seat, st.t.exp_req[x], tuple(st.hand[seat]), tuple(effects.usable_upgrades(st, seat))
    )
