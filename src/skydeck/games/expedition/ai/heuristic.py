"""A greedy Stellar Expedition player: builds Embassies for crew and income, completes
the Expeditions it can, and plays only the crew an attempt still needs.

It spends only when the spending pays at once: a Warp Jump only towards something it can
do on arrival (collect, build, complete an Expedition), an Influence re-roll when the
dice are worth more after it, the 2:1 exchange and Robot reprogramming when they make an
Embassy or an Expedition possible now, an Expedition replacement when its crew cannot
complete the card.

It reads the seat's view and the game's content (public data), never the state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from skydeck.core import Action, Game, Rng
from skydeck.games.expedition.board import grid
from skydeck.games.expedition.content import Content, Expedition, Requirement, default_content

FACE_ORDER = {"special1": 5, "special2": 5, "upgrade": 4, "crystal": 3, "rm2": 2}
#: what a roll showing an Encounter is worth: most Encounters harm when failed, and the
#: crew that overcome one are then spent for the round
ENCOUNTER_VALUE = -1.5
#: what one Influence is worth in the same units (it also buys re-rolls and Secrets)
INFLUENCE_VALUE = 2.0
#: the price of a Warp Jump in the same units (2 RM, or 1 Crystal)
WARP_COST = {"rm": 2.0, "crystal": 2.5}


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)
        content = getattr(game, "content", None)
        self.c: Content = content if isinstance(content, Content) else default_content()
        self.crew = {x.id: x for x in self.c.crew}
        self.exps = {x.id: x for x in self.c.expeditions}
        self.encs = {x.id: x for x in self.c.encounters}
        self.upgs: dict[str, Any] = {x.id: x for x in (*self.c.upgrades, *self.c.artifacts)}
        self.locs = {x.id: x for x in self.c.locations}
        self.cancelled: set[tuple[int, str]] = set()
        #: (round, seat) where an Expedition was replaced (one replacement a round at most)
        self.replaced: set[tuple[int, int]] = set()
        self.neighbours = grid(self.c.rules.board_radius).neighbours
        self._ctx: tuple[Any, dict[str, Any]] | None = None

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        best, best_score = legal_actions[0], float("-inf")
        for a in legal_actions:
            s = self.score(view, a, seat) + self.rng.random() * 0.01
            if s > best_score:
                best, best_score = a, s
        pend = view.get("pending")
        if best.kind == "cancel" and pend and pend["kind"] == "exp":
            self.cancelled.add((view["round"], pend["expedition"]))
        if best.kind == "replace":
            self.replaced.add((view["round"], seat))
        return best

    # --- scoring ------------------------------------------------------------------------
    def score(self, view: dict[str, Any], a: Action, seat: int) -> float:
        me = view["players"][seat]
        pend = view.get("pending")
        k = a.kind
        if pend and pend["kind"] in ("exp", "enc") and k in ("play", "use"):
            return self.card_value(view, pend, a, seat)
        if k == "react_upgrade":
            ops = {e.op for e in self.upgs[str(a.args[0])].ability}
            return 5 if ops & {"prevent", "repair"} else -2
        table: dict[str, float] = {
            "complete": 100,
            "resolve": 90,
            "expedition": 80,
            "build": 60,
            "collect": 55,
            "collect_at": 50,
            "encounter": 50,
            "bonus": 20,
            "alt": 10,
            "roll": 1,
            "fail": 0,
            "cancel": -5,
            "accept": 1,
            "react_upgrade": 5,
            "react_solo": -1,
            "take": 10,
            "artifact": 8,
            "decline": 0,
            "option": 1,
            "end": 0,
            "draft_pass": 0,
            "secret_free": 5,
            "token": 1,
            "reroll_free": 8,
            "special": 6,  # a special action rolled this round: used at once, as before
            "pass": -1,
        }
        if k in table:
            v = table[k]
            if k == "expedition":
                v += self.exps[str(a.args[0])].points
                if (view["round"], str(a.args[0])) in self.cancelled:
                    v = -10
            if k in ("take", "artifact") and len(a.args) > 1:
                v = -1 if k == "take" else 2
            if k == "build" and a.args:
                v = 1  # paying full to keep a discount: rarely worth it
            return v
        if k == "reward":
            return FACE_ORDER.get(str(a.args[0]), 0)
        if k == "power_drop":  # attacks are wasted against the drone
            return 1 if a.args[0] == "saboteurs" and len(view["players"]) == 1 else 0
        if k == "draft":
            return self.exp_fit(me, str(a.args[0]))
        if k == "draw":
            return {"bronze": 3, "silver": 2, "gold": 1}[str(a.args[0])] + (
                2 if view["round"] <= 4 and a.args[0] == "silver" else 0
            )
        if k == "pick":
            e = self.encs[str(a.args[0])]
            return 5 if e.kind == "boon" else 1
        if k == "target":
            other = view["players"][int(a.args[0])]  # type: ignore[arg-type]
            return float(other["points"] * 2 + other["rm"])
        if k == "place":
            return 1 if str(a.args[0]) in self.locs else 0
        if k in ("move", "warp"):
            # flying over a Hazard is a gamble on its die: only when nothing else goes
            risk = 0.3 if a.args[-1] == "hazard" else 0.0
            return self.move_value(view, me, a) - risk
        if k == "wormhole":
            return 2
        if k == "buy":
            return self.buy_value(me, a)
        if k == "repair":
            held = set(me.get("damage_cards", []))
            if me["rm"] >= 3 and any(d.movement for d in self.c.damage if d.id in held):
                return 7  # a Damage card that keeps the ship in place goes first
            return 6 if me["rm"] >= 6 else -1
        if k == "reroll":
            return self.reroll_value(view, me, pend, int(a.args[0]))  # type: ignore[arg-type]
        if k == "replace":
            return self.replace_value(view, me, str(a.args[0]), str(a.args[1]))
        if k == "exchange":
            return 58 if self.exchange_helps(view, me) else -3
        if k == "convert":
            return self.convert_value(view, me, str(a.args[0]), str(a.args[1]))
        if k == "reprogram":
            return self.reprogram_value(view, me, str(a.args[0]), str(a.args[1]))
        if k == "solo":
            return self.solo_value(me, str(a.args[0]))
        if k == "secret":
            late = view["round"] >= 7
            if me["influence"] >= 4 and len(me["secret_tiers"]) < 2 and not late:
                return 2 if a.args[0] == "bronze" else 1
            return -3
        if k == "trade":
            give = str(a.args[0])
            return 1 if give == "influence" or (give == "rm" and me["rm"] >= 8) else -3
        return -3  # influence spending, trades, abilities: only when nothing better

    def solo_value(self, me: dict[str, Any], cid: str) -> float:
        """Send crew on a Solo mission when Crystals are plentiful and the crew member is
        not needed for any Expedition held."""
        if me["crystal"] < 4:
            return -3
        cr = self.crew[cid]
        if set(cr.skills) & self.wanted_skills(me):
            return -3
        ops = {e.op for e in cr.solo or []}
        return 3 if ops & {"gain", "points", "secret_expedition", "take_upgrade"} else -1

    def exp_fit(self, me: dict[str, Any], eid: str) -> float:
        e = self.exps[eid]
        return e.points * 0.1 - len(e.requires.skills) * 0.2 - e.requires.level_sum * 0.05

    def wanted_skills(self, me: dict[str, Any]) -> set[str]:
        out: set[str] = set()
        for eid in me["expeditions"] + me.get("secret", []):
            out.update(self.exps[eid].requires.skills)
        return out

    def buy_value(self, me: dict[str, Any], a: Action) -> float:
        if len(a.args) > 1 or me["rm"] < 7:
            return -4
        u = self.upgs[str(a.args[0])]
        return 7 if u.skill in self.wanted_skills(me) else -4

    def move_value(self, view: dict[str, Any], me: dict[str, Any], a: Action) -> float:
        """A free move: what can be done on arrival, else where the ship stands well (a
        Location to settle or grow). A Warp Jump: only what it pays for on arrival, or
        one more Jump on, less what the Jumps cost; never a Jump to stand somewhere."""
        cell = int(a.args[0])  # type: ignore[arg-type]
        ctx = self.context(view, me)
        rm, cr = me["rm"], me["crystal"]
        if a.kind == "warp":  # a Jump for each cell beyond the free movement
            pay = str(a.args[1])
            jumps = max(1, self.steps(ctx, me["ship"], cell) - me["moves"])
            if pay == "mixed":  # some Jumps in Crystals, the rest in RM
                paid = int(a.args[2])  # type: ignore[arg-type]
                rm, cr = rm - 2 * (jumps - paid), cr - paid
                cost = WARP_COST["crystal"] * paid + WARP_COST["rm"] * (jumps - paid)
                return self.reach_value(view, me, ctx, cell, rm, cr) - cost
            rm, cr = (rm - 2 * jumps, cr) if pay == "rm" else (rm, cr - jumps)
            return self.reach_value(view, me, ctx, cell, rm, cr) - WARP_COST[pay] * jumps
        tile = ctx["tiles"].get(cell)
        v = 0.5 + self.arrival_value(view, me, ctx, cell, rm, cr)
        if tile in self.locs:
            loc = self.locs[tile]
            owner = view["map"]["owners"].get(tile)
            first = loc.cost[0]
            if owner is None and loc.level > 0 and me["rm"] + 3 >= first.rm:
                v += 4 + loc.level * 0.3
            elif owner == me["seat"] and me["embassies"].get(tile, 0) < 3:
                v += 3
        return v

    def steps(self, ctx: dict[str, Any], src: int, dst: int) -> int:
        """Cells from ``src`` to ``dst``: ships cross empty space, not Asteroid belts."""
        tiles, passable = ctx["tiles"], ctx["passable"]
        seen, frontier, d = {src}, [src], 0
        while frontier:
            d += 1
            nxt = []
            for c in frontier:
                for x in self.neighbours[c]:
                    if x == dst:
                        return d
                    if x not in seen and (x not in tiles or passable(tiles[x])):
                        seen.add(x)
                        nxt.append(x)
            frontier = nxt
        return 1

    def reach_value(
        self,
        view: dict[str, Any],
        me: dict[str, Any],
        ctx: dict[str, Any],
        cell: int,
        rm: int,
        cr: int,
    ) -> float:
        """What arriving on ``cell`` pays for, or the best a second Jump from there pays
        (less its cost); 0 when neither pays."""
        best = self.arrival_value(view, me, ctx, cell, rm, cr)
        tiles = ctx["tiles"]
        for nxt in self.neighbours[cell]:
            if nxt not in tiles or not ctx["passable"](tiles[nxt]):
                continue
            for pay, (r2, c2) in (("rm", (rm - 2, cr)), ("crystal", (rm, cr - 1))):
                if r2 < 0 or c2 < 0:
                    continue
                v = self.arrival_value(view, me, ctx, nxt, r2, c2) - WARP_COST[pay]
                best = max(best, v * 0.8)
        return best

    def arrival_value(
        self,
        view: dict[str, Any],
        me: dict[str, Any],
        ctx: dict[str, Any],
        cell: int,
        rm: int,
        cr: int,
    ) -> float:
        """What the ship can do on ``cell`` right away with ``rm``/``cr`` left: collect
        there, build an Embassy, or complete an Expedition that needs that Location."""
        tile = ctx["tiles"].get(cell)
        if tile not in self.locs:
            return 0.0
        loc = self.locs[tile]
        v = 0.0
        if tile in me["collection_tokens"]:
            mult = 2 if me["embassies"].get(tile, 0) >= 3 else 1
            v += mult * (loc.produce.rm + 2 * loc.produce.crystal)
        price = self.build_price(view, me, tile, cell)
        if price is not None and price[0] <= rm and price[1] <= cr:
            v += 6 + loc.level * 0.5
        for eid in ctx["held"]:
            x = self.exps[eid]
            if (view["round"], eid) in self.cancelled:
                continue  # tried this round: its crew did not come together
            if x.requires.location == loc.type and self.meets(me, ctx, x.requires, loc.type):
                v += 5 + x.points
        return v

    def build_price(
        self, view: dict[str, Any], me: dict[str, Any], tile: str, cell: int
    ) -> tuple[int, int] | None:
        """The engine's Embassy price as a seat can work it out from its view (None: no
        Embassy possible there)."""
        loc = self.locs[tile]
        seat = me["seat"]
        owner = view["map"]["owners"].get(tile)
        have = me["embassies"].get(tile, 0)
        if have >= 3 or me["embassies_left"] <= 0 or (loc.level == 0 and owner != seat):
            return None
        if loc.kind != "recruit" and (have or (loc.kind == "legendary" and owner is not None)):
            return None
        if owner is None:
            if any(p["ship"] == cell for p in view["players"] if p["seat"] != seat):
                return None
            idx = 0
        elif owner == seat:
            idx = have
        elif have:
            return None
        else:
            idx = 0
        rm, cr = loc.cost[idx].rm, loc.cost[idx].crystal
        disc = self.c.rules.exploration_discount
        if have == 0 and view["round"] <= len(disc) and not me["discount_used"]:
            rm = max(0, rm - disc[view["round"] - 1])
        bonus = me["build_discount"]
        cut = min(bonus, rm)
        return rm - cut, max(0, cr - (bonus - cut))

    # --- what the crew can do (from the seat's own view) ------------------------------------
    def context(self, view: dict[str, Any], me: dict[str, Any]) -> dict[str, Any]:
        """Per-view facts every rating needs (cached for the view being rated)."""
        if self._ctx is not None and self._ctx[0] is view:
            return self._ctx[1]
        hand = list(me.get("hand", []))
        skills: Counter[str] = Counter()
        levels: Counter[int] = Counter()
        for cid in hand:
            skills.update(self.crew[cid].skills)
            levels[self.crew[cid].level] += 1
        for cid, sk in me["reprogrammed"]:
            if cid in hand:
                skills[sk] += 1
        dmg = me["damage"]
        for i, uid in enumerate(me["slots"]):
            if uid is not None and i >= dmg and uid not in me["used_upgrades"]:
                sk = self.upgs[uid].skill
                if sk:
                    skills[sk] += 1
        owned = hand + list(me["transit"]) + list(me["sickbay"]) + list(me["solo"])
        all_skills: Counter[str] = Counter(s for cid in owned for s in self.crew[cid].skills)
        for uid in me["slots"]:
            if uid is not None and self.upgs[uid].skill:
                all_skills[self.upgs[uid].skill] += 1
        anomalies = {a.id: a.passable for a in self.c.anomalies}
        ctx = {
            "tiles": {t["cell"]: t["tile"] for t in view["map"]["tiles"]},
            "passable": lambda tile: anomalies.get(tile, True),
            "hand": hand,
            "skills": skills,
            "levels": levels,
            "level_sum": sum(self.crew[cid].level for cid in hand),
            "owned_skills": all_skills,
            "owned_levels": Counter(self.crew[cid].level for cid in owned),
            "held": list(me["expeditions"]) + list(me.get("secret", [])),
        }
        self._ctx = (view, ctx)
        return ctx

    def here_type(self, view: dict[str, Any], me: dict[str, Any]) -> str | None:
        tile = self.context(view, me)["tiles"].get(me["ship"])
        return self.locs[tile].type if tile in self.locs else None

    def meets(
        self,
        me: dict[str, Any],
        ctx: dict[str, Any],
        r: Requirement,
        here: str | None,
        extra: str | None = None,
    ) -> bool:
        """Could the hand and usable Upgrades (plus one ``extra`` skill) meet ``r`` with
        the ship at a Location of type ``here``? Playing every card is the best case."""
        if r.location is not None and r.location != here:
            return False
        if r.embassies and not any(
            n >= r.embassies and self.locs[t].type == r.embassy_type
            for t, n in me["embassies"].items()
            if t in self.locs
        ):
            return False
        need = Counter(r.skills)
        have = ctx["skills"]
        for sk, n in need.items():
            if have[sk] + (1 if sk == extra else 0) < n:
                return False
        if any(ctx["levels"][lv] < n for lv, n in Counter(r.levels).items()):
            return False
        return bool(ctx["level_sum"] >= r.level_sum)

    def feasibility(self, me: dict[str, Any], ctx: dict[str, Any], x: Expedition) -> float:
        """The share of an Expedition's skill and level icons the crew owned (hand, Transit,
        Sickbay, Solo) and the Upgrades could ever supply: low means a dead card."""
        r = x.requires
        total = covered = 0
        for sk, n in Counter(r.skills).items():
            total += n
            covered += min(n, ctx["owned_skills"][sk])
        for lv, n in Counter(r.levels).items():
            total += n
            covered += min(n, ctx["owned_levels"][lv])
        return 1.0 if total == 0 else covered / total

    # --- spending that pays ---------------------------------------------------------------
    def dice_value(self, dice: list[str]) -> float:
        """What a pair of Sensor dice is worth to take as it stands."""
        n_enc = dice.count("encounter")
        if n_enc == 2:
            return ENCOUNTER_VALUE + 1.0  # the better of two cards
        rewards = [FACE_ORDER.get(f, 0) for f in dice if f != "encounter"]
        if n_enc == 1:  # the other die is only an alternative to a bonus
            return ENCOUNTER_VALUE + 0.3 * max(rewards, default=0)
        return float(max(rewards, default=0))

    def reroll_value(
        self, view: dict[str, Any], me: dict[str, Any], pend: dict[str, Any] | None, die: int
    ) -> float:
        """Re-roll one die for 1 Influence when the dice are worth more on average after
        it than now by more than the Influence: then it beats every other choice."""
        if not pend or "dice" not in pend:
            return -2
        dice = list(pend["dice"])
        if dice[0] == dice[1] == "blank" and not pend.get("free_reroll_used"):
            return -2  # the free re-roll comes first
        now = self.dice_value(dice)
        faces = self.c.dice[die]
        after = 0.0
        for f in faces:
            d = dice[:]
            d[die] = f
            after += self.dice_value(d)
        gain = after / len(faces) - now
        return 200 + gain if gain > INFLUENCE_VALUE else -2

    def replace_value(self, view: dict[str, Any], me: dict[str, Any], eid: str, tier: str) -> float:
        """Replace (1 Influence) an Expedition the crew cannot complete: from round 3, when
        the crew owned covers under half of it, once a round; the new card's tier follows
        the rounds left."""
        if (view["round"], me["seat"]) in self.replaced or view["round"] < 3:
            return -3
        ctx = self.context(view, me)
        x = self.exps[eid]
        feas = self.feasibility(me, ctx, x)
        if feas >= 0.5:
            return -3
        left = view["rounds"] - view["round"]
        want = "bronze" if left <= 2 else "silver"
        return 40 + (1 - feas) * 10 + (2 if tier == want else 0)

    def build_gap(self, view: dict[str, Any], me: dict[str, Any]) -> tuple[int, int] | None:
        """RM and Crystals missing for an Embassy where the ship is (None: none possible
        there, or nothing missing)."""
        ctx = self.context(view, me)
        tile = ctx["tiles"].get(me["ship"])
        if tile not in self.locs:
            return None
        price = self.build_price(view, me, tile, me["ship"])
        if price is None:
            return None
        gap = (max(0, price[0] - me["rm"]), max(0, price[1] - me["crystal"]))
        return gap if any(gap) else None

    def exchange_helps(self, view: dict[str, Any], me: dict[str, Any]) -> bool:
        """The 2:1 exchange pays when converting spare resources closes the gap to an
        Embassy here."""
        gap = self.build_gap(view, me)
        if gap is None:
            return False
        ctx = self.context(view, me)
        tile = ctx["tiles"][me["ship"]]
        price = self.build_price(view, me, tile, me["ship"])
        assert price is not None
        spare_rm = me["rm"] - price[0]
        spare_cr = me["crystal"] - price[1]
        if gap[0] and not gap[1]:
            return spare_cr >= 2 * gap[0]
        if gap[1] and not gap[0]:
            return spare_rm >= 2 * gap[1]
        return False

    def convert_value(self, view: dict[str, Any], me: dict[str, Any], give: str, get: str) -> float:
        gap = self.build_gap(view, me)
        if gap is None:
            return -3
        if (get == "rm" and gap[0]) or (get == "crystal" and gap[1]):
            return 59
        return -3

    def reprogram_value(
        self, view: dict[str, Any], me: dict[str, Any], cid: str, skill: str
    ) -> float:
        """Reprogram a Robot (2 Crystals) when its new skill completes an Expedition the
        hand cannot complete now."""
        ctx = self.context(view, me)
        here = self.here_type(view, me)
        best = -3.0
        for eid in ctx["held"]:
            x = self.exps[eid]
            r = x.requires
            if skill not in r.skills or self.meets(me, ctx, r, here):
                continue
            if self.meets(me, ctx, r, here, extra=skill):
                best = max(best, 70.0 + x.points)
        return best

    def card_value(self, view: dict[str, Any], pend: dict[str, Any], a: Action, seat: int) -> float:
        """Play a card only if it covers something the attempt still lacks."""
        bonus: list[str] = []
        if pend["kind"] == "exp":
            x = self.exps[pend["expedition"]]
            req = x.requires
            skills, levels, lsum = list(req.skills), list(req.levels), req.level_sum
            if x.bonus is not None:
                bonus = list(x.bonus.requires.skills)
        else:
            e = self.encs[pend["encounter"]]
            if e.chance is not None:
                return 3
            r = e.requires
            skills, levels, lsum = (
                (list(r.skills), list(r.levels), r.level_sum) if r else ([], [], 0)
            )
        played_skills: list[str] = []
        played_levels: list[int] = []
        for cid in pend["played"]:
            played_skills += self.crew[cid].skills
            played_levels.append(self.crew[cid].level)
        for uid in pend["upgrades"]:
            sk = self.upgs[uid].skill
            if sk:
                played_skills.append(sk)
        me = view["players"][seat]
        for cid, sk in me["reprogrammed"]:
            if cid in pend["played"]:
                played_skills.append(sk)
        for s in played_skills:
            if s in skills:
                skills.remove(s)
            elif s in bonus:
                bonus.remove(s)
        for lv in played_levels:
            if lv in levels:
                levels.remove(lv)
        lsum -= sum(played_levels)
        main_done = not skills and not levels and lsum <= 0
        if a.kind == "use":
            sk = self.upgs[str(a.args[0])].skill
            if main_done and sk in bonus:
                return 150  # before completing: the bonus reward too
            return 5 if sk in skills else -20
        cid = str(a.args[0])
        cr = self.crew[cid]
        icons = set(cr.skills) | {sk for c, sk in me["reprogrammed"] if c == cid}
        if main_done:
            return 150 - cr.level if icons & set(bonus) else -20
        gain = sum(1 for s in icons if s in skills) * 4
        gain += 3 if cr.level in levels else 0
        gain += min(cr.level, max(lsum, 0))
        return gain - 0.3 * cr.level if gain > 0 else -20


AGENTS = {"heuristic": HeuristicAgent}
