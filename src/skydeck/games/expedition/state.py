"""ExpeditionState: the engine contract over the plain data and the rule functions, plus
views and resampling.

What is hidden (see VIEW.md and RULINGS.md): the order of every deck and of the tile
stack, the crew cards in other players' hands (only their number is shown), other
players' Secret Expeditions (only their difficulty), and during the draft the packs and
picks of the other players.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, Game, IllegalAction, Rng, State, player_name
from skydeck.games.expedition import command, drone, flow, modules
from skydeck.games.expedition.content import SKILLS, TIERS, Content
from skydeck.games.expedition.data_state import (
    StateData,
    copy_fields,
    fields_from_json,
    fields_json,
    jsonable,
    new_data,
)


class ExpeditionState(StateData, State):
    """The engine contract over the plain data (``StateData``); the rules are the
    functions of effects, modules, drone, sensor, flow and command."""

    #: moves applied to this object (neither saved nor cloned): while it stands still the
    #: position stands still, so the RL environment need not re-validate an action from
    #: the legal list it just handed out (``skydeck.games.expedition.encode.moves``)
    applied = 0

    def __init__(self, game: Game, content: Content, rng: Rng) -> None:
        self.game = game
        new_data(self, content, game.players, rng)
        rank = game.options.get("solo_rank")
        self.is_solo = rank is not None
        self.rank = rank or ""
        self.turns = game.players + (1 if self.is_solo else 0)
        self.drone_faction = getattr(game, "drone_faction_index", -1)

    # --- turn structure ------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == "over":
            return ()
        if self.pending:
            return (self.pending[-1]["s"],)
        if self.phase == "draft":
            return tuple(s for s in range(self.n) if not self.picked[s])
        if self.phase == "powers":
            return (self.acted,)
        if self.phase == "start":
            return (flow.to_place(self),)
        return (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            return []
        return command.actions_for(self, seat)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.applied += 1
        return command.dispatch(self, seat, action)

    # --- outcome ----------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        return [float(modules.points(self, s)) for s in range(self.n)]

    def tiebreak(self, seat: int) -> tuple[int, int, int]:
        return modules.points(self, seat), self.crew_levels(seat), len(self.loc_cards[seat])

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != "over":
            return ()
        if self.is_solo:  # the drone has no crew and no Location cards: ties go to the player
            return (0,) if modules.points(self, 0) >= drone.drone_points(self) else ()
        best = max(self.tiebreak(s) for s in range(self.n))
        return tuple(s for s in range(self.n) if self.tiebreak(s) == best)

    # --- information ------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        t = self.t
        g = self.grid
        ids_c, ids_u, ids_x = t.crew_ids, t.upg_ids, t.exp_ids
        players = []
        for s in range(self.n):
            me = seat == s
            p: dict[str, Any] = {
                "seat": s,
                "faction": self.content.dashboards[self.factions[s]].faction,
                "rm": self.rm[s],
                "crystal": self.cr[s],
                "influence": self.inf[s],
                "ship": self.ship[s],
                "embassies_left": self.emb_left[s],
                "embassies": {t.loc_ids[i]: c for i, c in enumerate(self.emb[s]) if c},
                "hand_count": len(self.hand[s]),
                "transit": [ids_c[c] for c in self.transit[s]],
                "sickbay": [ids_c[c] for c in self.sickbay[s]],
                "solo": [ids_c[c] for c in self.solo[s]],
                "location_cards": [t.loc_ids[x] for x in self.loc_cards[s]],
                "slots": [ids_u[u] if u >= 0 else None for u in self.slots[s]],
                "damage": self.dmg[s],
                "damage_cards": [t.dmg_ids[d] for d in self.dmg_cards[s]],
                "used_upgrades": [ids_u[u] for u in self.used_upg[s]],
                "reprogrammed": [
                    [ids_c[self.reprog[s][i]], SKILLS[self.reprog[s][i + 1]]]
                    for i in range(0, len(self.reprog[s]), 2)
                ],
                "collection_tokens": [t.loc_ids[x] for x in self.tokens[s]],
                "collected": [t.loc_ids[x] for x in self.collected[s]],
                "filled_this_round": [t.loc_ids[x] for x in self.filled[s]],
                "specials_ready": list(self.ready[s]),
                "wormhole_ready": bool(self.worm[s]),
                "moves": self.movement(s),
                "round_move": self.base_moves[s] if self.base_moves else 0,
                "discount_used": bool(self.disc_used[s]),
                "build_discount": self.build_bonus[s],
                "trades": self.trades[s],
                "exchange": bool(self.exchange[s]),
                "rerolled": bool(self.rerolled[s]),
                "expeditions": [ids_x[x] for x in self.exps[s]],
                "secret_tiers": [TIERS[t.exp_tier[x]] for x in self.secret[s]],
                "completed": [ids_x[x] for x in self.done[s]],
                "bonus_points": self.bonus_pts[s],
                "points": modules.points(self, s),
            }
            if me:
                p["hand"] = sorted(ids_c[c] for c in self.hand[s])
                p["secret"] = [ids_x[x] for x in self.secret[s]]
            if self.is_solo:  # recruiting is public; a drone cube can stop it (ruling 67a)
                p["crew_owned"] = sorted(
                    ids_c[c]
                    for pile in (self.hand, self.transit, self.sickbay, self.solo)
                    for c in pile[s]
                )
            if self.content.mod is not None:
                p["powers"] = [t.power_ids[x] for x in self.powers[s]]
                p["event_points"] = list(self.ev_pts[s])
                if self.phase == "over" and self.objs:
                    p["objective_points"] = modules.objective_points(self, s)
            players.append(p)
        v: dict[str, Any] = {
            "game": "expedition",
            "round": self.round,
            "rounds": self.content.rules.rounds,
            "phase": self.phase,
            "first": self.first,
            "turn": self.turn if self.phase in ("discovery", "sensor", "command") else None,
            "to_move": list(self.to_move),
            "seat": seat,
            "map": {
                "radius": g.radius,
                "tiles": [
                    {"cell": c, "q": g.coords[c][0], "r": g.coords[c][1], "tile": self.tile_name(x)}
                    for c, x in enumerate(self.board)
                    if x >= 0
                ],
                "owners": {t.loc_ids[i]: o for i, o in enumerate(self.owner) if o >= 0},
            },
            "store": [ids_u[u] if u >= 0 else None for u in self.store],
            "decks": {
                "locations": len(self.stack),
                "encounters": len(self.enc_deck),
                "encounter_bottom": [t.enc_ids[e] for e in self.enc_deck[: self.enc_known]],
                "encounter_discard": [t.enc_ids[e] for e in self.enc_discard],
                "upgrades": len(self.upg_deck),
                "upgrade_discard": [ids_u[u] for u in self.upg_discard],
                "expeditions": {TIERS[i]: len(d) for i, d in enumerate(self.exp_decks)},
                "expedition_discard": [ids_x[x] for x in self.exp_discard],
                "damage": self.dmg_supply,
            },
            "players": players,
            "pending": self.frame_view(self.pending[-1]) if self.pending else None,
            "engine": {
                "acted": self.acted,
                "step": self.step,
                "draft_pick": self.draft_pick,
                "picked": list(self.picked),
                "enc_known": self.enc_known,
                "stack": [jsonable(f) for f in self.pending],
            },
        }
        if self.content.mod is not None:
            v["modules"] = self.module_view()
        if self.phase in ("start", "draft", "powers"):  # packs are dealt at set-up
            v["draft"] = {
                "pick": self.draft_pick,
                "picked": [bool(x) for x in self.picked],
                "pack_sizes": [len(p) for p in self.packs],
                "kept_counts": [len(k) for k in self.kept],
            }
            if seat is not None:
                v["draft"]["pack"] = sorted(ids_x[x] for x in self.packs[seat])
                v["draft"]["kept"] = [ids_x[x] for x in self.kept[seat]]
        return v

    def frame_view(self, f: dict[str, Any]) -> dict[str, Any]:
        t = self.t
        out: dict[str, Any] = {"kind": f["k"], "seat": f["s"]}
        k = f["k"]
        if k == "sensor":
            out.update(dice=list(f["d"]), free_reroll_used=bool(f["fu"]))
        elif k in ("enc", "enc_reward"):
            out.update(encounter=t.enc_ids[f["e"]], alternative=f["alt"] or None)
            if k == "enc":
                out.update(
                    played=[t.crew_ids[c] for c in f["sel"]],
                    upgrades=[t.upg_ids[u] for u in f["su"]],
                )
        elif k == "enc_pick":
            out["encounters"] = [t.enc_ids[c] for c in f["cards"]]
        elif k == "exp":
            out.update(
                expedition=t.exp_ids[f["x"]],
                played=[t.crew_ids[c] for c in f["sel"]],
                upgrades=[t.upg_ids[u] for u in f["su"]],
            )
        elif k == "place":
            out.update(
                tiles=[self.tile_name(x) for x in f["tiles"]],
                anywhere=bool(f["any"]),
                near=f["near"],
            )
        elif k in ("target", "react"):
            out["harm"] = f["h"]
        elif k == "window":
            out.update(during=f["w"], of=f["of"])
        elif k == "choose":
            out["options"] = [[dict(e) for e in opt] for opt in f["opts"]]
            out["options"] = jsonable(out["options"])
        elif k in ("tokens", "new_exp"):
            out["left"] = f["left"]
        if f.get("dr"):
            out["for_drone"] = True
        return out

    def module_view(self) -> dict[str, Any]:
        """Module and drone state: everything here is public but the deck orders."""
        mf = self.content.mod
        t = self.t
        out: dict[str, Any] = {
            "active": sorted(self.content.modules),
            "nothing_bad_happens": self.content.nothing_bad,
            "objectives": [mf.objectives.cards[x].id for x in self.objs],
            "objective_deck": len(self.obj_deck),
            "events": [mf.events.events[x].id for x in self.gevents],
            "event_deck": len(self.ev_deck),
            "artifacts": [t.upg_ids[len(self.content.upgrades) + a] for a in self.art_deck],
            "upgrades_removed": [t.upg_ids[u] for u in self.upg_out],
        }
        if self.is_solo:
            decks = []
            for i, deck in enumerate(self.d_decks):
                ids = t.drone_card_ids[i]
                d: dict[str, Any] = {
                    "count": len(deck),
                    "used": [ids[x] for x in self.d_used[i]],
                    "known": bool(self.d_known[i]),
                    "next": jsonable(t.drone_cards[i][deck[-1]][0]) if deck else None,
                }
                if self.d_known[i]:
                    d["order"] = [ids[x] for x in deck]
                decks.append(d)
            out["drone"] = {
                "rank": self.rank,
                "faction": self.content.dashboards[self.drone_faction].faction,
                "ship": self.d_ship,
                "embassies_left": self.d_left,
                "embassies": {t.loc_ids[i]: c for i, c in enumerate(self.d_emb) if c},
                "completed": [t.exp_ids[x] for x in self.d_done],
                "bonus_points": self.d_pts,
                "points": drone.drone_points(self),
                "decks": decks,
                "current_deck": drone.current_deck(self),
            }
        return out

    def resample(self, seat: int | None, rng: Rng) -> ExpeditionState:
        s = self.clone()
        rng.shuffle(s.stack)
        k = s.enc_known
        top = s.enc_deck[k:]
        rng.shuffle(top)
        s.enc_deck[k:] = top
        rng.shuffle(s.upg_deck)
        seen = set(s.seen[seat]) if seat is not None else set()
        seen.update(f["x"] for f in s.pending if f["k"] == "exp")
        tier_of = s.t.exp_tier
        for tier in range(3):
            places: list[tuple[list[int], int]] = []
            places += [(s.exp_decks[tier], i) for i in range(len(s.exp_decks[tier]))]
            for o in range(s.n):
                if o == seat:
                    continue
                for pile in (s.secret[o], s.packs[o], s.kept[o]):
                    places += [
                        (pile, i)
                        for i, x in enumerate(pile)
                        if tier_of[x] == tier and x not in seen
                    ]
            cards = [pile[i] for pile, i in places]
            rng.shuffle(cards)
            for (pile, i), card in zip(places, cards):
                pile[i] = card
        rng.shuffle(s.obj_deck)
        rng.shuffle(s.ev_deck)
        for i, deck in enumerate(s.d_decks):
            if not s.d_known[i] and len(deck) > 1:
                reshuffle_keeping_front(s, i, rng)
        return s

    # --- copies and storage ----------------------------------------------------------------
    def clone(self) -> ExpeditionState:
        """The field table's copy (data_state.TABLE): constants shared, data copied;
        ``applied`` starts again at 0 (it counts moves applied to this object)."""
        s = ExpeditionState.__new__(ExpeditionState)
        s.game, s.rng = self.game, self.rng.copy()
        copy_fields(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        return {"rng": self.rng.to_json(), **fields_json(self)}

    @classmethod
    def from_json(cls, game: Game, content: Content, obj: dict[str, Any]) -> ExpeditionState:
        if not isinstance(obj, dict):
            raise ValueError("expedition: a state must be a JSON object")
        s = cls(game, content, Rng.from_json(obj.get("rng", {})))
        try:
            fields_from_json(s, obj)
        except (TypeError, KeyError) as exc:
            raise ValueError(f"expedition: malformed state: {exc}") from None
        if len(s.hand) != s.n:
            raise ValueError("expedition: state does not match the number of players")
        if not s.filled:  # saved before the third-Embassy rule: nothing filled this round
            s.filled = [[] for _ in range(s.n)]
        if not s.ready:  # ... before special actions waited for their moment
            s.ready = [[] for _ in range(s.n)]
        return s

    def validate(self, action: Action, seat: int) -> None:
        """Membership in the legal actions; in a free Command turn only the actions of
        the same kind are generated (the others cannot match)."""
        if (
            self.phase == "command"
            and not self.pending
            and isinstance(seat, int)
            and seat == self.turn
        ):
            legal = command.command_actions(self, seat, action.kind)
        else:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(f"'{action}' is not a legal action for {player_name(seat)} now")


def reshuffle_keeping_front(s: ExpeditionState, i: int, rng: Rng) -> None:
    """A drone deck in a new random order whose top card shows the same back (its first
    action), the one thing the player sees of the deck."""
    deck = s.d_decks[i]
    cards = s.t.drone_cards[i]
    front = cards[deck[-1]][0]
    rng.shuffle(deck)
    same = [k for k, x in enumerate(deck) if cards[x][0] == front]
    k = same[rng.below(len(same))]
    deck[k], deck[-1] = deck[-1], deck[k]
