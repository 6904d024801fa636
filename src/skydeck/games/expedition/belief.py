"""Rebuild one full state from a seat's view (the inverse of ``view``), for search agents.

Everything public is copied; the hidden parts are drawn at random but consistently:
other hands are exactly the crew a seat owns minus its public piles (recruiting is
public), other Secret Expeditions and draft cards come from the Expeditions this seat
cannot see (respecting the tiers shown), and every deck and the tile stack are shuffled
from what is left. ``from_view(...).view(seat) == view`` and the seat's legal actions are
unchanged (tested).
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Game, Rng
from skydeck.games.expedition import effects
from skydeck.games.expedition.content import SKILLS, TIERS, Content
from skydeck.games.expedition.data_state import tuplify
from skydeck.games.expedition.state import ExpeditionState


def from_view(game: Game, view: dict[str, Any], seat: int | None, rng: Rng) -> ExpeditionState:
    content: Content = game.content  # type: ignore[attr-defined]
    n = game.players
    st = ExpeditionState(game, content, Rng(rng.next64()))
    ci, li, xi, ui, ei = (
        content.crew_index,
        content.location_index,
        content.expedition_index,
        content.upgrade_index,
        content.encounter_index,
    )
    factions = [d.faction for d in content.dashboards]
    players = view["players"]
    eng = view["engine"]
    st.factions = [factions.index(p["faction"]) for p in players]
    st.phase, st.round, st.first = view["phase"], view["round"], view["first"]
    st.acted, st.step, st.draft_pick = eng["acted"], eng["step"], eng["draft_pick"]
    st.picked, st.enc_known = list(eng["picked"]), eng["enc_known"]
    st.pending = [tuplify(f) for f in eng["stack"]]
    st.dmg_supply = view["decks"]["damage"]
    st.reveals = 0
    # the map
    st.board = [-1] * st.grid.size
    for tile in view["map"]["tiles"]:
        st.board[tile["cell"]] = _tile_id(st, tile["tile"])
    st.owner = [-1] * len(content.locations)
    for name, o in view["map"]["owners"].items():
        st.owner[li[name]] = o
    # the players' public boards
    st.ship = [p["ship"] for p in players]
    st.rm = [p["rm"] for p in players]
    st.cr = [p["crystal"] for p in players]
    st.inf = [p["influence"] for p in players]
    st.emb_left = [p["embassies_left"] for p in players]
    st.dmg = [p["damage"] for p in players]
    dmg_ids = st.t.dmg_ids
    st.dmg_cards = [[dmg_ids.index(d) for d in p.get("damage_cards", [])] for p in players]
    st.base_moves = [p.get("round_move", 0) for p in players]
    st.moves = [0] * len(players)
    st.moves = [p["moves"] - st.movement(s) for s, p in enumerate(players)]
    st.worm = [int(p["wormhole_ready"]) for p in players]
    st.disc_used = [int(p["discount_used"]) for p in players]
    st.build_bonus = [p["build_discount"] for p in players]
    st.trades = [p["trades"] for p in players]
    st.exchange = [int(p["exchange"]) for p in players]
    st.rerolled = [int(p["rerolled"]) for p in players]
    st.bonus_pts = [p["bonus_points"] for p in players]
    st.emb = [[0] * len(content.locations) for _ in range(n)]
    for s, p in enumerate(players):
        for name, c in p["embassies"].items():
            st.emb[s][li[name]] = c
    st.transit = [[ci[c] for c in p["transit"]] for p in players]
    st.sickbay = [[ci[c] for c in p["sickbay"]] for p in players]
    st.solo = [[ci[c] for c in p["solo"]] for p in players]
    st.loc_cards = [[li[x] for x in p["location_cards"]] for p in players]
    st.slots = [[-1 if u is None else ui[u] for u in p["slots"]] for p in players]
    st.used_upg = [[ui[u] for u in p["used_upgrades"]] for p in players]
    st.reprog = [
        [v for c, sk in p["reprogrammed"] for v in (ci[c], SKILLS.index(sk))] for p in players
    ]
    st.tokens = [[li[x] for x in p["collection_tokens"]] for p in players]
    st.collected = [[li[x] for x in p["collected"]] for p in players]
    st.exps = [[xi[x] for x in p["expeditions"]] for p in players]
    st.done = [[xi[x] for x in p["completed"]] for p in players]
    st.filled = [[li[x] for x in p.get("filled_this_round", [])] for p in players]
    st.ready = [list(p.get("specials_ready", [])) for p in players]
    # hands: every owned crew member not in a public pile
    st.hand = []
    for s, p in enumerate(players):
        if "hand" in p:
            st.hand.append([ci[c] for c in p["hand"]])
            continue
        owned = [ci[content.dashboards[st.factions[s]].captain]]
        for loc, count in enumerate(st.emb[s]):
            if st.owner[loc] == s:
                owned += [ci[x] for x in content.locations[loc].crew[:count]]
        if "crew_owned" in p:
            owned = [ci[c] for c in p["crew_owned"]]
        public = set(st.transit[s]) | set(st.sickbay[s]) | set(st.solo[s])
        hand = [c for c in owned if c not in public]
        rng.shuffle(hand)
        st.hand.append(hand)
    _modules(st, view, rng)
    _expeditions(st, view, seat, rng)
    # Encounters: known bottom, then the unseen ones in random order
    st.enc_discard = [ei[e] for e in view["decks"]["encounter_discard"]]
    bottom = [ei[e] for e in view["decks"]["encounter_bottom"]]
    in_play = {f["e"] for f in st.pending if f["k"] in ("enc", "enc_reward")}
    in_play.update(c for f in st.pending if f["k"] == "enc_pick" for c in f["cards"])
    known = set(st.enc_discard) | set(bottom) | in_play
    out = st.t.enc_no_solo if st.is_solo else ()
    rest = [e for e in range(len(content.encounters)) if e not in known and not (out and out[e])]
    rng.shuffle(rest)
    st.enc_deck = bottom + rest
    # Upgrades: store, slots and discard are public; the deck is the rest
    st.store = [-1 if u is None else ui[u] for u in view["store"]]
    st.upg_discard = [ui[u] for u in view["decks"]["upgrade_discard"]]
    seen_u = set(st.store) | set(st.upg_discard) | {u for sl in st.slots for u in sl}
    seen_u |= set(st.upg_out)
    if st.is_solo:
        seen_u |= {u for u in range(len(content.upgrades)) if st.t.upg_no_solo[u]}
    st.upg_deck = [u for u in range(len(content.upgrades)) if u not in seen_u]
    rng.shuffle(st.upg_deck)
    # the tile stack: every tile not on the map, not drawn, and not an absent Starting tile
    drawn = {x for f in st.pending if f["k"] == "place" for x in f["tiles"]}
    on_map = set(st.board)
    st.stack = [
        i
        for i in range(st.gate_tile)
        if i not in on_map
        and i not in drawn
        and not (i < len(content.locations) and content.locations[i].level == 0)
    ]
    rng.shuffle(st.stack)
    return st


def _modules(st: ExpeditionState, view: dict[str, Any], rng: Rng) -> None:
    """Module and drone state: public in the view but for the deck orders."""
    content = st.content
    n = st.n
    st.powers = [[] for _ in range(n)]
    st.ev_pts = [[] for _ in range(n)]
    st.objs, st.obj_deck, st.gevents, st.ev_deck, st.art_deck, st.upg_out = [], [], [], [], [], []
    st.d_emb = [0] * len(content.locations)
    st.d_done, st.d_known, st.d_decks, st.d_used = [], [], [], []
    st.d_ship = st.d_left = st.d_pts = 0
    m = view.get("modules")
    mf = content.mod
    if m is None or mf is None:
        return
    t = st.t
    players = view["players"]
    st.powers = [[t.power_ids.index(p) for p in pl["powers"]] for pl in players]
    st.ev_pts = [list(pl["event_points"]) for pl in players]
    obj_ids = [o.id for o in mf.objectives.cards]
    st.objs = [obj_ids.index(x) for x in m["objectives"]]
    st.obj_deck = [i for i in range(len(obj_ids)) if i not in st.objs]
    rng.shuffle(st.obj_deck)
    st.obj_deck = st.obj_deck[: m["objective_deck"]]
    ev_ids = [e.id for e in mf.events.events]
    st.gevents = [ev_ids.index(x) for x in m["events"]]
    st.ev_deck = [i for i in range(len(ev_ids)) if i not in st.gevents]
    rng.shuffle(st.ev_deck)
    st.ev_deck = st.ev_deck[: m["event_deck"]]
    ui = content.upgrade_index
    st.art_deck = [ui[a] - len(content.upgrades) for a in m["artifacts"]]
    st.upg_out = [ui[u] for u in m["upgrades_removed"]]
    d = m.get("drone")
    if d is None:
        return
    li, xi = content.location_index, content.expedition_index
    st.d_ship, st.d_left, st.d_pts = d["ship"], d["embassies_left"], d["bonus_points"]
    for name, c in d["embassies"].items():
        st.d_emb[li[name]] = c
    st.d_done = [xi[x] for x in d["completed"]]
    for i, dk in enumerate(d["decks"]):
        ids = list(t.drone_card_ids[i])
        st.d_used.append([ids.index(x) for x in dk["used"]])
        st.d_known.append(int(dk["known"]))
        if dk["known"]:
            st.d_decks.append([ids.index(x) for x in dk["order"]])
            continue
        rest = [x for x in range(len(ids)) if x not in st.d_used[i]]
        rng.shuffle(rest)
        rest = rest[: dk["count"]]
        if rest:
            cards = t.drone_cards[i]
            want = tuplify(dk["next"])
            k = next(k for k, x in enumerate(rest) if tuplify(dict(cards[x][0])) == want)
            rest[k], rest[-1] = rest[-1], rest[k]
        st.d_decks.append(rest)


def _tile_id(st: ExpeditionState, name: str) -> int:
    return st.gate_tile if name == "space_gate" else effects.tile_by_name(st, name)


def _expeditions(st: ExpeditionState, view: dict[str, Any], seat: int | None, rng: Rng) -> None:
    """Secret Expeditions, draft cards and the three decks from the unseen cards."""
    content = st.content
    xi = content.expedition_index
    tier_of = st.t.exp_tier
    n = st.n
    players = view["players"]
    st.exp_discard = [xi[x] for x in view["decks"]["expedition_discard"]]
    st.secret = [[xi[x] for x in p.get("secret", [])] for p in players]
    draft = view.get("draft") or {}
    st.packs = [[] for _ in range(n)]
    st.kept = [[] for _ in range(n)]
    st.seen = [[] for _ in range(n)]
    if seat is not None and "pack" in draft:
        st.packs[seat] = [xi[x] for x in draft["pack"]]
        st.kept[seat] = [xi[x] for x in draft["kept"]]
        st.seen[seat] = sorted(st.packs[seat])
    visible: set[int] = set(st.exp_discard) | set(st.d_done)
    for s in range(n):
        for pile in (st.exps, st.done, st.secret, st.packs, st.kept):
            visible.update(pile[s])
    visible.update(f["x"] for f in st.pending if f["k"] == "exp")
    pool: list[list[int]] = [[], [], []]
    for x in range(len(content.expeditions)):
        if x not in visible:
            pool[tier_of[x]].append(x)
    for p in pool:
        rng.shuffle(p)
    # a Secret Expedition being attempted is visible: it stays with its owner
    for f in st.pending:
        if f["k"] == "exp" and f["x"] not in st.exps[f["s"]] and f["x"] not in st.secret[f["s"]]:
            st.secret[f["s"]].append(f["x"])
    for s, p in enumerate(players):
        if "secret" in p:
            continue
        need = [TIERS.index(tr) for tr in p["secret_tiers"]]
        have = [tier_of[x] for x in st.secret[s]]
        for tr in have:
            need.remove(tr)
        st.secret[s] += [pool[tr].pop() for tr in need]
    deck_sizes = [view["decks"]["expeditions"][tr] for tr in TIERS]
    st.exp_decks = [[pool[i].pop() for _ in range(deck_sizes[i])] for i in range(3)]
    leftover = [x for p in pool for x in p]  # cards in other players' draft hands
    if draft:
        rng.shuffle(leftover)
        for s in range(n):
            if s == seat:
                continue
            want = draft["kept_counts"][s]
            kept: list[int] = []
            for x in list(leftover):
                if len(kept) < want and tier_of[x] not in {tier_of[k] for k in kept}:
                    kept.append(x)
                    leftover.remove(x)
            while len(kept) < want and leftover:  # no distinct tier left: any card
                kept.append(leftover.pop())
            st.kept[s] = kept
        for s in range(n):
            if s == seat:
                continue
            size = draft["pack_sizes"][s]
            st.packs[s] = [leftover.pop() for _ in range(size)]
