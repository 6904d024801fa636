"""The solo game's drone: set-up, its Discovery and Command turns, its Action decks.

The drone is part of the rules, not a player: it has no seat, acts only through its
Movement card, the die and its Action cards, and the few choices its cards leave open
(where its discovered tiles go, how the player reacts to its attacks) are the player's
(seat 0) decisions. Its index in turn order and in ``owner`` is ``n`` (= 1).
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Event
from skydeck.games.expedition.board import DIRECTIONS
from skydeck.games.expedition.content import TIERS
from skydeck.games.expedition.modules import ModulesMixin


class DroneMixin(ModulesMixin):
    """Everything the drone does."""

    drone_faction: int
    rank: str

    @property
    def drone(self) -> int:
        return self.n

    def setup_drone(self) -> None:
        """One Embassy cube on its Starting Location (the player places the tile and the
        ship stands there: FlowMixin.apply_start), the four Action decks shuffled,
        crossed-out Upgrades and Encounters removed."""
        n = self.n
        self.d_emb = [0] * len(self.content.locations)
        self.d_decks, self.d_used, self.d_known = [], [], []
        if not self.is_solo:
            return
        c = self.content
        start = c.location_index[c.dashboards[self.drone_faction].start]
        self.owner[start] = n
        self.d_emb[start] = 1
        self.d_left = c.rules.embassies - 1
        self.d_ship = -1
        self.d_pts = 0
        t = self.t
        for deck in t.drone_cards:
            order = list(range(len(deck)))
            self.rng.shuffle(order)
            self.d_decks.append(order)
            self.d_used.append([])
            self.d_known.append(0)
        self.enc_deck = [e for e in self.enc_deck if not t.enc_no_solo[e]]
        self.upg_deck = [u for u in self.upg_deck if not t.upg_no_solo[u]]
        for i, u in enumerate(self.store):
            if u >= 0 and t.upg_no_solo[u]:
                self.store[i] = -1
        self.refill_store()

    def drone_points(self) -> int:
        exps = self.content.expeditions
        total = self.d_pts + sum(exps[x].points for x in self.d_done)
        total += sum(1 for c in self.d_emb if c >= 3)
        if self.phase == "over" and self.objs:
            total += sum(self.objective_points(self.n))
        return total

    def current_deck(self) -> int:
        return min(len(self.d_decks) - 1, (self.round - 1) // 2)

    # --- turns ---------------------------------------------------------------------------
    def drone_command(self) -> None:
        """The rank card: this round's moves, then this round's Action cards."""
        r = self.content.mod.drone.ranks[self.rank]
        ops: list[dict[str, Any]] = []
        moves = r.moves[self.round - 1]
        if moves:
            ops.append({"op": "d_move", "n": moves})
        ops += [{"op": "d_card"}] * r.actions[self.round - 1]
        self.pending.append({"k": "dfx", "s": 0, "fx": tuple(ops), "x": 0})

    def drone_discovery(self, events: list[Event]) -> None:
        k = self.content.rules.discovery_tiles_two_players
        self.open_placement(0, k, False, False, events, near=self.d_ship, drone=True)

    # --- the Action decks ----------------------------------------------------------------
    def draw_drone_card(self, deck: int) -> int:
        """Top card; an empty deck is its used pile turned over, not shuffled (so its
        order is then known to all)."""
        if not self.d_decks[deck]:
            self.d_decks[deck] = self.d_used[deck][::-1]
            self.d_used[deck] = []
            self.d_known[deck] = 1
        if not self.d_decks[deck]:
            return -1
        card = self.d_decks[deck].pop()
        self.d_used[deck].append(card)
        if not self.d_known[deck]:
            self.reveals += 1
        return card

    def play_drone_card(self, deck: int, extra: bool, events: list[Event]) -> None:
        card = self.draw_drone_card(deck)
        if card < 0:
            return
        events.append(
            Event("drone_card", {"card": self.t.drone_card_ids[deck][card], "extra": extra})
        )
        self.pending.append(
            {"k": "dfx", "s": 0, "fx": self.t.drone_cards[deck][card], "x": int(extra)}
        )

    def execute_drone(self, f: dict[str, Any], e: dict[str, Any], events: list[Event]) -> None:
        op = e["op"]
        if op == "d_card":
            self.play_drone_card(self.current_deck(), False, events)
        elif op == "d_move":
            for _ in range(e["n"]):
                self.drone_move(events)
        elif op == "d_embassy":
            self.drone_embassy(events)
        elif op == "d_upgrade":
            roll = self.rng.randint(1, 6)
            u = self.store[roll - 1] if roll <= len(self.store) else -1
            if u >= 0:
                self.store[roll - 1] = -1
                self.upg_out.append(u)
                self.refill_store()
            events.append(
                Event(
                    "drone_upgrade",
                    {"roll": roll, "upgrade": self.t.upg_ids[u] if u >= 0 else None},
                )
            )
        elif op == "d_expedition":
            card = self.draw_expedition(TIERS.index(e["tier"]))
            if card >= 0:
                self.d_done.append(card)
                events.append(Event("drone_expedition", {"expedition": self.t.exp_ids[card]}))
        elif op == "d_points":
            self.d_pts += e["n"]
        elif op == "d_discover":
            self.open_placement(0, e["n"], False, False, events, near=self.d_ship, drone=True)
        elif op == "d_extra":
            if f["x"]:
                return  # an extra card's own extra action does not chain
            cur = self.current_deck()
            deck = cur if e["deck"] == "current" else max(0, cur - 1)
            if not self.d_decks[deck]:
                self.d_decks[deck] = self.d_used[deck][::-1]
                self.d_used[deck] = []
            self.rng.shuffle(self.d_decks[deck])
            self.d_known[deck] = 0
            self.play_drone_card(deck, True, events)
        elif op == "d_attack":
            self.harm(0, e["harm"], 0, -1, events)
        elif op == "d_drain":
            self.lose(0, e["rm"], e["crystal"], e["influence"])
            events.append(Event("drone_drain", {"rm": e["rm"], "crystal": e["crystal"]}))

    def drone_move(self, events: list[Event]) -> None:
        """Die roll on the Movement card; a direction without a tile to enter turns
        clockwise to the next one (RULINGS.md); no way out: it stays."""
        roll = self.rng.randint(1, 6)
        d0 = self.content.mod.drone.movement[roll - 1]
        g = self.grid
        q, r = g.coords[self.d_ship]
        for k in range(6):
            dq, dr = DIRECTIONS[(d0 + k) % 6]
            cell = g.index.get((q + dq, r + dr))
            if cell is not None and self.passable(cell):
                self.d_ship = cell
                events.append(Event("drone_moved", {"roll": roll, "cell": cell}))
                return
        events.append(Event("drone_moved", {"roll": roll, "cell": self.d_ship}))

    def drone_embassy(self, events: list[Event]) -> None:
        """A free Embassy cube on the drone's Location, by the normal placement rules."""
        here = self.location_at(self.d_ship)
        if here < 0 or self.d_left <= 0:
            return
        loc = self.content.locations[here]
        own = self.owner[here]
        mine = self.d_emb[here]
        kind = loc.kind
        if loc.level == 0 and own != self.n:
            return  # the player's Starting Location
        if kind == "legendary" and (own >= 0 or mine):
            return
        if own < 0:
            if any(self.ship[s] == self.d_ship for s in range(self.n)):
                return  # blocked by the player's ship
            self.owner[here] = self.n
        elif own == self.n:
            if mine >= 3 or (kind != "recruit" and mine >= 1):
                return
        elif mine >= 1:
            return
        self.d_emb[here] = mine + 1
        self.d_left -= 1
        events.append(Event("drone_embassy", {"location": loc.id, "count": mine + 1}))
