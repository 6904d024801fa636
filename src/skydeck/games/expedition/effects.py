"""The effect executor and the small decision frames effects open.

Effects (the data vocabulary in content.py) run from a stack of pending frames: an
``fx`` frame holds effects still to run; a decision frame (choose, take an Upgrade,
pick a target, react to harm, place a tile, ...) waits for its seat's action. Harm to a
ship (Injury, Damage, theft) goes through a ``harm`` frame so its victim can react with
a Solo mission or an Upgrade first (see RULINGS.md).
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, IllegalAction
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.content import TIERS
from skydeck.games.expedition.data_state import StateData
from skydeck.games.expedition.tables import Req, Tables, tables


class EffectsMixin(StateData):
    """Executes effects, checks requirements and resolves effect decision frames."""

    _tables: Tables | None = None

    @property
    def t(self) -> Tables:
        tb = self._tables
        if tb is None:
            tb = self._tables = tables(self.content)
        return tb

    # --- requirements ----------------------------------------------------------------------
    def meets(self, seat: int, req: Req, crews: tuple[int, ...], upgs: tuple[int, ...]) -> bool:
        """Do these crew cards and Upgrade skills, here and now, fulfil ``req``?"""
        skills, levels, lsum, loc, embn, embt = req
        t = self.t
        if loc >= 0:
            here = self.location_at(self.ship[seat])
            if here < 0 or t.loc_type[here] != loc:
                return False
        if embn:
            em = self.emb[seat]
            if not any(em[i] >= embn and t.loc_type[i] == embt for i in range(len(em)) if em[i]):
                return False
        counts = [0] * 13
        have = [0, 0, 0, 0, 0]
        total = 0
        for c in crews:
            for s in t.crew_skills[c]:
                counts[s] += 1
            lv = t.crew_level[c]
            have[lv] += 1
            total += lv
        rp = self.reprog[seat]
        for i in range(0, len(rp), 2):
            if rp[i] in crews:
                counts[rp[i + 1]] += 1
        for u in upgs:
            s = t.upg_skill[u]
            if s >= 0:
                counts[s] += 1
        if total < lsum:
            return False
        for i in (1, 2, 3):
            if have[i] < levels[i]:
                return False
        return all(counts[i] >= skills[i] for i in range(13))

    def usable_upgrades(self, seat: int) -> list[int]:
        """Enabled Upgrades whose skill has not been used this round."""
        used = self.used_upg[seat]
        return [
            u for u in self.enabled_upgrades(seat) if u not in used and self.t.upg_skill[u] >= 0
        ]

    def commit_cards(self, seat: int, crews: tuple[int, ...], upgs: tuple[int, ...]) -> None:
        """Played crew go to Transit; used Upgrades are turned (temporary ones discarded)."""
        for c in crews:
            self.hand[seat].remove(c)
            self.transit[seat].append(c)
        for u in upgs:
            if self.t.upg_temporary[u]:
                self.remove_upgrade(seat, u)
            else:
                self.used_upg[seat].append(u)

    # --- the executor ---------------------------------------------------------------------
    def push_fx(self, seat: int, fx: tuple[Any, ...]) -> None:
        if fx:
            self.pending.append({"k": "fx", "s": seat, "fx": tuple(fx)})

    def run_pending(self, events: list[Event]) -> None:
        """Run automatic frames until a decision is needed or nothing is pending."""
        while self.pending:
            top = self.pending[-1]
            k = top["k"]
            if k == "fx":
                fx = top["fx"]
                if len(fx) <= 1:
                    self.pending.pop()
                else:
                    top["fx"] = fx[1:]
                if fx:
                    self.execute(top["s"], fx[0], events)
            elif k == "harm":
                self.pending.pop()
                self.apply_harm(top, events)
            elif k == "dfx":
                fx = top["fx"]
                if len(fx) <= 1:
                    self.pending.pop()
                else:
                    top["fx"] = fx[1:]
                if fx:
                    self.execute_drone(top, fx[0], events)
            elif k == "new_exp" and not any(self.exp_decks):
                self.pending.pop()  # queued before earlier draws emptied every deck
            else:
                return

    def execute_drone(self, f: dict[str, Any], e: dict[str, Any], events: list[Event]) -> None:
        """Run one drone effect. The solo rules in drone.py override this; reaching it
        means a drone effect was queued in a game without the drone (a bug)."""
        raise RuntimeError(f"drone effect {e!r} queued in a game without the drone")

    def trigger(self, seat: int, kind: str, arg: str = "") -> None:
        """Galactic events hook (modules.py)."""

    def discardable(self, seat: int) -> list[int]:
        """Upgrades that may be discarded or destroyed (Artifacts never)."""
        if not self.content.artifacts:
            return self.real_upgrades(seat)
        art = self.t.upg_artifact
        return [u for u in self.slots[seat] if u >= 0 and not art[u]]

    def enabled_discardable(self, seat: int) -> list[int]:
        if not self.content.artifacts:
            return self.enabled_upgrades(seat)
        art = self.t.upg_artifact
        return [u for u in self.enabled_upgrades(seat) if not art[u]]

    def solo_affordable(self, seat: int, crew: int) -> bool:
        """A Solo mission costs 2 Crystals; Legendary crew go free."""
        t = self.t
        if t.crew_solo[crew] is None:
            return False
        return self.cr[seat] >= self.content.rules.costs["solo"] or (
            bool(t.crew_free_solo) and t.crew_free_solo[crew]
        )

    def execute(self, seat: int, e: dict[str, Any], events: list[Event]) -> None:
        op = e["op"]
        if op == "gain":
            self.gain(seat, e["rm"], e["crystal"], e["influence"])
        elif op == "lose":
            self.lose(seat, e["rm"], e["crystal"], e["influence"])
        elif op == "moves":
            n = e["n"] if e.get("immune") else max(0, e["n"] - self.slowdown(seat))
            self.moves[seat] += n
        elif op == "take_upgrade":
            if self.can_take_upgrade(seat):
                self.pending.append({"k": "take_upgrade", "s": seat})
        elif op in ("injury", "damage", "destroy"):
            for _ in range(e["n"]):
                self.harm(seat, op, 0, -1, events)
        elif op == "repair":
            for _ in range(e["n"]):
                self.repair(seat)
        elif op == "heal":
            for _ in range(e["n"]):
                if self.sickbay[seat]:
                    self.hand[seat].append(self.sickbay[seat].pop(0))
        elif op == "steal":
            if self.n > 1:  # solo: the drone cannot be harmed or robbed
                self.pending.append({"k": "target", "s": seat, "h": "steal", "rm": e["rm"]})
        elif op == "theft":
            self.harm(seat, "steal", e["rm"], -1, events)
        elif op == "attack":
            if self.n > 1:
                self.pending.append({"k": "target", "s": seat, "h": e["harm"], "rm": 0})
        elif op == "place_tiles":
            self.open_placement(seat, e["n"], e["anywhere"], e["recruit_reward"], events)
        elif op == "local_production":
            here = self.location_at(self.ship[seat])
            if here >= 0:
                p = self.content.locations[here].produce
                self.gain(seat, rm=p.rm, crystal=p.crystal)
        elif op == "trade":
            self.trades[seat] += 1
        elif op == "collect_remote":
            if self.tokens[seat]:
                self.pending.append({"k": "collect_remote", "s": seat})
        elif op == "build_discount":
            self.build_bonus[seat] += e["n"]
        elif op == "points":
            self.bonus_pts[seat] += e["n"]
        elif op == "secret_expedition":
            if len(self.secret[seat]) < self.content.rules.max_secret and any(self.exp_decks):
                self.pending.append({"k": "secret_pick", "s": seat})
        elif op == "prevent":
            for i in range(len(self.pending) - 1, -1, -1):
                f = self.pending[i]
                if f["k"] == "harm" and f["s"] == seat:
                    del self.pending[i]
                    events.append(Event("prevented", {"seat": seat, "harm": f["h"]}))
                    break
        elif op == "exchange":
            self.exchange[seat] = 1
        elif op == "choose":
            self.pending.append({"k": "choose", "s": seat, "opts": e["options"]})
        else:  # pragma: no cover - the schema admits no other op
            raise ValueError(f"unknown effect op {op!r}")

    # --- harm and reactions --------------------------------------------------------------
    def reaction_options(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        t = self.t
        for c in sorted(self.hand[seat]):
            if self.solo_affordable(seat, c):
                acts.append(act("react_solo", (t.crew_ids[c],)))
        acts += [act("react_upgrade", (t.upg_ids[u],)) for u in self.enabled_discardable(seat)]
        return acts

    def harm(self, victim: int, kind: str, rm: int, by: int, events: list[Event]) -> None:
        frame = {"k": "harm", "s": victim, "h": kind, "rm": rm, "by": by}
        if self.reaction_options(victim):
            self.pending.append(frame)
            self.pending.append({"k": "react", "s": victim, "h": kind})
        else:
            self.apply_harm(frame, events)

    def apply_harm(self, f: dict[str, Any], events: list[Event]) -> None:
        victim, kind = f["s"], f["h"]
        if kind == "injury":
            card = self.injure(victim)
            if card >= 0:
                events.append(Event("injured", {"seat": victim, "crew": self.t.crew_ids[card]}))
        elif kind == "damage":
            if self.take_damage(victim):
                card = self.dmg_cards[victim][-1] if self.dmg_cards[victim] else -1
                name = self.t.dmg_ids[card] if card >= 0 else None
                events.append(Event("damaged", {"seat": victim, "card": name}))
                if card >= 0:
                    self.push_fx(victim, self.t.dmg_effects[card])
        elif kind == "destroy":
            real = self.discardable(victim)
            if real:
                u = real[self.rng.below(len(real))]
                self.remove_upgrade(victim, u)
                events.append(Event("destroyed", {"seat": victim, "upgrade": self.t.upg_ids[u]}))
        elif kind == "steal":  # by -1: a thief from an Encounter, nobody at the table
            amount = min(f["rm"], self.rm[victim])
            self.rm[victim] -= amount
            by = f["by"] if f["by"] >= 0 else None
            if by is not None:
                self.gain(by, rm=amount)
            events.append(Event("stolen", {"seat": victim, "by": by, "rm": amount}))

    # --- Upgrades from effects -------------------------------------------------------------
    def has_room_for_upgrade(self, seat: int) -> bool:
        """A free slot, or one to free by discarding (impossible under 6 Damage cards)."""
        if self.slot_capacity_left(seat) > 0:
            return True
        return self.dmg[seat] < self.content.rules.upgrade_slots and bool(self.discardable(seat))

    def can_take_upgrade(self, seat: int) -> bool:
        return any(u >= 0 for u in self.store) and self.has_room_for_upgrade(seat)

    def upgrade_choices(self, seat: int, verb: str) -> list[Action]:
        """``verb <store card>`` or, when the slots are full, ``verb <card> <discard>``."""
        ids = self.t.upg_ids
        acts: list[Action] = []
        if not self.has_room_for_upgrade(seat):
            return acts
        full = self.slot_capacity_left(seat) <= 0
        for u in self.store:
            if u < 0:
                continue
            if not full:
                acts.append(act(verb, (ids[u],)))
            else:
                for old in self.discardable(seat):
                    acts.append(act(verb, (ids[u], ids[old])))
        return acts

    def gain_upgrade(self, seat: int, action: Action) -> int:
        u = self.content.upgrade_index[str(action.args[0])]
        if len(action.args) > 1:
            self.remove_upgrade(seat, self.content.upgrade_index[str(action.args[1])])
        self.store[self.store.index(u)] = -1
        self.install(seat, u)
        self.refill_store()
        return u

    # --- tile placement ------------------------------------------------------------------
    def placement_cells(self, seat: int, anywhere: bool, near: int) -> list[int]:
        b = self.board
        nb = self.grid.neighbours
        if not anywhere:
            return [c for c in nb[near] if b[c] < 0]
        return [c for c in range(len(b)) if b[c] < 0 and any(b[x] >= 0 for x in nb[c])]

    def open_placement(
        self,
        seat: int,
        n: int,
        anywhere: bool,
        reward: bool,
        events: list[Event],
        near: int = -1,
        drone: bool = False,
    ) -> None:
        """Draw tiles for ``seat`` to place; ``drone``: the solo player places the drone's
        tiles next to the drone (no discovery reward for anybody)."""
        if near < 0:
            near = self.ship[seat]
        m = min(n, len(self.stack), len(self.placement_cells(seat, anywhere, near)))
        if m <= 0:
            return
        drawn = tuple(self.stack.pop() for _ in range(m))
        self.reveals += 1
        events.append(
            Event("tiles_drawn", {"seat": seat, "tiles": [self.tile_name(x) for x in drawn]})
        )
        frame = {
            "k": "place",
            "s": seat,
            "tiles": drawn,
            "any": int(anywhere),
            "rw": int(reward),
            "near": near,
        }
        if drone:
            frame["dr"] = 1
        self.pending.append(frame)

    def place_tile(self, seat: int, f: dict[str, Any], tile: int, cell: int) -> None:
        rest = list(f["tiles"])
        rest.remove(tile)
        if rest:
            f["tiles"] = tuple(rest)
        else:
            self.pending.pop()  # the placement frame is always the top one
        self.board[cell] = tile
        if f.get("dr"):
            return  # the drone's discovery: no reward
        self.trigger(seat, "discover")
        if tile < self.n_locations:
            if f["rw"]:
                self.pending.append(
                    {
                        "k": "choose",
                        "s": seat,
                        "opts": (
                            ({"op": "gain", "rm": 1, "crystal": 0, "influence": 0},),
                            ({"op": "gain", "rm": 0, "crystal": 1, "influence": 0},),
                        ),
                    }
                )
        else:
            self.push_fx(seat, self.t.anomaly_discover[tile - self.n_locations])

    # --- decision frames opened by effects -------------------------------------------------
    def effect_frame_actions(self, f: dict[str, Any]) -> list[Action]:
        k, seat = f["k"], f["s"]
        ids = self.t
        if k == "choose":
            return [act("option", (i,)) for i in range(len(f["opts"]))]
        if k == "take_upgrade":
            return [*self.upgrade_choices(seat, "take"), act("decline")]
        if k == "target":
            return [act("target", (o,)) for o in range(self.n) if o != seat]
        if k == "react":
            return [*self.reaction_options(seat), act("accept")]
        if k == "place":
            cells = self.placement_cells(seat, bool(f["any"]), f["near"])
            out: list[Action] = []
            for tile in sorted(set(f["tiles"])):
                name = self.tile_name(tile)
                out.extend(act("place", (name, c)) for c in cells)
            return out
        if k == "collect_remote":
            locs = sorted(self.tokens[seat])
            return [*(act("collect_at", (ids.loc_ids[x],)) for x in locs), act("decline")]
        if k == "secret_pick":
            return [
                *(act("secret_free", (TIERS[i],)) for i in range(3) if self.exp_decks[i]),
                act("decline"),
            ]
        return []

    def apply_effect_frame(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        k, seat = f["k"], f["s"]
        if k == "choose":
            self.pending.pop()
            self.push_fx(seat, f["opts"][int(a.args[0])])  # type: ignore[arg-type]
        elif k == "take_upgrade":
            self.pending.pop()
            if a.kind == "take":
                u = self.gain_upgrade(seat, a)
                events.append(Event("upgrade_taken", {"seat": seat, "upgrade": self.t.upg_ids[u]}))
        elif k == "target":
            self.pending.pop()
            self.harm(int(a.args[0]), f["h"], f["rm"], seat, events)  # type: ignore[arg-type]
        elif k == "react":
            self.pending.pop()
            if a.kind == "react_solo":
                self.start_solo(seat, self.content.crew_index[str(a.args[0])])
            elif a.kind == "react_upgrade":
                u = self.content.upgrade_index[str(a.args[0])]
                self.remove_upgrade(seat, u)
                self.push_fx(seat, self.t.upg_ability[u])
        elif k == "place":
            tile = self.tile_by_name(str(a.args[0]))
            self.place_tile(seat, f, tile, int(a.args[1]))  # type: ignore[arg-type]
        elif k == "collect_remote":
            self.pending.pop()
            if a.kind == "collect_at":
                self.collect(seat, self.content.location_index[str(a.args[0])])
        elif k == "secret_pick":
            self.pending.pop()
            if a.kind == "secret_free":
                self.take_secret(seat, TIERS.index(str(a.args[0])), events)

    def tile_by_name(self, name: str) -> int:
        if name in self.content.location_index:
            return self.content.location_index[name]
        for i, x in enumerate(self.content.anomalies):
            if x.id == name:
                return self.n_locations + i
        raise IllegalAction(f"no tile {name!r}")

    def start_solo(self, seat: int, crew: int) -> None:
        """Pay, put the crew member in the Solo mission slot, resolve its mission."""
        t = self.t
        if not (t.crew_free_solo and t.crew_free_solo[crew]):
            self.cr[seat] -= self.content.rules.costs["solo"]
        self.trigger(seat, "solo")
        self.hand[seat].remove(crew)
        self._drop_reprogram(seat, crew)
        self.solo[seat].append(crew)
        self.push_fx(seat, self.t.crew_solo[crew] or ())

    def take_secret(self, seat: int, tier: int, events: list[Event]) -> None:
        card = self.draw_expedition(tier)
        if card < 0:
            return
        self.secret[seat].append(card)
        events.append(
            Event(
                "secret_expedition",
                {"seat": seat, "expedition": self.t.exp_ids[card]},
                frozenset((seat,)),
                {"seat": seat, "tier": TIERS[tier]},
            )
        )
