"""The Command phase: movement, Embassies and recruiting, Expeditions, collecting, and
every way to spend Raw Materials, Crystals and Influence; plus the action dispatcher.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, IllegalAction, private
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.content import SKILLS, TIERS
from skydeck.games.expedition.flow import FlowMixin

SPENDABLE = ("rm", "crystal")
TRADABLE = ("rm", "crystal", "influence")
#: how a ``build`` pays: every discount, only one of the two, or the printed price
BUILD_MODES = ("", "exploration", "bonus", "full")
#: (grid, passability, start cell, map) -> reachable tiles with their distance
_DISTANCES: dict[tuple[int, int, int, tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
#: Entries kept before the cache starts again (about 2 KB each, the map in the key). A
#: search reuses a few hundred maps; 50,000 held ~100 MB in a long-running server, the
#: soak's main memory growth.
DISTANCES_KEPT = 4096


class CommandMixin(FlowMixin):
    """Command actions and the legal-action / apply dispatch over frames and phases."""

    # --- costs and checks ------------------------------------------------------------------
    def build_cost(
        self, seat: int, mode: str = "", crystals: int | None = None
    ) -> tuple[int, int, bool, bool] | None:
        """(RM, Crystal, uses the exploration discount, uses the build discount) to build
        here now, or None. ``mode`` (the argument of ``build``): "" every discount that
        lowers the price, "exploration" or "bonus" only that one (keeping the other for a
        later Embassy this round), "full" the printed price (keeping both). A discount
        that takes nothing off is not spent. ``crystals``: how much of the build
        discount (Terraform: "2 less Resources (Raw Materials and/or Crystals)") comes
        off the Crystals, the player's split; None: off the Raw Materials first."""
        if mode not in BUILD_MODES:
            raise ValueError(f"unknown build mode {mode!r}; known: {BUILD_MODES}")
        here = self.location_at(self.ship[seat])
        if here < 0 or self.emb_left[seat] <= 0:
            return None
        c = self.emb[seat][here]
        own = self.owner[here]
        loc = self.content.locations[here]
        if c >= 3 or (loc.level == 0 and own != seat):
            return None
        if loc.kind != "recruit" and (c >= 1 or (loc.kind == "legendary" and own >= 0)):
            return None  # Legendary: one Embassy in all; Artifact: one per player
        if own < 0:
            if any(self.ship[o] == self.ship[seat] for o in range(self.n) if o != seat):
                return None  # an empty Location is blocked by a ship standing on it
            if self.is_solo and self.d_ship == self.ship[seat]:
                return None  # ... the drone's ship too
            idx = 0
        elif own == seat:
            idx = c
        else:
            if c >= 1:
                return None
            idx = 0
        rm, crystal = loc.cost[idx].rm, loc.cost[idx].crystal
        discount = False
        disc = self.content.rules.exploration_discount
        if (
            mode in ("", "exploration")
            and c == 0
            and self.round <= len(disc)
            and not self.disc_used[seat]
            and rm > 0
        ):
            rm = max(0, rm - disc[self.round - 1])
            discount = True
        bonus = self.build_bonus[seat] if mode in ("", "bonus") else 0
        used = False
        if bonus and rm + crystal > 0:
            total = min(bonus, rm + crystal)
            if crystals is None:
                off_cr = total - min(total, rm)
            elif max(0, total - rm) <= crystals <= min(total, crystal):
                off_cr = crystals
            else:
                return None  # a split the price does not allow
            rm -= total - off_cr
            crystal -= off_cr
            used = True
        elif crystals is not None:
            return None
        if self.rm[seat] < rm or self.cr[seat] < crystal:
            return None
        return rm, crystal, discount, used

    def build_actions(self, seat: int) -> list[Action]:
        """``build`` with every discount, and each other way to pay that differs from it
        (the player decides which Embassy gets which discount)."""
        best = self.build_cost(seat)
        if best is None:
            return []
        acts = [act("build")]
        seen = {best}
        for mode, uses in (("exploration", 2), ("bonus", 3), ("full", -1)):
            cost = self.build_cost(seat, mode)
            if cost is not None and cost not in seen and (uses < 0 or cost[uses]):
                seen.add(cost)
                acts.append(act("build", (mode,)))
        # the build discount's other splits between Raw Materials and Crystals
        bonus = self.build_bonus[seat]
        for mode, word in (("", "all"), ("bonus", "bonus")):
            for n in range(1, bonus + 1):
                cost = self.build_cost(seat, mode, n)
                if cost is not None and cost[3] and cost not in seen:
                    seen.add(cost)
                    acts.append(act("build", (word, n)))
        return acts

    def reach(self, seat: int, limit: int, over: bool = False) -> dict[int, int]:
        """Tiles a ship can move to within ``limit`` movement -> the movement it takes.
        Ships move through empty space (RULINGS.md 12): every cell entered costs one
        movement, placed tile or empty; Asteroid belts block; a move ends on a tile. A
        path goes around Hazards (one may still be where it ends) unless ``over``: then
        the shortest path, over Hazards too (RULINGS.md 48)."""
        return {c: d for c, d in self.distances(self.ship[seat], not over) if d <= limit}

    def hazards_on_map(self) -> bool:
        kind = self.tile_kind
        return self.content.mod is not None and any(
            t >= 0 and kind[t] == "hazard" for t in self.board
        )

    def hazards_over(self, start: int, cell: int) -> list[int]:
        """The Hazards a ship flies over on a shortest path from ``start`` to ``cell``
        (the path over the fewest of them; ``cell`` itself is not counted)."""
        nb, board, kind = self.grid.neighbours, self.board, self.tile_kind
        best: dict[int, tuple[int, int]] = {start: (0, -1)}  # cell -> (Hazards, parent)
        frontier = [start]
        while frontier and cell not in best:
            layer: dict[int, tuple[int, int]] = {}
            for c in frontier:
                t = board[c]
                if c != start and t >= 0 and not self.tile_passable[t]:
                    continue
                here = best[c][0] + (c != start and t >= 0 and kind[t] == "hazard")
                for x in nb[c]:
                    if x in best:
                        continue
                    tx = board[x]
                    if tx >= 0 and not self.tile_passable[tx]:
                        continue
                    if x not in layer or here < layer[x][0]:
                        layer[x] = (here, c)
            best.update(layer)
            frontier = list(layer)
        out, c = [], best[cell][1] if cell in best else -1
        while c not in (-1, start):
            t = board[c]
            if t >= 0 and kind[t] == "hazard":
                out.append(c)
            c = best[c][1]
        return out[::-1]

    def distances(self, start: int, around: bool = True) -> tuple[tuple[int, int], ...]:
        """(tile cell, cells from ``start``) for every tile a ship on ``start`` can reach,
        nearest first (``around``: never through a Hazard). Cached by map: the map
        changes rarely and tree search asks for the same maps again and again."""
        board = self.board
        around = around and self.content.mod is not None
        key = (id(self.grid), id(self.tile_passable), start * 2 + around, tuple(board))
        hit = _DISTANCES.get(key)
        if hit is not None:
            return hit
        nb, passable, kind = self.grid.neighbours, self.tile_passable, self.tile_kind
        seen = bytearray(len(board))
        seen[start] = 1
        frontier = [start]
        out: list[tuple[int, int]] = []
        d = 0
        while frontier:
            d += 1
            nxt = []
            for c in frontier:
                for x in nb[c]:
                    if seen[x]:
                        continue
                    seen[x] = 1
                    tile = board[x]
                    if tile < 0:
                        nxt.append(x)  # empty space: crossed, never stopped in
                    elif passable[tile]:
                        out.append((x, d))
                        if not (around and kind[tile] == "hazard"):
                            nxt.append(x)  # a path goes around a Hazard, or lands on it
            frontier = nxt
        if len(_DISTANCES) >= DISTANCES_KEPT:
            _DISTANCES.clear()
        res = _DISTANCES[key] = tuple(out)
        return res

    def wormhole_cells(self, seat: int) -> list[int]:
        here = self.ship[seat]
        if not self.worm[seat] or self.anomaly_kind(self.board[here]) != "wormhole":
            return []
        return [
            c
            for c, tile in enumerate(self.board)
            if c != here and tile >= 0 and self.anomaly_kind(tile) == "wormhole"
        ]

    def resources(self, seat: int, word: str) -> int:
        return {"rm": self.rm, "crystal": self.cr, "influence": self.inf}[word][seat]

    def _spend(self, seat: int, word: str, n: int) -> None:
        {"rm": self.rm, "crystal": self.cr, "influence": self.inf}[word][seat] -= n

    # --- legal Command actions -------------------------------------------------------------
    def command_actions(self, seat: int, only: str | None = None) -> list[Action]:
        """Every legal Command action, or only those of one kind (for fast validation)."""
        costs = self.content.rules.costs
        t = self.t
        acts: list[Action] = []
        here = self.ship[seat]
        if only in (None, "move", "warp"):
            free = self.movement(seat)
            jumps = {w: self.resources(seat, w) // costs["warp_" + w] for w in SPENDABLE}
            limit = free + sum(jumps.values())
            reach = self.reach(seat, limit)
            acts += self._moves(reach, free, jumps, ())
            if self.hazards_on_map():
                # "you might want to go around them. But, if you take a chance and roll
                # the die ...": where the shortest path flies over a Hazard, that too
                over = self.reach(seat, limit, over=True)
                shorter = {c: d for c, d in over.items() if d < reach.get(c, limit + 1)}
                acts += self._moves(shorter, free, jumps, ("hazard",))
        if only in (None, "wormhole"):
            acts += [act("wormhole", (c,)) for c in self.wormhole_cells(seat)]
        if only in (None, "build"):
            acts += self.build_actions(seat)
        loc = self.location_at(here)
        if only in (None, "collect") and loc >= 0 and loc in self.tokens[seat]:
            acts.append(act("collect"))
        if only in (None, "expedition"):
            hand, usable = tuple(self.hand[seat]), tuple(self.usable_upgrades(seat))
            for x in self.exps[seat] + self.secret[seat]:
                if self.meets(seat, t.exp_req[x], hand, usable):
                    acts.append(act("expedition", (t.exp_ids[x],)))
        if only in (None, "buy") and self.rm[seat] >= costs["upgrade"]:
            acts += self.upgrade_choices(seat, "buy")
        if only in (None, "repair") and self.dmg[seat] and self.rm[seat] >= costs["repair"]:
            acts.append(act("repair"))
        if only in (None, "reprogram") and self.cr[seat] >= costs["reprogram"]:
            done = set(self.reprog[seat][0::2])
            for c in sorted(self.hand[seat]):
                if t.robot in t.crew_skills[c] and c not in done:
                    acts += [
                        act("reprogram", (t.crew_ids[c], SKILLS[s]))
                        for s in range(len(SKILLS))
                        if s not in t.crew_skills[c]
                    ]
        if only in (None, "solo"):
            acts += [
                act("solo", (t.crew_ids[c],))
                for c in sorted(self.hand[seat])
                if self.solo_affordable(seat, c)
            ]
        if only in (None, "ability"):
            acts += [act("ability", (t.upg_ids[u],)) for u in self.enabled_discardable(seat)]
        if only in (None, "special"):
            acts += [act("special", (k,)) for k in self.ready[seat]]
        inf = self.inf[seat]
        if only in (None, "replace") and inf >= costs["replace_expedition"]:
            for x in self.exps[seat]:
                acts += [
                    act("replace", (t.exp_ids[x], TIERS[i])) for i in range(3) if self.exp_decks[i]
                ]
        if (
            only in (None, "scan")
            and inf >= costs["influence_tile"]
            and self.stack
            and self.placement_cells(seat, False, here)
        ):
            acts.append(act("scan"))
        if only in (None, "exchange") and inf >= costs["exchange"] and not self.exchange[seat]:
            acts.append(act("exchange"))
        if only in (None, "convert") and self.exchange[seat]:
            acts += [
                act("convert", (give, get))
                for give in SPENDABLE
                for get in SPENDABLE
                if give != get and self.resources(seat, give) >= 2
            ]
        if (
            only in (None, "secret")
            and inf >= costs["secret_expedition"]
            and len(self.secret[seat]) < self.content.rules.max_secret
        ):
            acts += [act("secret", (TIERS[i],)) for i in range(3) if self.exp_decks[i]]
        if only in (None, "trade") and self.trades[seat]:
            acts += [
                act("trade", (give, get))
                for give in TRADABLE
                for get in TRADABLE
                if give != get and self.resources(seat, give) >= 2
            ]
        if only in (None, "end"):
            acts.append(act("end"))
        return acts if only is None else [a for a in acts if a.kind == only]

    def _moves(
        self, reach: dict[int, int], free: int, jumps: dict[str, int], tail: tuple[str, ...]
    ) -> list[Action]:
        """``move`` within the free movement, else ``warp`` paying each cell beyond it
        with 2 RM or 1 Crystal, or both ("Raw Materials and/or Crystals": ``mixed K``,
        K Jumps in Crystals and the rest in RM); ``tail`` ends every action."""
        acts = [act("move", (c, *tail)) for c, d in reach.items() if d <= free]
        for w in SPENDABLE:
            acts += [
                act("warp", (c, w, *tail)) for c, d in reach.items() if free < d <= free + jumps[w]
            ]
        for c, d in reach.items():
            need = d - free
            for k in range(max(1, need - jumps["rm"]), min(need - 1, jumps["crystal"]) + 1):
                acts.append(act("warp", (c, "mixed", k, *tail)))
        return acts

    # --- applying Command actions ----------------------------------------------------------
    def apply_command(self, seat: int, a: Action, events: list[Event]) -> None:
        k = a.kind
        costs = self.content.rules.costs
        t = self.t
        ci = self.content
        if k in ("move", "warp", "wormhole"):
            cell = int(a.args[0])  # type: ignore[arg-type]
            steps = 0
            over = a.args[-1] == "hazard"  # flying over a Hazard: its die is rolled
            start = self.ship[seat]
            if k == "move":
                steps = self.reach(seat, self.movement(seat), over)[cell]
                self.use_movement(seat, steps)
            elif k == "warp":
                word = str(a.args[1])
                steps = self.reach(seat, self.grid.size, over)[cell]
                free = self.movement(seat)
                if word == "mixed":  # K Jumps paid in Crystals, the others in RM
                    paid = int(a.args[2])  # type: ignore[arg-type]
                    self._spend(seat, "crystal", costs["warp_crystal"] * paid)
                    self._spend(seat, "rm", costs["warp_rm"] * (steps - free - paid))
                else:
                    self._spend(seat, word, costs["warp_" + word] * (steps - free))
                self.use_movement(seat, free)
            self.ship[seat] = cell
            if k != "wormhole" and self.content.mod is not None:
                if over:
                    for h in self.hazards_over(start, cell):
                        self.hazard_landing(seat, h, events)
                self.hazard_landing(seat, cell, events)
            others = sum(1 for x in self.board if x >= 0 and self.anomaly_kind(x) == "wormhole")
            self.worm[seat] = int(
                k != "wormhole" and self.anomaly_kind(self.board[cell]) == "wormhole" and others > 1
            )
            events.append(Event("moved", {"seat": seat, "cell": cell, "how": k, "steps": steps}))
        elif k == "build":
            mode = str(a.args[0]) if a.args else ""
            split = int(a.args[1]) if len(a.args) > 1 else None  # type: ignore[arg-type]
            self.build(seat, events, "" if mode == "all" else mode, split)
        elif k == "collect":
            rm, crystal = self.collect(seat, self.location_at(self.ship[seat]))
            events.append(Event("collected", {"seat": seat, "rm": rm, "crystal": crystal}))
        elif k == "expedition":
            x = ci.expedition_index[str(a.args[0])]
            self.pending.append({"k": "exp", "s": seat, "x": x, "sel": (), "su": ()})
        elif k == "buy":
            self.rm[seat] -= costs["upgrade"]
            u = self.gain_upgrade(seat, a)
            self.trigger(seat, "upgrade")
            events.append(Event("upgrade_bought", {"seat": seat, "upgrade": t.upg_ids[u]}))
        elif k == "repair":
            self.rm[seat] -= costs["repair"]
            self.repair(seat)
        elif k == "reprogram":
            self.cr[seat] -= costs["reprogram"]
            c = ci.crew_index[str(a.args[0])]
            self.reprog[seat] += [c, SKILLS.index(str(a.args[1]))]
        elif k == "solo":
            c = ci.crew_index[str(a.args[0])]
            events.append(Event("solo_mission", {"seat": seat, "crew": t.crew_ids[c]}))
            self.start_solo(seat, c)
        elif k == "ability":
            u = ci.upgrade_index[str(a.args[0])]
            self.remove_upgrade(seat, u)
            self.push_fx(seat, t.upg_ability[u])
        elif k == "special":
            self.push_fx(seat, self.use_special(seat, int(a.args[0]), events))  # type: ignore[arg-type]
        elif k == "replace":
            self.inf[seat] -= costs["replace_expedition"]
            x = ci.expedition_index[str(a.args[0])]
            self.exps[seat].remove(x)
            self.exp_discard.append(x)
            card = self.draw_expedition(TIERS.index(str(a.args[1])))
            self.exps[seat].append(card)
            events.append(Event("expedition_drawn", {"seat": seat, "expedition": t.exp_ids[card]}))
        elif k == "scan":
            self.inf[seat] -= costs["influence_tile"]
            self.open_placement(seat, 1, False, False, events)
        elif k == "exchange":
            self.inf[seat] -= costs["exchange"]
            self.exchange[seat] = 1
        elif k in ("convert", "trade"):
            give, get = str(a.args[0]), str(a.args[1])
            self._spend(seat, give, 2)
            self.gain(
                seat,
                **{"rm": {"rm": 1}, "crystal": {"crystal": 1}, "influence": {"influence": 1}}[get],
            )
            if k == "trade":
                self.trades[seat] -= 1
        elif k == "secret":
            self.inf[seat] -= costs["secret_expedition"]
            self.take_secret(seat, TIERS.index(str(a.args[0])), events)
        elif k == "end":
            self.acted += 1
            events.append(Event("command_done", {"seat": seat}))
            self.open_windows(self.turn)

    def build(
        self, seat: int, events: list[Event], mode: str = "", crystals: int | None = None
    ) -> None:
        cost = self.build_cost(seat, mode, crystals)
        assert cost is not None
        rm, crystal, discount, bonus = cost
        here = self.location_at(self.ship[seat])
        self.rm[seat] -= rm
        self.cr[seat] -= crystal
        if discount:
            self.disc_used[seat] = 1
        if bonus:
            self.build_bonus[seat] = 0
        c = self.emb[seat][here]
        self.emb[seat][here] = c + 1
        if c + 1 >= 3:
            self.filled[seat].append(here)
        self.emb_left[seat] -= 1
        self.gain(seat, influence=1)
        own = self.owner[here]
        loc = self.content.locations[here]
        recruit = -1
        if own < 0:
            self.owner[here] = seat
            if loc.kind == "recruit":  # Legendary and Artifact Locations have no card
                self.loc_cards[seat].append(here)
            if loc.crew:
                recruit = self.content.crew_index[loc.crew[0]]
        elif own == seat and not (self.is_solo and self.d_emb[here]):
            recruit = self.content.crew_index[loc.crew[c]]  # (a drone cube stops recruiting)
        if recruit >= 0:
            self.transit[seat].append(recruit)
        if loc.kind == "artifact":
            self.offer_artifact(seat)
        self.trigger(seat, "embassy", loc.type)
        events.append(
            Event(
                "embassy",
                {
                    "seat": seat,
                    "location": loc.id,
                    "count": c + 1,
                    "recruit": self.t.crew_ids[recruit] if recruit >= 0 else None,
                },
            )
        )

    # --- dispatch --------------------------------------------------------------------------
    def frame_actions(self, f: dict[str, Any]) -> list[Action]:
        k = f["k"]
        if k == "sensor":
            return self.sensor_actions(f)
        if k == "enc":
            return self.enc_actions(f)
        if k == "enc_reward":
            return [act("bonus"), act("alt")]
        if k == "window":
            return [*self.window_actions(f["s"], f["w"] == "command"), act("pass")]
        if k == "enc_pick":
            return [act("pick", (self.t.enc_ids[c],)) for c in f["cards"]]
        if k == "exp":
            return self.exp_actions(f)
        if k in ("tokens", "new_exp"):
            return self.round_frame_actions(f)
        if k == "artifact":
            return self.artifact_actions(f["s"])
        if k == "choose":
            return self.choose_actions(f)
        return self.effect_frame_actions(f)

    def choose_actions(self, f: dict[str, Any]) -> list[Action]:
        """``option I`` for each option that can do something now (Subspace gateway's
        teleport needs a Collection token); all of them if none can."""
        seat = f["s"]
        ok = [i for i, opt in enumerate(f["opts"]) if any(self.can_do(seat, e) for e in opt)]
        return [act("option", (i,)) for i in ok or range(len(f["opts"]))]

    def can_do(self, seat: int, e: dict[str, Any]) -> bool:
        """Could this effect change anything for ``seat`` now?"""
        op = e["op"]
        if op == "collect_remote":
            return bool(self.tokens[seat])
        if op == "take_upgrade":
            return self.can_take_upgrade(seat)
        if op in ("steal", "attack"):
            return self.n > 1
        if op == "secret_expedition":
            return len(self.secret[seat]) < self.content.rules.max_secret and any(self.exp_decks)
        return True

    def actions_for(self, seat: int) -> list[Action]:
        if self.phase == "over":
            return []
        if self.pending:
            f = self.pending[-1]
            return self.frame_actions(f) if f["s"] == seat else []
        if self.phase == "start":
            return self.start_actions(seat)
        if self.phase == "draft":
            return self.draft_actions(seat)
        if self.phase == "powers":
            return self.power_actions(seat)
        if self.phase == "command" and seat == self.turn:
            return self.command_actions(seat)
        return []

    def dispatch(self, seat: int, a: Action) -> list[Event]:
        if a.kind == "draft":  # picks stay hidden until the draft ends
            head = private("action", seat, {"seat": seat, "action": str(a)}, {"seat": seat})
        else:
            head = Event("action", {"seat": seat, "action": str(a)})
        events: list[Event] = [head]
        if self.pending:
            f = self.pending[-1]
            k = f["k"]
            if k == "sensor":
                self.apply_sensor(f, a, events)
            elif k == "enc":
                self.apply_enc(f, a, events)
            elif k == "enc_reward":
                self.apply_enc_reward(f, a, events)
            elif k == "window":
                self.apply_window(f, a, events)
            elif k == "enc_pick":
                self.apply_enc_pick(f, a, events)
            elif k == "exp":
                self.apply_exp(f, a, events)
            elif k in ("tokens", "new_exp"):
                self.apply_round_frame(f, a, events)
            elif k == "artifact":
                self.apply_artifact(f["s"], a, events)
            else:
                self.apply_effect_frame(f, a, events)
        elif self.phase == "start":
            self.apply_start(seat, a, events)
        elif self.phase == "draft":
            self.apply_draft(seat, a, events)
        elif self.phase == "powers":
            self.apply_power(seat, a, events)
        elif self.phase == "command":
            self.apply_command(seat, a, events)
        else:  # pragma: no cover - to_move guards this
            raise IllegalAction(f"nothing to do in phase {self.phase}")
        self.settle(events)
        return events
