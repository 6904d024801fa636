"""The solo game's drone: set-up, its Discovery and Command turns, its Action decks.

The drone is part of the rules, not a player: it has no seat, acts only through its
Movement card, the die and its Action cards, and the few choices its cards leave open
(where its discovered tiles go, how the player reacts to its attacks) are the player's
(seat 0) decisions. Its index in turn order and in ``owner`` is ``n`` (= 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Event
from skydeck.games.expedition import effects, modules
from skydeck.games.expedition.board import DIRECTIONS
from skydeck.games.expedition.content import TIERS

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


def setup_drone(st: ExpeditionState) -> None:
    """One Embassy cube on its Starting Location (the player places the tile and the
    ship stands there: flow.apply_start), the four Action decks shuffled,
    crossed-out Upgrades and Encounters removed."""
    n = st.n
    st.d_emb = [0] * len(st.content.locations)
    st.d_decks, st.d_used, st.d_known = [], [], []
    if not st.is_solo:
        return
    c = st.content
    start = c.location_index[c.dashboards[st.drone_faction].start]
    st.owner[start] = n
    st.d_emb[start] = 1
    st.d_left = c.rules.embassies - 1
    st.d_ship = -1
    st.d_pts = 0
    t = st.t
    for deck in t.drone_cards:
        order = list(range(len(deck)))
        st.rng.shuffle(order)
        st.d_decks.append(order)
        st.d_used.append([])
        st.d_known.append(0)
    st.enc_deck = [e for e in st.enc_deck if not t.enc_no_solo[e]]
    st.upg_deck = [u for u in st.upg_deck if not t.upg_no_solo[u]]
    for i, u in enumerate(st.store):
        if u >= 0 and t.upg_no_solo[u]:
            st.store[i] = -1
    st.refill_store()


def drone_points(st: ExpeditionState) -> int:
    exps = st.content.expeditions
    total = st.d_pts + sum(exps[x].points for x in st.d_done)
    total += sum(1 for c in st.d_emb if c >= 3)
    if st.phase == "over" and st.objs:
        total += sum(modules.objective_points(st, st.n))
    return total


def current_deck(st: ExpeditionState) -> int:
    return min(len(st.d_decks) - 1, (st.round - 1) // 2)


# --- turns ---------------------------------------------------------------------------
def drone_command(st: ExpeditionState) -> None:
    """The rank card: this round's moves, then this round's Action cards."""
    r = st.content.mod.drone.ranks[st.rank]
    ops: list[dict[str, Any]] = []
    moves = r.moves[st.round - 1]
    if moves:
        ops.append({"op": "d_move", "n": moves})
    ops += [{"op": "d_card"}] * r.actions[st.round - 1]
    st.pending.append({"k": "dfx", "s": 0, "fx": tuple(ops), "x": 0})


def drone_discovery(st: ExpeditionState, events: list[Event]) -> None:
    k = st.content.rules.discovery_tiles_two_players
    effects.open_placement(st, 0, k, False, False, events, near=st.d_ship, drone=True)


# --- the Action decks ----------------------------------------------------------------
def draw_drone_card(st: ExpeditionState, deck: int) -> int:
    """Top card; an empty deck is its used pile turned over, not shuffled (so its
    order is then known to all)."""
    if not st.d_decks[deck]:
        st.d_decks[deck] = st.d_used[deck][::-1]
        st.d_used[deck] = []
        st.d_known[deck] = 1
    if not st.d_decks[deck]:
        return -1
    card = st.d_decks[deck].pop()
    st.d_used[deck].append(card)
    if not st.d_known[deck]:
        st.reveals += 1
    return card


def play_drone_card(st: ExpeditionState, deck: int, extra: bool, events: list[Event]) -> None:
    card = draw_drone_card(st, deck)
    if card < 0:
        return
    events.append(
        Event("drone_card", {"card": st.t.drone_card_ids[deck][card], "extra": extra})
    )
    st.pending.append(
        {"k": "dfx", "s": 0, "fx": st.t.drone_cards[deck][card], "x": int(extra)}
    )


def execute_drone(
    st: ExpeditionState, f: dict[str, Any], e: dict[str, Any], events: list[Event]
) -> None:
    op = e["op"]
    if op == "d_card":
        play_drone_card(st, current_deck(st), False, events)
    elif op == "d_move":
        for _ in range(e["n"]):
            drone_move(st, events)
    elif op == "d_embassy":
        drone_embassy(st, events)
    elif op == "d_upgrade":
        roll = st.rng.randint(1, 6)
        u = st.store[roll - 1] if roll <= len(st.store) else -1
        if u >= 0:
            st.store[roll - 1] = -1
            st.upg_out.append(u)
            st.refill_store()
        events.append(
            Event(
                "drone_upgrade",
                {"roll": roll, "upgrade": st.t.upg_ids[u] if u >= 0 else None},
            )
        )
    elif op == "d_expedition":
        card = st.draw_expedition(TIERS.index(e["tier"]))
        if card >= 0:
            st.d_done.append(card)
            events.append(Event("drone_expedition", {"expedition": st.t.exp_ids[card]}))
    elif op == "d_points":
        st.d_pts += e["n"]
    elif op == "d_discover":
        effects.open_placement(st, 0, e["n"], False, False, events, near=st.d_ship, drone=True)
    elif op == "d_extra":
        if f["x"]:
            return  # an extra card's own extra action does not chain
        cur = current_deck(st)
        deck = cur if e["deck"] == "current" else max(0, cur - 1)
        if not st.d_decks[deck]:
            st.d_decks[deck] = st.d_used[deck][::-1]
            st.d_used[deck] = []
        st.rng.shuffle(st.d_decks[deck])
        st.d_known[deck] = 0
        play_drone_card(st, deck, True, events)
    elif op == "d_attack":
        effects.harm(st, 0, e["harm"], 0, -1, events)
    elif op == "d_drain":
        st.lose(0, e["rm"], e["crystal"], e["influence"])
        events.append(Event("drone_drain", {"rm": e["rm"], "crystal": e["crystal"]}))


def drone_move(st: ExpeditionState, events: list[Event]) -> None:
    """Die roll on the Movement card; a direction without a tile to enter turns
    clockwise to the next one (RULINGS.md); no way out: it stays."""
    roll = st.rng.randint(1, 6)
    d0 = st.content.mod.drone.movement[roll - 1]
    g = st.grid
    q, r = g.coords[st.d_ship]
    for k in range(6):
        dq, dr = DIRECTIONS[(d0 + k) % 6]
        cell = g.index.get((q + dq, r + dr))
        if cell is not None and st.passable(cell):
            st.d_ship = cell
            events.append(Event("drone_moved", {"roll": roll, "cell": cell}))
            return
    events.append(Event("drone_moved", {"roll": roll, "cell": st.d_ship}))


def drone_embassy(st: ExpeditionState, events: list[Event]) -> None:
    """A free Embassy cube on the drone's Location, by the normal placement rules."""
    here = st.location_at(st.d_ship)
    if here < 0 or st.d_left <= 0:
        return
    loc = st.content.locations[here]
    own = st.owner[here]
    mine = st.d_emb[here]
    kind = loc.kind
    if loc.level == 0 and own != st.n:
        return  # the player's Starting Location
    if kind == "legendary" and (own >= 0 or mine):
        return
    if own < 0:
        if any(st.ship[s] == st.d_ship for s in range(st.n)):
            return  # blocked by the player's ship
        st.owner[here] = st.n
    elif own == st.n:
        if mine >= 3 or (kind != "recruit" and mine >= 1):
            return
    elif mine >= 1:
        return
    st.d_emb[here] = mine + 1
    st.d_left -= 1
    events.append(Event("drone_embassy", {"location": loc.id, "count": mine + 1}))
