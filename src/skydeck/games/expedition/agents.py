"""A greedy Stellar Expedition player: builds Embassies for crew and income, completes
the Expeditions it can, and plays only the crew an attempt still needs.

It reads the seat's view and the game's content (public data), never the state.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng
from skydeck.games.expedition.content import Content, default_content

FACE_ORDER = {"special1": 5, "special2": 5, "upgrade": 4, "crystal": 3, "rm2": 2}


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

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        best, best_score = legal_actions[0], float("-inf")
        for a in legal_actions:
            s = self.score(view, a, seat) + self.rng.random() * 0.01
            if s > best_score:
                best, best_score = a, s
        pend = view.get("pending")
        if best.kind == "cancel" and pend and pend["kind"] == "exp":
            self.cancelled.add((view["round"], pend["expedition"]))
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
            return self.move_value(view, me, a)
        if k == "wormhole":
            return 2
        if k == "buy":
            return self.buy_value(me, a)
        if k == "repair":
            return 6 if me["rm"] >= 6 else -1
        if k == "reroll":
            return -2
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
        cell = int(a.args[0])  # type: ignore[arg-type]
        tile = next((t["tile"] for t in view["map"]["tiles"] if t["cell"] == cell), None)
        v = -2.0 if a.kind == "warp" else 0.5
        if a.kind == "warp" and me["rm"] + 2 * me["crystal"] < 8:
            return -10
        if tile in me["collection_tokens"]:
            v += 6
        if tile in self.locs:
            loc = self.locs[tile]
            owner = view["map"]["owners"].get(tile)
            first = loc.cost[0]
            if owner is None and loc.level > 0 and me["rm"] + 3 >= first.rm:
                v += 4 + loc.level * 0.3
            elif owner == me["seat"] and me["embassies"].get(tile, 0) < 3:
                v += 3
            need = {self.exps[e].requires.location for e in me["expeditions"]}
            if loc.type in need:
                v += 3
        return v

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
        cr = self.crew[str(a.args[0])]
        if main_done:
            return 150 - cr.level if set(cr.skills) & set(bonus) else -20
        gain = sum(1 for s in set(cr.skills) if s in skills) * 4
        gain += 3 if cr.level in levels else 0
        gain += min(cr.level, max(lsum, 0))
        return gain - 0.3 * cr.level if gain > 0 else -20


AGENTS = {"heuristic": HeuristicAgent}
