"""The Sensor phase (dice combinations, re-rolls) and the card-playing frames:
Encounters (tests and chance) and Expedition attempts.

Playing cards is incremental (``play <crew>`` / ``use <upgrade>`` one at a time, then
``resolve``/``complete``), which keeps the legal-action lists short; nothing moves to
Transit until the attempt is committed.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.content import REWARD_FACES, TIERS
from skydeck.games.expedition.drone import DroneMixin

FACE_FX: dict[str, tuple[dict[str, Any], ...]] = {
    "rm2": ({"op": "gain", "rm": 2, "crystal": 0, "influence": 0},),
    "crystal": ({"op": "gain", "rm": 0, "crystal": 1, "influence": 0},),
    "upgrade": ({"op": "take_upgrade"},),
}


class SensorMixin(DroneMixin):
    """Sensor dice, Encounters and Expedition attempts."""

    def face_effects(self, seat: int, face: str) -> tuple[Any, ...]:
        if face in ("special1", "special2") and self.powers and self.powers[seat]:
            return self.t.powers[self.powers[seat][0 if face == "special1" else 1]]
        if face == "special1":
            return self.t.specials[self.factions[seat]][0]
        if face == "special2":
            return self.t.specials[self.factions[seat]][1]
        return FACE_FX.get(face, ())

    def roll_die(self, i: int) -> str:
        return self.content.dice[i][self.rng.below(len(self.content.dice[i]))]

    def start_sensor(self, seat: int, events: list[Event]) -> None:
        dice = (self.roll_die(0), self.roll_die(1))
        events.append(Event("sensor_roll", {"seat": seat, "dice": list(dice)}))
        self.pending.append({"k": "sensor", "s": seat, "d": dice, "fu": 0})

    # --- the Sensor frame ------------------------------------------------------------------
    def sensor_actions(self, f: dict[str, Any]) -> list[Action]:
        seat, d = f["s"], f["d"]
        acts: list[Action] = []
        if self.inf[seat] >= self.content.rules.costs["reroll"] and not self.rerolled[seat]:
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

    def apply_sensor(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        seat = f["s"]
        if a.kind in ("reroll", "reroll_free"):
            i = int(a.args[0])  # type: ignore[arg-type]
            if a.kind == "reroll":
                self.inf[seat] -= self.content.rules.costs["reroll"]
                self.rerolled[seat] = 1
            else:
                f["fu"] = 1
            d = list(f["d"])
            d[i] = self.roll_die(i)
            f["d"] = tuple(d)
            events.append(Event("sensor_roll", {"seat": seat, "dice": d}))
            return
        self.pending.pop()
        if a.kind == "reward":
            self.take_face(seat, str(a.args[0]), events)
        elif a.kind == "encounter":
            d = f["d"]
            if d[0] == "encounter" and d[1] == "encounter":
                first = self.draw_encounter()
                second = self.draw_encounter() if first >= 0 else -1
                if second >= 0:
                    self.pending.append({"k": "enc_pick", "s": seat, "cards": (first, second)})
                    ids = self.t.enc_ids
                    events.append(
                        Event(
                            "encounters_drawn", {"seat": seat, "cards": [ids[first], ids[second]]}
                        )
                    )
                elif first >= 0:
                    self.start_encounter(seat, first, "", events)
            else:
                other = d[1] if d[0] == "encounter" else d[0]
                alt = other if other in REWARD_FACES else ""
                card = self.draw_encounter()
                if card >= 0:
                    self.start_encounter(seat, card, alt, events)

    # --- Encounters --------------------------------------------------------------------------
    def start_encounter(self, seat: int, card: int, alt: str, events: list[Event]) -> None:
        events.append(Event("encounter", {"seat": seat, "card": self.t.enc_ids[card]}))
        if self.t.enc_kind[card] == "boon":
            self.enc_discard.append(card)
            self.encounter_success(seat, card, alt)
            return
        self.pending.append({"k": "enc", "s": seat, "e": card, "alt": alt, "sel": (), "su": ()})
        if self.t.enc_kind[card] == "plus":  # the gift first, then the optional bonus
            self.push_fx(seat, self.t.enc_gift[card])

    def encounter_success(self, seat: int, card: int, alt: str) -> None:
        if alt:
            self.pending.append({"k": "enc_reward", "s": seat, "e": card, "alt": alt})
        else:
            self.push_fx(seat, self.t.enc_bonus[card])

    def _selectable(self, f: dict[str, Any], helper: int) -> tuple[list[int], list[int]]:
        seat = f["s"]
        t = self.t
        crews = [c for c in self.hand[seat] if c not in f["sel"]]
        upgs = [u for u in self.usable_upgrades(seat) if u not in f["su"]]
        if helper >= 0:
            rp = self.reprog[seat]
            extra = {rp[i] for i in range(0, len(rp), 2) if rp[i + 1] == helper}
            crews = [c for c in crews if helper in t.crew_skills[c] or c in extra]
            upgs = [u for u in upgs if t.upg_skill[u] == helper]
        return crews, upgs

    def selection_actions(self, f: dict[str, Any], helper: int = -1) -> list[Action]:
        t = self.t
        crews, upgs = self._selectable(f, helper)
        acts = [act("play", (t.crew_ids[c],)) for c in sorted(crews)]
        acts += [act("use", (t.upg_ids[u],)) for u in upgs]
        return acts

    def select(self, f: dict[str, Any], a: Action) -> None:
        if a.kind == "play":
            f["sel"] = (*f["sel"], self.content.crew_index[str(a.args[0])])
        else:
            f["su"] = (*f["su"], self.content.upgrade_index[str(a.args[0])])

    def enc_actions(self, f: dict[str, Any]) -> list[Action]:
        card = f["e"]
        ch = self.t.enc_chance[card]
        if ch is not None:
            return [*self.selection_actions(f, ch[1]), act("roll")]
        acts = self.selection_actions(f)
        req = self.t.enc_req[card]
        if req is not None and self.meets(f["s"], req, f["sel"], f["su"]):
            acts.append(act("resolve"))
        acts.append(act("fail"))
        return acts

    def apply_enc(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        if a.kind in ("play", "use"):
            self.select(f, a)
            return
        seat, card = f["s"], f["e"]
        self.pending.pop()
        self.enc_discard.append(card)
        if a.kind == "resolve":
            self.commit_cards(seat, f["sel"], f["su"])
            events.append(Event("encounter_overcome", {"seat": seat}))
            self.trigger(seat, "encounter")
            self.encounter_success(seat, card, f["alt"])
        elif a.kind == "fail":
            events.append(Event("encounter_failed", {"seat": seat}))
            self.push_fx(seat, self.t.enc_fail[card])
        else:  # roll
            target, _helper, per = self.t.enc_chance[card]
            self.commit_cards(seat, f["sel"], f["su"])
            need = target - per * (len(f["sel"]) + len(f["su"]))
            roll = self.rng.randint(1, 6)
            ok = roll >= need
            events.append(
                Event("chance_roll", {"seat": seat, "roll": roll, "need": need, "ok": ok})
            )
            if ok:
                self.trigger(seat, "encounter")
                self.encounter_success(seat, card, f["alt"])
            else:
                self.push_fx(seat, self.t.enc_fail[card])

    def take_face(self, seat: int, face: str, events: list[Event]) -> None:
        """A reward face: resources and Upgrades at once; a special action is kept for
        the moment the player chooses this round (RULINGS.md 19a)."""
        if face in ("special1", "special2"):
            self.ready_special(seat, face, events)
        else:
            self.push_fx(seat, self.face_effects(seat, face))

    def ready_special(self, seat: int, face: str, events: list[Event]) -> None:
        """Usable once this round, when the player chooses; a window offers it at once
        (its frame is resolved by FlowMixin.apply_window)."""
        k = 1 if face == "special1" else 2
        if k not in self.ready[seat]:
            self.ready[seat].append(k)
        events.append(Event("special_ready", {"seat": seat, "special": k}))
        self.pending.append({"k": "window", "s": seat, "w": "sensor", "of": seat})

    def apply_enc_reward(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        self.pending.pop()
        if a.kind == "alt":
            self.take_face(f["s"], f["alt"], events)
        else:
            self.push_fx(f["s"], self.t.enc_bonus[f["e"]])

    def apply_enc_pick(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        self.pending.pop()
        chosen = self.content.encounter_index[str(a.args[0])]
        other = f["cards"][1] if f["cards"][0] == chosen else f["cards"][0]
        self.enc_deck.insert(0, other)
        self.enc_known += 1
        self.start_encounter(f["s"], chosen, "", events)

    # --- Expedition attempts -------------------------------------------------------------
    def exp_actions(self, f: dict[str, Any]) -> list[Action]:
        acts = self.selection_actions(f)
        if self.meets(f["s"], self.t.exp_req[f["x"]], f["sel"], f["su"]):
            acts.append(act("complete"))
        acts.append(act("cancel"))
        return acts

    def apply_exp(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        if a.kind in ("play", "use"):
            self.select(f, a)
            return
        self.pending.pop()
        if a.kind == "cancel":
            return
        seat, x = f["s"], f["x"]
        t = self.t
        bonus_req = t.exp_bonus_req[x]
        bonus = bonus_req is not None and self.meets(seat, bonus_req, f["sel"], f["su"])
        self.commit_cards(seat, f["sel"], f["su"])
        if x in self.exps[seat]:
            self.exps[seat].remove(x)
        else:
            self.secret[seat].remove(x)
        self.done[seat].append(x)
        events.append(
            Event(
                "expedition_completed", {"seat": seat, "expedition": t.exp_ids[x], "bonus": bonus}
            )
        )
        self.trigger(seat, "expedition", TIERS[t.exp_tier[x]])
        if bonus:
            self.push_fx(seat, t.exp_bonus[x])

    def can_complete(self, seat: int, x: int) -> bool:
        """Could this Expedition be completed now with every card at hand?"""
        return self.meets(
            seat, self.t.exp_req[x], tuple(self.hand[seat]), tuple(self.usable_upgrades(seat))
        )
