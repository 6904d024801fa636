"""The optional modules' rules: player powers, end-game Objectives, Hazard tiles,
Legendary and Artifact Locations, Galactic events (RULINGS.md, "Optional modules").

Every hook is a no-op when its module is off, so the base game runs as before; the
module content itself is data (``modules_content.py``).
"""

from __future__ import annotations

from skydeck.core import Action, Event
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.data_state import StateData
from skydeck.games.expedition.effects import EffectsMixin


class ModulesMixin(EffectsMixin):
    """Set-up, hooks and scoring of the six optional modules."""

    def has(self, module: str) -> bool:
        return module in self.content.modules

    # --- set-up ------------------------------------------------------------------------------
    def setup_modules(self) -> None:
        """Module decks (after the base set-up, so the base game draws exactly as before)."""
        mf = self.content.mod
        n = self.n
        self.powers = [[] for _ in range(n)]
        self.ev_pts = [[] for _ in range(n)]
        if mf is None:
            return
        if self.has("player_powers"):
            pile = [p for p in range(len(mf.powers.powers)) for _ in range(mf.powers.copies)]
            self.rng.shuffle(pile)
            for seat in range(n):
                got: list[int] = []
                for i, p in enumerate(pile):
                    if p not in got:
                        got.append(p)
                        pile[i] = -1
                        if len(got) == 3:
                            break
                pile = [p for p in pile if p >= 0]
                self.powers[seat] = got
            self.phase = "powers"
        if self.has("objectives"):
            self.obj_deck = list(range(len(mf.objectives.cards)))
            self.rng.shuffle(self.obj_deck)
        if self.has("events"):
            self.ev_deck = list(range(len(mf.events.events)))
            self.rng.shuffle(self.ev_deck)
        if self.has("artifacts"):
            self.art_deck = list(range(len(self.content.artifacts)))

    # --- player powers -----------------------------------------------------------------------
    def power_actions(self, seat: int) -> list[Action]:
        if seat != self.acted or len(self.powers[seat]) != 3:
            return []
        ids = self.t.power_ids
        return [act("power_drop", (ids[p],)) for p in self.powers[seat]]

    def apply_power(self, seat: int, a: Action, events: list[Event]) -> None:
        """Keep two of the three dealt tiles (dealt order: special 1, then special 2)."""
        p = self.t.power_ids.index(str(a.args[0]))
        self.powers[seat].remove(p)
        kept = [self.t.power_ids[x] for x in self.powers[seat]]
        events.append(Event("powers_kept", {"seat": seat, "powers": kept}))
        self.acted += 1
        if self.acted >= self.n:
            self.acted = 0
            self.phase = "draft"

    # --- round start: reveals and Artifact abilities -----------------------------------------
    def module_round_start(self, events: list[Event] | None) -> None:
        mf = self.content.mod
        if mf is None:
            return
        if self.has("objectives") and self.round in mf.objectives.rounds and self.obj_deck:
            card = self.obj_deck.pop()
            self.objs.append(card)
            self.reveals += 1
            if events is not None:
                events.append(Event("objective", {"objective": mf.objectives.cards[card].id}))
        if self.has("events") and self.round in mf.events.rounds and self.ev_deck:
            card = self.ev_deck.pop()
            self.gevents.append(card)
            for pts in self.ev_pts:
                pts.append(0)
            self.reveals += 1
            if events is not None:
                events.append(Event("galactic_event", {"event": mf.events.events[card].id}))
        if self.content.artifacts and self.round >= 2:
            t = self.t
            frames = []
            for seat in range(self.n):
                for u in self.enabled_upgrades(seat):
                    if t.upg_artifact[u] and t.upg_each_round[u]:
                        frames.append({"k": "fx", "s": seat, "fx": t.upg_each_round[u]})
            self.pending.extend(reversed(frames))

    # --- Hazards -----------------------------------------------------------------------------
    def hazard_landing(self, seat: int, cell: int, events: list[Event]) -> None:
        tile = self.board[cell]
        if self.anomaly_kind(tile) != "hazard":
            return
        roll = self.rng.randint(1, 6)
        events.append(
            Event("hazard_roll", {"seat": seat, "tile": self.tile_name(tile), "roll": roll})
        )
        self.push_fx(seat, self.t.anomaly_roll[tile - self.n_locations][roll - 1])

    # --- Artifacts ---------------------------------------------------------------------------
    def artifact_actions(self, seat: int) -> list[Action]:
        ids = self.t.upg_ids
        base = len(self.content.upgrades)
        acts: list[Action] = []
        if self.slot_capacity_left(seat) > 0:
            acts = [act("artifact", (ids[base + a],)) for a in self.art_deck]
        elif self.dmg[seat] < self.content.rules.upgrade_slots:
            acts = [
                act("artifact", (ids[base + a], ids[old]))
                for a in self.art_deck
                for old in self.discardable(seat)
            ]
        return [*acts, act("decline")]

    def apply_artifact(self, seat: int, a: Action, events: list[Event]) -> None:
        self.pending.pop()
        if a.kind != "artifact":
            return
        ci = self.content.upgrade_index
        u = ci[str(a.args[0])]
        if len(a.args) > 1:
            self.remove_upgrade(seat, ci[str(a.args[1])])
        self.art_deck.remove(u - len(self.content.upgrades))
        self.install(seat, u)
        events.append(Event("artifact", {"seat": seat, "artifact": str(a.args[0])}))

    def offer_artifact(self, seat: int) -> None:
        if self.art_deck and (
            self.slot_capacity_left(seat) > 0
            or (self.dmg[seat] < self.content.rules.upgrade_slots and self.discardable(seat))
        ):
            self.pending.append({"k": "artifact", "s": seat})

    # --- Galactic events ---------------------------------------------------------------------
    def trigger(self, seat: int, kind: str, arg: str = "") -> None:
        """A player did something a revealed Galactic event rewards."""
        if not self.gevents or seat >= self.n:
            return
        evs = self.content.mod.events.events
        for k, card in enumerate(self.gevents):
            e = evs[card]
            if e.trigger != kind:
                continue
            if (e.tier is not None and e.tier != arg) or (e.type is not None and e.type != arg):
                continue
            self.ev_pts[seat][k] = min(e.max, self.ev_pts[seat][k] + e.points)

    # --- scoring -----------------------------------------------------------------------------
    def points(self, seat: int) -> int:
        total = StateData.points(self, seat)
        if self.content.mod is None:
            return total
        t = self.t
        if self.has("legendary"):
            total += sum(
                1
                for pile in (self.hand, self.transit, self.sickbay, self.solo)
                for c in pile[seat]
                if t.crew_free_solo[c]
            )
        if self.content.artifacts:
            total += sum(1 for u in self.slots[seat] if u >= 0 and t.upg_artifact[u])
        total += sum(self.ev_pts[seat])
        if self.phase == "over" and self.objs:
            total += sum(self.objective_points(seat))
        return total

    def metric(self, who: int, metric: str) -> int:
        """An Objective's measure for a seat (or the drone, index n, in solo)."""
        t = self.t
        drone = who >= self.n
        emb = self.d_emb if drone else self.emb[who]
        done = self.d_done if drone else self.done[who]
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
            return len(self.loc_cards[who])
        if metric == "crew_levels":
            return self.crew_levels(who)
        if metric == "upgrades":
            return len(self.discardable(who))
        if metric == "resources":
            return self.rm[who] + self.cr[who]
        return self.inf[who]  # influence

    def objective_points(self, who: int) -> list[int]:
        """Points per revealed Objective: places by value among the eligible (ties share a
        place and the next place is skipped), only places 1-3 score."""
        cards = self.content.mod.objectives.cards
        out = []
        contestants = range(self.turns)
        for card in self.objs:
            o = cards[card]
            mine = self.metric(who, o.metric)
            if mine < o.min:
                out.append(0)
                continue
            better = sum(
                1
                for x in contestants
                if x != who and (v := self.metric(x, o.metric)) >= o.min and v > mine
            )
            out.append(o.points[better] if better < 3 else 0)
        return out
