"""Builders for exact Stellar Expedition situations (scenario tests set plain fields)."""

from __future__ import annotations

from typing import Any

import skydeck
from skydeck.core import Action, Event
from skydeck.games.expedition import effects, pending
from skydeck.games.expedition.content import default_content
from skydeck.games.expedition.state import ExpeditionState

C = default_content()


def game(players: int = 2, **opts: Any) -> Any:
    return skydeck.load("expedition", players=players, **opts)


def fresh(players: int = 2, seed: int = 0, **opts: Any) -> ExpeditionState:
    """A new game with the Starting tiles placed in the usual layout (the first legal
    cell each time): the power choice or the draft is next."""
    st = game(players, **opts).new(seed)
    while st.phase == "start":
        seat = st.to_move[0]
        st.apply(st.legal_actions(seat)[0], seat)
    return st


def act(st: ExpeditionState, text: str, seat: int | None = None) -> list[Event]:
    if seat is None:
        seat = st.to_move[0]
    return st.apply(Action.parse(text), seat)


def texts(st: ExpeditionState, seat: int | None = None) -> list[str]:
    if seat is None:
        seat = st.to_move[0]
    return [str(a) for a in st.legal_actions(seat)]


def drafted(players: int = 2, seed: int = 0, **opts: Any) -> ExpeditionState:
    """Starting tiles (the usual layout: the first legal cell), the power choice and the
    draft played with the first legal action each time (round 1 then begins)."""
    st = fresh(players, seed, **opts)
    while st.phase in ("start", "draft", "powers"):
        seat = st.to_move[0]
        st.apply(st.legal_actions(seat)[0], seat)
    return st


def at_command(players: int = 2, seed: int = 0, seat: int = 0, **opts: Any) -> ExpeditionState:
    """Round 1, Command phase, ``seat`` to act, nothing pending."""
    st = drafted(players, seed, **opts)
    st.pending = []
    st.phase = "command"
    st.first = 0
    st.acted = seat
    return st


def crew(name: str) -> int:
    return C.crew_index[name]


def loc(name: str) -> int:
    return C.location_index[name]


def upg(name: str) -> int:
    return C.upgrade_index[name]


def exp(name: str) -> int:
    return C.expedition_index[name]


def enc(name: str) -> int:
    return C.encounter_index[name]


def anomaly(name: str) -> int:
    return len(C.locations) + [a.id for a in C.anomalies].index(name)


def tile(st: ExpeditionState, name: str) -> int:
    """A tile id in this state's content (module tiles included)."""
    return effects.tile_by_name(st, name)


def free_cell(st: ExpeditionState) -> int:
    """An empty cell next to the current seat's ship... any seat: next to seat 0's."""
    return empty_neighbour(st, st.ship[0])


def put(st: ExpeditionState, tile: int, cell: int) -> int:
    """Place a tile on the map (taking it out of the stack if it is there)."""
    if tile in st.stack:
        st.stack.remove(tile)
    st.board[cell] = tile
    return cell


def empty_neighbour(st: ExpeditionState, cell: int) -> int:
    return next(c for c in st.grid.neighbours[cell] if st.board[c] < 0)


def fx(op: str, **kw: Any) -> dict[str, Any]:
    base = {
        "gain": {"rm": 0, "crystal": 0, "influence": 0},
        "lose": {"rm": 0, "crystal": 0, "influence": 0},
    }.get(op, {})
    return {"op": op, **base, **kw}


def run_fx(st: ExpeditionState, seat: int, *fxs: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    effects.push_fx(st, seat, tuple(fxs))
    pending.run_pending(st, events)
    return events


def total_cards(st: ExpeditionState) -> dict[str, int]:
    """Every card type counted over all the places it can be (conservation)."""
    n = st.n
    crew_n = sum(len(p[s]) for p in (st.hand, st.transit, st.sickbay, st.solo) for s in range(n))
    upg_n = len(st.upg_deck) + len(st.upg_discard) + sum(1 for u in st.store if u >= 0)
    upg_n += sum(len(st.real_upgrades(s)) for s in range(n))
    exp_n = sum(len(d) for d in st.exp_decks) + len(st.exp_discard)
    exp_n += sum(
        len(p[s]) for p in (st.exps, st.secret, st.done, st.packs, st.kept) for s in range(n)
    )
    enc_n = len(st.enc_deck) + len(st.enc_discard)
    for f in st.pending:
        if f["k"] == "enc":  # an open Encounter is in no pile until resolved
            enc_n += 1
        if f["k"] == "enc_pick":
            enc_n += 2
    tiles = len(st.stack) + sum(1 for x in st.board if x >= 0)
    tiles += sum(1 for s in range(n) if st.ship[s] < 0)  # Starting tiles not placed yet
    tiles += sum(len(f["tiles"]) for f in st.pending if f["k"] == "place")
    dmg = st.dmg_supply + sum(st.dmg)
    return {
        "upgrades": upg_n,
        "expeditions": exp_n,
        "encounters": enc_n,
        "tiles": tiles,
        "damage": dmg,
        "crew_owned": crew_n,
    }
