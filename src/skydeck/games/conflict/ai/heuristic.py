"""A heuristic Stellar Conflict player that sees only its view.

Preparation: buys the ships with the best firepower-and-hull per credit (with a little
seeded noise, so two heuristic players do not field identical fleets) until nothing
fits, then gets ready.

Deployment: scores every offered placement cheaply with the exact geometry (what its
lasers would hit first, which enemy lasers it would now stop, on a shield or not, and
whether it blocks its own side's shots), then replays the whole battle against the
cards already on the table for the best few and keeps the placement whose simulated
result (own VP minus the best rival's) is highest. The Cargo ship goes where the
fewest enemy lasers and ships can reach it.
"""

from __future__ import annotations

import math
from typing import Any, cast

from skydeck.core import Action, Rng
from skydeck.games.conflict import battle as b
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.game import ConflictGame
from skydeck.games.conflict.state import BATTLE, ConflictState

_Spot = tuple[int, int, int]  # a place action's (x, y, angle)
SIMULATED = 12  # placements replayed through a full battle per decision


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, game: ConflictGame, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    # --- entry point ----------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = view["phase"]
        if phase == "preparation":
            return self._prepare(legal_actions)
        if phase == "deployment":
            return self._deploy(view, legal_actions, seat)
        if phase == "alarm" and Action("deploy") in legal_actions:
            return Action("deploy")  # lift the finger: the card lands where it is frozen
        return legal_actions[0]

    # --- preparation ----------------------------------------------------------------
    def ship_value(self, ship_id: str) -> float:
        s = self.game.content.ships[self.game.content.by_id[ship_id]]
        fire = sum(
            (0.3 if lz.kind == "ion" else 1.2 if lz.kind == "piercing" else lz.strength)
            for lz in s.lasers
        )
        sturdy = s.hull + 0.5 * len(s.shields) + 0.7 * len(s.immune_to) + 1.5 * s.regenerate
        speed = max(0, 10 - s.initiative) * 0.1
        return (fire * 1.2 + sturdy * 0.6 + speed) / max(1, s.cost)

    def _prepare(self, legal: list[Action]) -> Action:
        buys = [a for a in legal if a.kind == "buy"]
        if not buys:
            return Action("ready")
        return max(buys, key=lambda a: self.ship_value(str(a.args[0])) + self.rng.random() * 0.15)

    # --- deployment -----------------------------------------------------------------
    def _deploy(self, view: dict[str, Any], legal: list[Action], seat: int) -> Action:
        places = [a for a in legal if a.kind == "place"]
        hand = view["seats"][seat]["hand"]
        if not places or hand is None:
            return Action("done")
        game = self.game
        hand_idx = game.content.by_id[hand]
        base = self.table_state(view)
        ctx = _Context(self.game, base, seat, hand_idx)
        scored = []
        quick, noise = ctx.quick, self.rng.random
        for a in places:
            x, y, ang = cast(_Spot, a.args)  # the grid's whole numbers (Shapes.place_action)
            scored.append((quick(x, y, ang) + noise() * 1e-3, a))
        scored.sort(key=lambda t: -t[0])
        best: tuple[float, float, Action] | None = None
        for rating, a in scored[:SIMULATED]:
            x, y, ang = cast(_Spot, a.args)
            value = ctx.simulate(x, y, ang)
            if best is None or (value, rating) > (best[0], best[1]):
                best = (value, rating, a)
        assert best is not None
        return best[2]

    def table_state(self, view: dict[str, Any]) -> ConflictState:
        """A Battle-phase state holding the cards on the table as the view shows them."""
        game = self.game
        st = game.new(0)
        st.ready = [True] * game.players
        st.phase = BATTLE
        deploying = view["phase"] in ("deployment", "last_card", "alarm")
        for cv in view["cards"]:
            if not cv["on_table"]:
                continue
            idx = game.content.by_id[cv["ship"]]
            owner = -1 if cv["owner"] is None else cv["owner"]
            cubes = cv["cubes"]
            if deploying and cv["role"] == "cargo":
                cubes = game.cubes_per_source
            card = b.new_card(idx, owner, cv["x"], cv["y"], cv["angle"], cubes)
            card[b.C_DELAYS], card[b.C_FIRED] = cv["delays"], int(cv["fired"])
            card[b.C_DAMAGE] = tuple(cv["damage"])
            st.cards.append(card)
        return st


class _Context:
    """Per-decision precomputation: the table's rectangles and every laser's target."""

    def __init__(self, game: ConflictGame, base: ConflictState, seat: int, hand: int) -> None:
        self.game, self.base, self.seat, self.hand = game, base, seat, hand
        sh = game.shapes
        ships = game.content.ships
        self.shapes = sh
        cards = base.cards
        self.info = [(c[b.C_OWNER], ships[c[b.C_SHIP]]) for c in cards]
        shapes = [sh.shape(c[b.C_SHIP], c[b.C_X], c[b.C_Y], c[b.C_ANGLE]) for c in cards]
        self.cshapes = shapes
        self.rects = [s.rect for s in shapes]
        self.circles = [s.circle for s in shapes]
        # the same cards as floats, for ``geometry.first_hit_near`` (as the battle uses)
        self.near = [(i, *s.near) for i, s in enumerate(shapes)]
        self.frames = [s.frame for s in shapes]
        # every laser still to fire, with what it hits now and its ray as floats
        self.lasers: list[tuple[Any, ...]] = []
        for i, (c, s) in enumerate(zip(cards, shapes)):
            if c[b.C_FIRED]:
                continue
            for (p, d, strength, kind), ray in zip(s.lasers, s.rays):
                hit = g.first_hit(p, d, self.rects, i, self.circles)
                self.lasers.append((i, p, d, strength, kind, hit, *ray))
        enemies = [(c[b.C_X], c[b.C_Y]) for c in cards if c[b.C_OWNER] not in (seat, -1)]
        self.enemy_centre = (
            (sum(x for x, _ in enemies) / len(enemies), sum(y for _, y in enemies) / len(enemies))
            if enemies
            else (sh.width / 2, sh.height / 2)
        )
        self.card = ships[hand]

    def _target_value(self, i: int, strength: int, kind: str, q: Any) -> float:
        owner, ship = self.info[i]
        if kind != "piercing":
            s = self.cshapes[i]
            if any(g.on_segment(q, a, c) for a, c in s.shields):
                return 0.0
        if kind == "ion":
            return 0.6 if owner not in (self.seat, -1) and ship.lasers else 0.0
        amount = 1 if kind == "piercing" else strength
        if ship.role in ("cargo", "meteor"):
            return 0.0 if owner == self.seat else float(amount)
        if strength in ship.immune_to:
            return 0.0
        worth = amount * (ship.vp + 1) / max(1, ship.hull)
        return -worth if owner == self.seat else worth

    def quick(self, x: int, y: int, angle: int) -> float:
        """Cheap geometric worth of putting the hand card at (x, y, angle)."""
        shape = self.shapes.outline(self.hand, x, y, angle)
        value = 0.0
        for p, d, strength, kind in shape.lasers:
            # first_hit's answer: floats find the card, exact integers where they
            # cannot tell (geometry.first_hit_near)
            hit = g.first_hit_near(p, d, g.float_ray(p, d), self.rects, -1, self.near, self.frames)
            if hit is not None:
                value += self._target_value(hit[0], strength, kind, g.point_at(p, d, hit[1]))
            else:  # aim at where the enemy gathers
                ex, ey = self.enemy_centre
                px, py = p[0] / g.MM, p[1] / g.MM
                dist = math.hypot(ex - px, ey - py) or 1.0
                value += 0.2 * ((ex - px) * d[0] + (ey - py) * d[1]) / dist / g.ONE
        own = self.card
        # the spot's bounding circle as floats, widened as geometry.float_circle widens
        # it: a laser that passes it by that margin surely misses the card (the test of
        # geometry.nearest_card); most of the table's lasers pass far from a given spot
        (cx, cy), r2 = shape.circle
        fcx, fcy, reach = cx / g.MM, cy / g.MM, math.sqrt(r2) / g.MM + 1e-3
        for i, p, d, strength, kind, hit, fx, fy, ux, uy in self.lasers:
            wx, wy = fcx - fx, fcy - fy
            if wx * ux + wy * uy < -reach or abs(wx * uy - wy * ux) > reach:
                continue
            t = g.ray_rect(p, d, shape.rect)
            if t is None or (hit is not None and not t[0] * hit[1][1] < hit[1][0] * t[1]):
                continue
            # this laser would now hit the new card instead of its current target
            if hit is not None:
                value += self._target_value(hit[0], strength, kind, g.point_at(p, d, hit[1]))
            shooter_owner = self.info[i][0]
            q = g.point_at(p, d, t)
            shielded = kind != "piercing" and any(g.on_segment(q, a, c) for a, c in shape.shields)
            if shielded or kind == "ion" or strength in own.immune_to:
                value += 0.3 if shooter_owner != self.seat else 0.0
            elif shooter_owner != self.seat:
                amount = 1 if kind == "piercing" else strength
                value -= amount * (own.vp + 1) / max(1, own.hull) if own.hull else amount
            else:
                value -= 1.0  # own side's shot wasted on us
        if own.role == "cargo":
            ex, ey = self.enemy_centre
            value += math.hypot(ex - x, ey - y) / 400
        return value

    def _outcome(self, st: ConflictState) -> float:
        while b.next_initiative(st) is not None:
            b.fire_step(st)
        sc = st.scores
        rivals = [v for i, v in enumerate(sc) if i != self.seat]
        return sc[self.seat] - max(rivals)

    def simulate(self, x: int, y: int, angle: int) -> float:
        st = self.base.clone()
        cubes = self.game.cubes_per_source if self.card.role == "cargo" else 0
        st.cards.append(b.new_card(self.hand, self.seat, x, y, angle, cubes))
        return self._outcome(st)


AGENTS = {"heuristic": HeuristicAgent}
