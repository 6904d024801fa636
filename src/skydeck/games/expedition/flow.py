"""Set-up, the Expedition draft and the round structure: Production, Discovery, Sensor,
Command (the actions themselves are in command.py) and the end of a round.

``settle()`` runs after every action: it resolves automatic frames and moves the phase
machine on until some seat has a decision to make.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event
from skydeck.games.expedition.actions import act
from skydeck.games.expedition.content import TIERS
from skydeck.games.expedition.sensor import SensorMixin


class FlowMixin(SensorMixin):
    """The phase machine."""

    @property
    def turn(self) -> int:
        return (self.first + self.acted) % self.turns

    # --- set-up ------------------------------------------------------------------------------
    def setup(self, factions: list[int]) -> None:
        c = self.content
        r = c.rules
        n = self.n
        g = self.grid
        self.factions = list(factions)
        self.board = [-1] * g.size
        self.board[g.gate] = self.gate_tile
        self.owner = [-1] * len(c.locations)
        self.emb = [[0] * len(c.locations) for _ in range(n)]
        for name in (
            "hand",
            "transit",
            "sickbay",
            "solo",
            "loc_cards",
            "slots",
            "used_upg",
            "reprog",
            "tokens",
            "collected",
            "exps",
            "secret",
            "done",
            "packs",
            "kept",
            "seen",
            "filled",
            "ready",
        ):
            setattr(self, name, [[] for _ in range(n)])
        self.ship = [-1] * n  # until the Starting tile is placed (phase "start")
        for seat in range(n):
            start = self.start_of(seat)
            self.emb[seat][start] = 1
            self.owner[start] = seat
            self.loc_cards[seat].append(start)
            d = c.dashboards[self.factions[seat]]
            self.hand[seat] = [c.crew_index[d.captain], c.crew_index[c.locations[start].crew[0]]]
        self.rm = [r.start.rm] * n
        self.cr = [r.start.crystal] * n
        self.inf = [r.start_influence] * n
        self.emb_left = [r.embassies - 1] * n
        for name in (
            "dmg",
            "moves",
            "worm",
            "disc_used",
            "build_bonus",
            "trades",
            "exchange",
            "rerolled",
            "bonus_pts",
            "picked",
        ):
            setattr(self, name, [0] * n)
        self.stack = [i for i, x in enumerate(c.locations) if x.level > 0]
        self.stack += [len(c.locations) + i for i in range(len(c.anomalies))]
        self.rng.shuffle(self.stack)
        self.exp_decks = [[i for i, x in enumerate(c.expeditions) if x.tier == t] for t in TIERS]
        for deck in self.exp_decks:
            self.rng.shuffle(deck)
        self.enc_deck = list(range(len(c.encounters)))
        self.rng.shuffle(self.enc_deck)
        self.upg_deck = list(range(len(c.upgrades)))
        self.rng.shuffle(self.upg_deck)
        self.store = [-1] * r.store_size
        self.refill_store()
        self.enc_discard, self.upg_discard, self.exp_discard = [], [], []
        self.dmg_supply = len(c.damage)
        self.round, self.first, self.acted, self.step = 1, 0, 0, 0
        self.phase = "draft"
        for seat in range(n):
            pack = [self.exp_decks[t].pop() for t in range(3) for _ in range(2)]
            self.packs[seat] = pack
            self.seen[seat] = sorted(pack)
        self.setup_modules()
        self.setup_drone()
        self.reveals = 0
        self.phase, self.acted = "start", 0

    # --- Starting tiles ----------------------------------------------------------------------
    def start_cells(self) -> list[int]:
        """Empty cells next to the Space gate, the usual layout's cell for this placement
        first (rules.start_directions: opposite sides with two players)."""
        g = self.grid
        free = [c for c in g.neighbours[g.gate] if self.board[c] < 0]
        dirs = self.content.rules.start_directions[str(max(self.n, 2))]
        if self.acted < len(dirs):
            usual = g.toward(dirs[self.acted])
            if usual in free:
                free.remove(usual)
                free.insert(0, usual)
        return free

    def start_actions(self, seat: int) -> list[Action]:
        """One by one, in seat order, each player places their Starting tile next to the
        gate; in solo the player then places the drone's."""
        if seat != self.to_place():
            return []
        return [act("start", (c,)) for c in self.start_cells()]

    def to_place(self) -> int:
        return self.acted if self.acted < self.n else 0

    def apply_start(self, seat: int, a: Action, events: list[Event]) -> None:
        cell = int(a.args[0])  # type: ignore[arg-type]
        who = self.acted
        if who < self.n:
            tile = self.start_of(who)
            self.ship[who] = cell
        else:  # the drone's Starting tile, placed by the solo player
            tile = self.content.location_index[self.content.dashboards[self.drone_faction].start]
            self.d_ship = cell
        self.board[cell] = tile
        events.append(
            Event("start_tile", {"seat": who, "cell": cell, "tile": self.t.loc_ids[tile]})
        )
        self.acted += 1
        if self.acted >= self.turns:
            self.acted = 0
            self.phase = "powers" if self.has("player_powers") else "draft"

    # --- the Expedition draft --------------------------------------------------------------
    def draft_actions(self, seat: int) -> list[Action]:
        if self.picked[seat]:
            return []
        t = self.t
        have = {t.exp_tier[x] for x in self.kept[seat]}
        acts = [
            act("draft", (t.exp_ids[x],))
            for x in sorted(self.packs[seat])
            if t.exp_tier[x] not in have
        ]
        return acts or [act("draft_pass")]

    def apply_draft(self, seat: int, a: Action, events: list[Event]) -> None:
        if a.kind == "draft":
            x = self.content.expedition_index[str(a.args[0])]
            self.packs[seat].remove(x)
            self.kept[seat].append(x)
        self.picked[seat] = 1
        events.append(Event("drafted", {"seat": seat}))
        if not all(self.picked):
            return
        self.draft_pick += 1
        self.picked = [0] * self.n
        if self.draft_pick < 3:
            self.packs = [self.packs[(s - 1) % self.n] for s in range(self.n)]
            for s in range(self.n):
                self.seen[s] = sorted(set(self.seen[s]) | set(self.packs[s]))
            return
        self.finish_draft(events)

    def finish_draft(self, events: list[Event]) -> None:
        t = self.t
        for s in range(self.n):
            for x in self.packs[s]:
                self.exp_decks[t.exp_tier[x]].append(x)
            self.packs[s] = []
        for deck in self.exp_decks:
            self.rng.shuffle(deck)
        for s in range(self.n):
            have = {t.exp_tier[x] for x in self.kept[s]}
            for tier in range(3):
                if tier not in have:
                    card = self.draw_expedition(tier)
                    if card >= 0:
                        self.kept[s].append(card)
            self.exps[s] = sorted(self.kept[s], key=lambda x: t.exp_tier[x])
            self.kept[s] = []
            self.seen[s] = []
        events.append(
            Event("draft_done", {"expeditions": [[t.exp_ids[x] for x in e] for e in self.exps]})
        )
        self.start_round(events)

    # --- rounds --------------------------------------------------------------------------------
    def start_round(self, events: list[Event] | None = None) -> None:
        n = self.n
        # each ship's 1 movement; engine Damage slows it while the card is there
        self.base_moves = [1] * n
        self.moves = [0] * n
        for name in ("worm", "disc_used", "build_bonus", "trades", "exchange", "rerolled"):
            setattr(self, name, [0] * n)
        self.used_upg = [[] for _ in range(n)]
        self.reprog = [[] for _ in range(n)]
        self.collected = [[] for _ in range(n)]
        self.tokens = [[] for _ in range(n)]
        self.filled = [[] for _ in range(n)]
        self.ready = [[] for _ in range(n)]
        self.acted, self.step = 0, 0
        self.phase = "production"
        produced: list[Event] = []
        if self.round >= 2:
            frames = []
            for k in range(n):
                seat = (self.first + k) % n
                rm, cr = self.rm[seat], self.cr[seat]
                frame = self.produce(seat)
                if events is not None:
                    ids = self.t.loc_ids
                    produced.append(
                        Event(
                            "produced",
                            {
                                "seat": seat,
                                "rm": self.rm[seat] - rm,
                                "crystal": self.cr[seat] - cr,
                                "locations": [ids[x] for x in self.collected[seat]],
                            },
                        )
                    )
                if frame:
                    frames.append(frame)
            self.pending.extend(reversed(frames))
        self.module_round_start(events)  # the round's reveals come first, then Production
        if events is not None:
            events.extend(produced)

    def produce(self, seat: int) -> dict[str, int | str] | None:
        """Production: the Starting Location always, the current one with an Embassy;
        Collection tokens for the rest (a choice when there are more than the tokens)."""
        start = self.start_of(seat)
        self.collect(seat, start)
        here = self.location_at(self.ship[seat])
        if here >= 0 and here != start and self.emb[seat][here]:
            self.collect(seat, here)
        locs = self.content.locations
        others = [
            loc
            for loc, c in enumerate(self.emb[seat])
            if c and loc not in self.collected[seat] and locs[loc].kind == "recruit"
        ]
        limit = self.content.rules.collection_tokens
        if len(others) <= limit:
            self.tokens[seat] = others
            return None
        return {"k": "tokens", "s": seat, "left": limit}

    def settle(self, events: list[Event]) -> None:
        while True:
            self.run_pending(events)
            if self.pending or not self.advance(events):
                return

    def advance(self, events: list[Event]) -> bool:
        """One step of the phase machine; False when a seat must act (or it is over)."""
        ph = self.phase
        if ph == "production":
            self.phase, self.acted, self.step = "discovery", 0, 0
            return True
        if ph in ("discovery", "sensor"):
            if self.acted >= self.turns:
                if ph == "discovery":
                    self.phase = "sensor"
                else:
                    self.phase = "command"
                self.acted, self.step = 0, 0
                if self.phase == "command":
                    self.open_windows(self.turn)
                return True
            seat = self.turn
            if self.step == 0:
                self.step = 1
                if seat == self.n:  # the drone: its tiles, placed by the player
                    if ph == "discovery":
                        self.drone_discovery(events)
                elif ph == "discovery":
                    k = self.content.rules.discovery_tiles
                    if self.n <= 2:
                        k = self.content.rules.discovery_tiles_two_players
                    self.open_placement(seat, k, False, False, events)
                else:
                    self.start_sensor(seat, events)
            else:
                self.acted += 1
                self.step = 0
            return True
        if ph == "command":
            if self.acted >= self.turns:
                self.phase, self.step = "end", 0
                return True
            if self.turn == self.n:  # the drone's Command phase
                if self.step == 0:
                    self.step = 1
                    self.drone_command()
                else:
                    self.acted += 1
                    self.step = 0
                    self.open_windows(self.turn)
                return True
            return False
        if ph == "end":
            return self.end_round(events)
        return False

    def end_round(self, events: list[Event]) -> bool:
        n = self.n
        if self.step == 0:
            if self.round >= self.content.rules.rounds:
                self.phase = "over"
                over: dict[str, object] = {"scores": [self.points(s) for s in range(n)]}
                if self.is_solo:
                    over["drone"] = self.drone_points()
                events.append(Event("game_over", over))
                return False
            self.step = 1
            frames = []
            for k in range(n):
                seat = (self.first + k) % n
                kind = self.anomaly_kind(self.board[self.ship[seat]])
                if kind is not None:
                    tile = self.board[self.ship[seat]] - self.n_locations
                    fx = self.t.anomaly_round_end[tile]
                    if fx:
                        frames.append({"k": "fx", "s": seat, "fx": fx})
            self.pending.extend(reversed(frames))
            return True
        if self.step == 1:
            for s in range(n):
                self.hand[s].extend(self.transit[s])
                self.transit[s] = self.sickbay[s] + self.solo[s]
                self.sickbay[s], self.solo[s] = [], []
                self.tokens[s] = []
            frames = []
            for k in range(n):
                seat = (self.first + k) % n
                missing = 3 - len(self.exps[seat])
                if missing > 0 and any(self.exp_decks):
                    frames.append({"k": "new_exp", "s": seat, "left": missing})
            self.pending.extend(reversed(frames))
            self.first = (self.first + 1) % self.turns
            if self.is_solo and self.round + 1 == self.content.rules.rounds:
                self.first = self.n  # the drone is always first in the last round
            self.step = 2
            return True
        self.round += 1
        events.append(Event("round", {"round": self.round, "first": self.first}))
        self.start_round(events)
        return True

    # --- windows: acting in an opponent's Command phase ---------------------------------
    def window_actions(self, seat: int, command: bool) -> list[Action]:
        """What ``seat`` may do out of turn: a special action rolled this round, and in an
        opponent's Command phase an Upgrade ability (discarding the Upgrade)."""
        acts = [act("special", (k,)) for k in self.ready[seat]]
        if command:
            ids = self.t.upg_ids
            acts += [act("ability", (ids[u],)) for u in self.enabled_discardable(seat)]
        return acts

    def open_windows(self, holder: int) -> None:
        """At the start of ``holder``'s Command turn (the drone's too), every other seat
        that could use something during an opponent's Command phase gets a window, in
        turn order after the holder (RULINGS.md 24a)."""
        if self.phase != "command" or self.acted >= self.turns:
            return
        frames = []
        for k in range(1, self.turns):
            seat = (holder + k) % self.turns
            if seat < self.n and self.window_actions(seat, True):
                frames.append({"k": "window", "s": seat, "w": "command", "of": holder})
        self.pending.extend(reversed(frames))

    def use_special(self, seat: int, k: int, events: list[Event]) -> tuple[Any, ...]:
        """Spend a ready special action; its effects (for the caller to run)."""
        self.ready[seat].remove(k)
        events.append(Event("special_used", {"seat": seat, "special": k}))
        return tuple(self.face_effects(seat, f"special{k}"))

    def apply_window(self, f: dict[str, Any], a: Action, events: list[Event]) -> None:
        """``pass`` closes the window; a use keeps it open while something is left."""
        seat = f["s"]
        self.pending.pop()
        if a.kind == "pass":
            return
        if a.kind == "special":
            fx = self.use_special(seat, int(a.args[0]), events)  # type: ignore[arg-type]
        else:
            u = self.content.upgrade_index[str(a.args[0])]
            self.remove_upgrade(seat, u)
            events.append(Event("ability_used", {"seat": seat, "upgrade": self.t.upg_ids[u]}))
            fx = self.t.upg_ability[u]
        if self.window_actions(seat, f["w"] == "command"):
            self.pending.append(f)
        self.push_fx(seat, fx)

    # --- frames of the round machine ----------------------------------------------------
    def round_frame_actions(self, f: dict[str, object]) -> list[Action]:
        seat = int(f["s"])  # type: ignore[call-overload]
        if f["k"] == "tokens":
            ids = self.t.loc_ids
            kinds = self.t.loc_kind
            return [  # Legendary and Artifact Locations produce nothing: no token there
                act("token", (ids[loc],))
                for loc, c in enumerate(self.emb[seat])
                if c
                and kinds[loc] == "recruit"
                and loc not in self.collected[seat]
                and loc not in self.tokens[seat]
            ]
        if f["k"] == "new_exp":
            return [act("draw", (TIERS[i],)) for i in range(3) if self.exp_decks[i]]
        return []

    def apply_round_frame(self, f: dict[str, object], a: Action, events: list[Event]) -> None:
        seat = int(f["s"])  # type: ignore[call-overload]
        left = int(f["left"]) - 1  # type: ignore[call-overload]
        if f["k"] == "tokens":
            self.tokens[seat].append(self.content.location_index[str(a.args[0])])
        else:
            card = self.draw_expedition(TIERS.index(str(a.args[0])))
            self.exps[seat].append(card)
            events.append(
                Event("expedition_drawn", {"seat": seat, "expedition": self.t.exp_ids[card]})
            )
        if left <= 0 or (f["k"] == "new_exp" and not any(self.exp_decks)):
            self.pending.pop()
        else:
            f["left"] = left
