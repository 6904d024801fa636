"""Set-up, the Expedition draft and the round structure: Production, Discovery, Sensor,
Command (the actions themselves are in command.py) and the end of a round.

``settle()`` runs after every action: it resolves automatic frames and moves the phase
machine on until some seat has a decision to make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event
from skydeck.games.expedition import drone, effects, modules, pending, sensor
from skydeck.games.expedition.actions import act, each
from skydeck.games.expedition.content import TIERS

if TYPE_CHECKING:
    from skydeck.games.expedition.state import ExpeditionState


# --- set-up ------------------------------------------------------------------------------
def setup(st: ExpeditionState, factions: list[int]) -> None:
    c = st.content
    r = c.rules
    n = st.n
    g = st.grid
    st.factions = list(factions)
    st.board = [-1] * g.size
    st.board[g.gate] = st.gate_tile
    st.owner = [-1] * len(c.locations)
    st.emb = [[0] * len(c.locations) for _ in range(n)]
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
        setattr(st, name, [[] for _ in range(n)])
    st.ship = [-1] * n  # until the Starting tile is placed (phase "start")
    for seat in range(n):
        start = st.start_of(seat)
        st.emb[seat][start] = 1
        st.owner[start] = seat
        st.loc_cards[seat].append(start)
        d = c.dashboards[st.factions[seat]]
        st.hand[seat] = [c.crew_index[d.captain], c.crew_index[c.locations[start].crew[0]]]
    st.rm = [r.start.rm] * n
    st.cr = [r.start.crystal] * n
    st.inf = [r.start_influence] * n
    st.emb_left = [r.embassies - 1] * n
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
        setattr(st, name, [0] * n)
    st.stack = [i for i, x in enumerate(c.locations) if x.level > 0]
    st.stack += [len(c.locations) + i for i in range(len(c.anomalies))]
    st.rng.shuffle(st.stack)
    st.exp_decks = [[i for i, x in enumerate(c.expeditions) if x.tier == t] for t in TIERS]
    for deck in st.exp_decks:
        st.rng.shuffle(deck)
    st.enc_deck = list(range(len(c.encounters)))
    st.rng.shuffle(st.enc_deck)
    st.upg_deck = list(range(len(c.upgrades)))
    st.rng.shuffle(st.upg_deck)
    st.store = [-1] * r.store_size
    st.refill_store()
    st.enc_discard, st.upg_discard, st.exp_discard = [], [], []
    st.dmg_supply = len(c.damage)
    st.round, st.first, st.acted, st.step = 1, 0, 0, 0
    st.phase = "draft"
    for seat in range(n):
        pack = [st.exp_decks[t].pop() for t in range(3) for _ in range(2)]
        st.packs[seat] = pack
        st.seen[seat] = sorted(pack)
    modules.setup_modules(st)
    drone.setup_drone(st)
    st.reveals = 0
    st.phase, st.acted = "start", 0


# --- Starting tiles ----------------------------------------------------------------------
def start_cells(st: ExpeditionState) -> list[int]:
    """Empty cells next to the Space gate, the usual layout's cell for this placement
    first (rules.start_directions: opposite sides with two players)."""
    g = st.grid
    free = [c for c in g.neighbours[g.gate] if st.board[c] < 0]
    dirs = st.content.rules.start_directions[str(max(st.n, 2))]
    if st.acted < len(dirs):
        usual = g.toward(dirs[st.acted])
        if usual in free:
            free.remove(usual)
            free.insert(0, usual)
    return free


def start_actions(st: ExpeditionState, seat: int) -> list[Action]:
    """One by one, in seat order, each player places their Starting tile next to the
    gate; in solo the player then places the drone's."""
    if seat != to_place(st):
        return []
    return [act("start", (c,)) for c in start_cells(st)]


def to_place(st: ExpeditionState) -> int:
    return st.acted if st.acted < st.n else 0


def apply_start(st: ExpeditionState, seat: int, a: Action, events: list[Event]) -> None:
    cell = int(a.args[0])  # type: ignore[arg-type]
    who = st.acted
    if who < st.n:
        tile = st.start_of(who)
        st.ship[who] = cell
    else:  # the drone's Starting tile, placed by the solo player
        tile = st.content.location_index[st.content.dashboards[st.drone_faction].start]
        st.d_ship = cell
    st.board[cell] = tile
    events.append(
        Event("start_tile", {"seat": who, "cell": cell, "tile": st.t.loc_ids[tile]})
    )
    st.acted += 1
    if st.acted >= st.turns:
        st.acted = 0
        st.phase = "powers" if modules.has(st, "player_powers") else "draft"


# --- the Expedition draft --------------------------------------------------------------
def draft_actions(st: ExpeditionState, seat: int) -> list[Action]:
    if st.picked[seat]:
        return []
    t = st.t
    have = {t.exp_tier[x] for x in st.kept[seat]}
    acts = [
        act("draft", (t.exp_ids[x],))
        for x in sorted(st.packs[seat])
        if t.exp_tier[x] not in have
    ]
    return acts or [act("draft_pass")]


def apply_draft(st: ExpeditionState, seat: int, a: Action, events: list[Event]) -> None:
    if a.kind == "draft":
        x = st.content.expedition_index[str(a.args[0])]
        st.packs[seat].remove(x)
        st.kept[seat].append(x)
    st.picked[seat] = 1
    events.append(Event("drafted", {"seat": seat}))
    if not all(st.picked):
        return
    st.draft_pick += 1
    st.picked = [0] * st.n
    if st.draft_pick < 3:
        st.packs = [st.packs[(s - 1) % st.n] for s in range(st.n)]
        for s in range(st.n):
            st.seen[s] = sorted(set(st.seen[s]) | set(st.packs[s]))
        return
    finish_draft(st, events)


def finish_draft(st: ExpeditionState, events: list[Event]) -> None:
    t = st.t
    for s in range(st.n):
        for x in st.packs[s]:
            st.exp_decks[t.exp_tier[x]].append(x)
        st.packs[s] = []
    for deck in st.exp_decks:
        st.rng.shuffle(deck)
    for s in range(st.n):
        have = {t.exp_tier[x] for x in st.kept[s]}
        for tier in range(3):
            if tier not in have:
                card = st.draw_expedition(tier)
                if card >= 0:
                    st.kept[s].append(card)
        st.exps[s] = sorted(st.kept[s], key=lambda x: t.exp_tier[x])
        st.kept[s] = []
        st.seen[s] = []
    events.append(
        Event("draft_done", {"expeditions": [[t.exp_ids[x] for x in e] for e in st.exps]})
    )
    start_round(st, events)


# --- rounds --------------------------------------------------------------------------------
def start_round(st: ExpeditionState, events: list[Event] | None = None) -> None:
    n = st.n
    # each ship's 1 movement; engine Damage slows it while the card is there
    st.base_moves = [1] * n
    st.moves = [0] * n
    for name in ("worm", "disc_used", "build_bonus", "trades", "exchange", "rerolled"):
        setattr(st, name, [0] * n)
    st.used_upg = [[] for _ in range(n)]
    st.reprog = [[] for _ in range(n)]
    st.collected = [[] for _ in range(n)]
    st.tokens = [[] for _ in range(n)]
    st.filled = [[] for _ in range(n)]
    st.ready = [[] for _ in range(n)]
    st.acted, st.step = 0, 0
    st.phase = "production"
    produced: list[Event] = []
    if st.round >= 2:
        frames = []
        for k in range(n):
            seat = (st.first + k) % n
            rm, cr = st.rm[seat], st.cr[seat]
            frame = produce(st, seat)
            if events is not None:
                ids = st.t.loc_ids
                produced.append(
                    Event(
                        "produced",
                        {
                            "seat": seat,
                            "rm": st.rm[seat] - rm,
                            "crystal": st.cr[seat] - cr,
                            "locations": [ids[x] for x in st.collected[seat]],
                        },
                    )
                )
            if frame:
                frames.append(frame)
        st.pending.extend(reversed(frames))
    modules.module_round_start(st, events)  # the round's reveals come first, then Production
    if events is not None:
        events.extend(produced)


def produce(st: ExpeditionState, seat: int) -> dict[str, int | str] | None:
    """Production: the Starting Location always, the current one with an Embassy;
    Collection tokens for the rest (a choice when there are more than the tokens)."""
    start = st.start_of(seat)
    st.collect(seat, start)
    here = st.location_at(st.ship[seat])
    if here >= 0 and here != start and st.emb[seat][here]:
        st.collect(seat, here)
    locs = st.content.locations
    others = [
        loc
        for loc, c in enumerate(st.emb[seat])
        if c and loc not in st.collected[seat] and locs[loc].kind == "recruit"
    ]
    limit = st.content.rules.collection_tokens
    if len(others) <= limit:
        st.tokens[seat] = others
        return None
    return {"k": "tokens", "s": seat, "left": limit}


def settle(st: ExpeditionState, events: list[Event]) -> None:
    while True:
        pending.run_pending(st, events)
        if st.pending or not advance(st, events):
            return


def advance(st: ExpeditionState, events: list[Event]) -> bool:
    """One step of the phase machine; False when a seat must act (or it is over)."""
    ph = st.phase
    if ph == "production":
        st.phase, st.acted, st.step = "discovery", 0, 0
        return True
    if ph in ("discovery", "sensor"):
        if st.acted >= st.turns:
            if ph == "discovery":
                st.phase = "sensor"
            else:
                st.phase = "command"
            st.acted, st.step = 0, 0
            if st.phase == "command":
                open_windows(st, st.turn)
            return True
        seat = st.turn
        if st.step == 0:
            st.step = 1
            if seat == st.n:  # the drone: its tiles, placed by the player
                if ph == "discovery":
                    drone.drone_discovery(st, events)
            elif ph == "discovery":
                k = st.content.rules.discovery_tiles
                if st.n <= 2:
                    k = st.content.rules.discovery_tiles_two_players
                effects.open_placement(st, seat, k, False, False, events)
            else:
                sensor.start_sensor(st, seat, events)
        else:
            st.acted += 1
            st.step = 0
        return True
    if ph == "command":
        if st.acted >= st.turns:
            st.phase, st.step = "end", 0
            return True
        if st.turn == st.n:  # the drone's Command phase
            if st.step == 0:
                st.step = 1
                drone.drone_command(st)
            else:
                st.acted += 1
                st.step = 0
                open_windows(st, st.turn)
            return True
        return False
    if ph == "end":
        return end_round(st, events)
    return False


def end_round(st: ExpeditionState, events: list[Event]) -> bool:
    n = st.n
    if st.step == 0:
        if st.round >= st.content.rules.rounds:
            st.phase = "over"
            over: dict[str, object] = {"scores": [modules.points(st, s) for s in range(n)]}
            if st.is_solo:
                over["drone"] = drone.drone_points(st)
            events.append(Event("game_over", over))
            return False
        st.step = 1
        frames = []
        for k in range(n):
            seat = (st.first + k) % n
            kind = st.anomaly_kind(st.board[st.ship[seat]])
            if kind is not None:
                tile = st.board[st.ship[seat]] - st.n_locations
                fx = st.t.anomaly_round_end[tile]
                if fx:
                    frames.append({"k": "fx", "s": seat, "fx": fx})
        st.pending.extend(reversed(frames))
        return True
    if st.step == 1:
        for s in range(n):
            st.hand[s].extend(st.transit[s])
            st.transit[s] = st.sickbay[s] + st.solo[s]
            st.sickbay[s], st.solo[s] = [], []
            st.tokens[s] = []
        frames = []
        for k in range(n):
            seat = (st.first + k) % n
            missing = 3 - len(st.exps[seat])
            if missing > 0 and any(st.exp_decks):
                frames.append({"k": "new_exp", "s": seat, "left": missing})
        st.pending.extend(reversed(frames))
        st.first = (st.first + 1) % st.turns
        if st.is_solo and st.round + 1 == st.content.rules.rounds:
            st.first = st.n  # the drone is always first in the last round
        st.step = 2
        return True
    st.round += 1
    events.append(Event("round", {"round": st.round, "first": st.first}))
    start_round(st, events)
    return True


# --- windows: acting in an opponent's Command phase ---------------------------------
def window_actions(st: ExpeditionState, seat: int, command: bool) -> list[Action]:
    """What ``seat`` may do out of turn: a special action rolled this round, and in an
    opponent's Command phase an Upgrade ability (discarding the Upgrade)."""
    acts = [act("special", (k,)) for k in st.ready[seat]]
    if command:
        ability = each("ability", st.t.upg_ids)
        acts += [ability[u] for u in effects.enabled_discardable(st, seat)]
    return acts


def open_windows(st: ExpeditionState, holder: int) -> None:
    """At the start of ``holder``'s Command turn (the drone's too), every other seat
    that could use something during an opponent's Command phase gets a window, in
    turn order after the holder (RULINGS.md 24a)."""
    if st.phase != "command" or st.acted >= st.turns:
        return
    frames = []
    for k in range(1, st.turns):
        seat = (holder + k) % st.turns
        if seat < st.n and window_actions(st, seat, True):
            frames.append({"k": "window", "s": seat, "w": "command", "of": holder})
    st.pending.extend(reversed(frames))


def use_special(st: ExpeditionState, seat: int, k: int, events: list[Event]) -> tuple[Any, ...]:
    """Spend a ready special action; its effects (for the caller to run)."""
    st.ready[seat].remove(k)
    events.append(Event("special_used", {"seat": seat, "special": k}))
    return tuple(sensor.face_effects(st, seat, f"special{k}"))


def apply_window(st: ExpeditionState, f: dict[str, Any], a: Action, events: list[Event]) -> None:
    """``pass`` closes the window; a use keeps it open while something is left."""
    seat = f["s"]
    st.pending.pop()
    if a.kind == "pass":
        return
    if a.kind == "special":
        fx = use_special(st, seat, int(a.args[0]), events)  # type: ignore[arg-type]
    else:
        u = st.content.upgrade_index[str(a.args[0])]
        st.remove_upgrade(seat, u)
        events.append(Event("ability_used", {"seat": seat, "upgrade": st.t.upg_ids[u]}))
        fx = st.t.upg_ability[u]
    if window_actions(st, seat, f["w"] == "command"):
        st.pending.append(f)
    effects.push_fx(st, seat, fx)


# --- frames of the round machine ----------------------------------------------------
def round_frame_actions(st: ExpeditionState, f: dict[str, object]) -> list[Action]:
    seat = int(f["s"])  # type: ignore[call-overload]
    if f["k"] == "tokens":
        ids = st.t.loc_ids
        kinds = st.t.loc_kind
        return [  # Legendary and Artifact Locations produce nothing: no token there
            act("token", (ids[loc],))
            for loc, c in enumerate(st.emb[seat])
            if c
            and kinds[loc] == "recruit"
            and loc not in st.collected[seat]
            and loc not in st.tokens[seat]
        ]
    if f["k"] == "new_exp":
        return [act("draw", (TIERS[i],)) for i in range(3) if st.exp_decks[i]]
    return []


def apply_round_frame(
    st: ExpeditionState, f: dict[str, object], a: Action, events: list[Event]
) -> None:
    seat = int(f["s"])  # type: ignore[call-overload]
    left = int(f["left"]) - 1  # type: ignore[call-overload]
    if f["k"] == "tokens":
        st.tokens[seat].append(st.content.location_index[str(a.args[0])])
    else:
        card = st.draw_expedition(TIERS.index(str(a.args[0])))
        st.exps[seat].append(card)
        events.append(
            Event("expedition_drawn", {"seat": seat, "expedition": st.t.exp_ids[card]})
        )
    if left <= 0 or (f["k"] == "new_exp" and not any(st.exp_decks)):
        st.pending.pop()
    else:
        f["left"] = left
