"""Stellar Expedition's views and resampling: what a seat may see of the state, and a
copy with what it may not drawn again.

What is hidden (see VIEW.md and RULINGS.md): the order of every deck and of the tile
stack, the crew cards in other players' hands (only their number is shown), other
players' Secret Expeditions (only their difficulty), and during the draft the packs and
picks of the other players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Rng
from skydeck.games.expedition import drone, modules
from skydeck.games.expedition.content import SKILLS, TIERS
from skydeck.games.expedition.data_state import jsonable

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def build_view(st: ExpeditionState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see; VIEW.md says what is hidden."""
    t = st.t
    g = st.grid
    ids_c, ids_u, ids_x = t.crew_ids, t.upg_ids, t.exp_ids
    players = []
    for s in range(st.n):
        me = seat == s
        p: dict[str, Any] = {
            "seat": s,
            "faction": st.content.dashboards[st.factions[s]].faction,
            "rm": st.rm[s],
            "crystal": st.cr[s],
            "influence": st.inf[s],
            "ship": st.ship[s],
            "embassies_left": st.emb_left[s],
            "embassies": {t.loc_ids[i]: c for i, c in enumerate(st.emb[s]) if c},
            "hand_count": len(st.hand[s]),
            "transit": [ids_c[c] for c in st.transit[s]],
            "sickbay": [ids_c[c] for c in st.sickbay[s]],
            "solo": [ids_c[c] for c in st.solo[s]],
            "location_cards": [t.loc_ids[x] for x in st.loc_cards[s]],
            "slots": [ids_u[u] if u >= 0 else None for u in st.slots[s]],
            "damage": st.dmg[s],
            "damage_cards": [t.dmg_ids[d] for d in st.dmg_cards[s]],
            "used_upgrades": [ids_u[u] for u in st.used_upg[s]],
            "reprogrammed": [
                [ids_c[st.reprog[s][i]], SKILLS[st.reprog[s][i + 1]]]
                for i in range(0, len(st.reprog[s]), 2)
            ],
            "collection_tokens": [t.loc_ids[x] for x in st.tokens[s]],
            "collected": [t.loc_ids[x] for x in st.collected[s]],
            "filled_this_round": [t.loc_ids[x] for x in st.filled[s]],
            "specials_ready": list(st.ready[s]),
            "wormhole_ready": bool(st.worm[s]),
            "moves": st.movement(s),
            "round_move": st.base_moves[s] if st.base_moves else 0,
            "discount_used": bool(st.disc_used[s]),
            "build_discount": st.build_bonus[s],
            "trades": st.trades[s],
            "exchange": bool(st.exchange[s]),
            "rerolled": bool(st.rerolled[s]),
            "expeditions": [ids_x[x] for x in st.exps[s]],
            "secret_tiers": [TIERS[t.exp_tier[x]] for x in st.secret[s]],
            "completed": [ids_x[x] for x in st.done[s]],
            "bonus_points": st.bonus_pts[s],
            "points": modules.points(st, s),
        }
        if me:
            p["hand"] = sorted(ids_c[c] for c in st.hand[s])
            p["secret"] = [ids_x[x] for x in st.secret[s]]
        if st.is_solo:  # recruiting is public; a drone cube can stop it (ruling 67a)
            p["crew_owned"] = sorted(
                ids_c[c] for pile in (st.hand, st.transit, st.sickbay, st.solo) for c in pile[s]
            )
        if st.content.mod is not None:
            p["powers"] = [t.power_ids[x] for x in st.powers[s]]
            p["event_points"] = list(st.ev_pts[s])
            if st.phase == "over" and st.objs:
                p["objective_points"] = modules.objective_points(st, s)
        players.append(p)
    v: dict[str, Any] = {
        "game": "expedition",
        "round": st.round,
        "rounds": st.content.rules.rounds,
        "phase": st.phase,
        "first": st.first,
        "turn": st.turn if st.phase in ("discovery", "sensor", "command") else None,
        "to_move": list(st.to_move),
        "seat": seat,
        "map": {
            "radius": g.radius,
            "tiles": [
                {"cell": c, "q": g.coords[c][0], "r": g.coords[c][1], "tile": st.tile_name(x)}
                for c, x in enumerate(st.board)
                if x >= 0
            ],
            "owners": {t.loc_ids[i]: o for i, o in enumerate(st.owner) if o >= 0},
        },
        "store": [ids_u[u] if u >= 0 else None for u in st.store],
        "decks": {
            "locations": len(st.stack),
            "encounters": len(st.enc_deck),
            "encounter_bottom": [t.enc_ids[e] for e in st.enc_deck[: st.enc_known]],
            "encounter_discard": [t.enc_ids[e] for e in st.enc_discard],
            "upgrades": len(st.upg_deck),
            "upgrade_discard": [ids_u[u] for u in st.upg_discard],
            "expeditions": {TIERS[i]: len(d) for i, d in enumerate(st.exp_decks)},
            "expedition_discard": [ids_x[x] for x in st.exp_discard],
            "damage": st.dmg_supply,
        },
        "players": players,
        "pending": frame_view(st, st.pending[-1]) if st.pending else None,
        "engine": {
            "acted": st.acted,
            "step": st.step,
            "draft_pick": st.draft_pick,
            "picked": list(st.picked),
            "enc_known": st.enc_known,
            "stack": [jsonable(f) for f in st.pending],
        },
    }
    if st.content.mod is not None:
        v["modules"] = module_view(st)
    if st.phase in ("start", "draft", "powers"):  # packs are dealt at set-up
        v["draft"] = {
            "pick": st.draft_pick,
            "picked": [bool(x) for x in st.picked],
            "pack_sizes": [len(p) for p in st.packs],
            "kept_counts": [len(k) for k in st.kept],
        }
        if seat is not None:
            v["draft"]["pack"] = sorted(ids_x[x] for x in st.packs[seat])
            v["draft"]["kept"] = [ids_x[x] for x in st.kept[seat]]
    return v


def frame_view(st: ExpeditionState, f: dict[str, Any]) -> dict[str, Any]:
    """A pending frame as its seat's choice reads it (content ids, not indexes)."""
    t = st.t
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
            tiles=[st.tile_name(x) for x in f["tiles"]],
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


def module_view(st: ExpeditionState) -> dict[str, Any]:
    """Module and drone state: everything here is public but the deck orders."""
    mf = st.content.mod
    t = st.t
    out: dict[str, Any] = {
        "active": sorted(st.content.modules),
        "nothing_bad_happens": st.content.nothing_bad,
        "objectives": [mf.objectives.cards[x].id for x in st.objs],
        "objective_deck": len(st.obj_deck),
        "events": [mf.events.events[x].id for x in st.gevents],
        "event_deck": len(st.ev_deck),
        "artifacts": [t.upg_ids[len(st.content.upgrades) + a] for a in st.art_deck],
        "upgrades_removed": [t.upg_ids[u] for u in st.upg_out],
    }
    if st.is_solo:
        decks = []
        for i, deck in enumerate(st.d_decks):
            ids = t.drone_card_ids[i]
            d: dict[str, Any] = {
                "count": len(deck),
                "used": [ids[x] for x in st.d_used[i]],
                "known": bool(st.d_known[i]),
                "next": jsonable(t.drone_cards[i][deck[-1]][0]) if deck else None,
            }
            if st.d_known[i]:
                d["order"] = [ids[x] for x in deck]
            decks.append(d)
        out["drone"] = {
            "rank": st.rank,
            "faction": st.content.dashboards[st.drone_faction].faction,
            "ship": st.d_ship,
            "embassies_left": st.d_left,
            "embassies": {t.loc_ids[i]: c for i, c in enumerate(st.d_emb) if c},
            "completed": [t.exp_ids[x] for x in st.d_done],
            "bonus_points": st.d_pts,
            "points": drone.drone_points(st),
            "decks": decks,
            "current_deck": drone.current_deck(st),
        }
    return out


def resample(st: ExpeditionState, seat: int | None, rng: Rng) -> ExpeditionState:
    """A copy with everything ``seat`` cannot see drawn again from ``rng``."""
    s = st.clone()
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
                    (pile, i) for i, x in enumerate(pile) if tier_of[x] == tier and x not in seen
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
