"""What a seat may know, and re-drawing what it may not (for determinization).

Stellarion is co-operative and all information is shared at the table, so every seat
and the spectator get the same view. The only hidden thing is order: the order of the
unknown middle of each deck and of the Theory stack below its top token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Rng
from skydeck.games.stellarion.cards import (
    DECK_INDEX,
    DECKS,
    FACE_INDEX,
    FACE_NAMES,
    GALAXIES,
    TYPES,
    card,
)
from skydeck.games.stellarion.legal import (
    LOOK,
    PHASE_NAMES,
    POWER,
    THRUST,
    TRAVERSE,
    accessible,
)

if TYPE_CHECKING:
    from skydeck.games.stellarion.state import StellarionState

POWER_NAMES = ("ship", "nebula", "stars", "planet")


def _names(cards: list[int]) -> list[str]:
    return [FACE_NAMES[c & 31] for c in cards]


def _contents(cards: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in sorted(c & 31 for c in cards):
        name = FACE_NAMES[c]
        counts[name] = counts.get(name, 0) + 1
    return counts


def make_view(s: StellarionState, seat: int | None) -> dict[str, Any]:
    game = s.game
    decks = []
    for d in range(8):
        cards = s.decks[d]
        kt, kb = s.ktop[d], s.kbot[d]
        decks.append(
            {
                "name": DECKS[d],
                "count": len(cards),
                "face_up": bool(s.up[d]),
                "top": FACE_NAMES[cards[-1] & 31] if s.up[d] else None,
                "known_top": _names(cards[::-1][:kt]),
                "known_bottom": _names(cards[:kb]),
                "contents": _contents(cards),
                "discards": _names(s.discards[d]),
            }
        )
    ids = game.voyage_ids
    view: dict[str, Any] = {
        "game": "stellarion",
        "seat": seat,
        "players": game.players,
        "expansions": list(game.options["expansions"]),
        "turn": s.turn,
        "turns": s.turns,
        "to_move": list(s.to_move),
        "phase": PHASE_NAMES[s.phase],
        "decks": decks,
        "outpost": [{"card": FACE_NAMES[c & 31], "deck": DECKS[c >> 5]} for c in s.outpost],
        "shooting_stars": s.stars,
        "voyages": {
            "columns": [[ids[v] for v in col] for col in s.columns],
            "accessible": [ids[v] for v in accessible(s)],
            "galaxy": {ids[v]: GALAXIES[game.voyage_galaxy[v]] for c in s.columns for v in c},
            "names": {ids[v]: game.voyage_names[v] for p in (s.columns + s.piles) for v in p},
            "mode": "columns" if game.mirrors else "stacks",
        },
        "victory": [[ids[v] for v in pile] for pile in s.piles],
        "outcome": "won" if s.outcome > 0 else "lost" if s.outcome < 0 else "playing",
        "reason": s.reason,
        "pending": _pending(s),
    }
    if game.theories:
        view["theories"] = {
            "top": game.theory_ids[s.theories[-1]] if s.theories else None,
            "top_type": TYPES[game.theory_type[s.theories[-1]]] if s.theories else None,
            "top_name": game.theory_names[s.theories[-1]] if s.theories else None,
            "left": len(s.theories),
            "remaining": sorted(game.theory_ids[t] for t in s.theories),
            "proven": [game.theory_ids[t] for t in s.proven],
        }
        view["breakthrough"] = {
            "id": game.breakthrough_ids[s.breakthrough],
            "name": game.breakthrough_names[s.breakthrough],
            "type": TYPES[s.breakthrough],
        }
    if game.glaucous_sun:
        view["sun"] = {
            "position": s.sun,
            "start": game.sun_start,
            "final": game.sun_final,
            "meteors_on_board": list(s.meteors),
            "meteors_held": s.held,
        }
    return view


def _pending(s: StellarionState) -> dict[str, Any] | None:
    """The Coordinate or Traverse being resolved, for the UIs."""
    if s.phase in (POWER, LOOK, THRUST):
        return {
            "kind": "coordinate",
            "power": POWER_NAMES[s.p_type],
            "major": bool(s.p_major),
            "uses_left": s.p_left,
            "started": bool(s.p_started),
            "deck": DECKS[s.p_deck] if s.p_deck >= 0 else None,
            "cards": [f"{FACE_NAMES[c & 31]}/{DECKS[c >> 5]}" for c in s.p_cards],
        }
    if s.phase == TRAVERSE:
        return {"kind": "traverse", "takes_left": s.p_take}
    return None


def resample(s: StellarionState, seat: int | None, rng: Rng) -> StellarionState:
    """Shuffle each deck's unknown middle and the Theory stack under its top token;
    the copy gets a fresh generator so it cannot replay the real future shuffles."""
    out = s.clone()
    for d in range(8):
        deck = out.decks[d]
        lo, hi = out.kbot[d], len(deck) - out.ktop[d]
        if hi - lo > 1:
            middle = deck[lo:hi]
            rng.shuffle(middle)
            deck[lo:hi] = middle
    if len(out.theories) > 2:
        below = out.theories[:-1]
        rng.shuffle(below)
        out.theories[:-1] = below
    out.rng = rng.spawn()
    out._legal = None
    out._list = None
    out.settle()
    return out


def _deal_deck(d: int, dv: dict[str, Any], rng: Rng) -> list[int]:
    """Deck ``d`` bottom to top: known bottom and top cards in place (in a small deck
    they may name the same slots), the unknown rest dealt at random from its contents."""
    n = dv["count"]
    slots: list[int | None] = [None] * n
    left = {FACE_INDEX[f]: k for f, k in dv["contents"].items()}
    for pos, face in [
        *enumerate(dv["known_bottom"]),
        *((n - 1 - i, f) for i, f in enumerate(dv["known_top"])),
    ]:
        if slots[pos] is None:
            slots[pos] = FACE_INDEX[face]
            left[FACE_INDEX[face]] -= 1
    pool = [f for f, k in sorted(left.items()) for _ in range(k)]
    rng.shuffle(pool)
    return [card(d, f if f is not None else pool.pop()) for f in slots]


def from_view(game: Any, view: dict[str, Any], rng: Rng) -> StellarionState:
    """One full state consistent with ``view`` (its inverse): each deck's unknown middle
    is dealt at random from the deck's known contents, the Theory stack under its top in
    random order, and the state gets a fresh generator. For agents and tree search."""
    from skydeck.games.stellarion.state import StellarionState

    s = StellarionState(game, rng.spawn())
    for d, dv in enumerate(view["decks"]):
        s.decks[d] = _deal_deck(d, dv, rng)
        s.up[d] = int(dv["face_up"])
        s.ktop[d], s.kbot[d] = len(dv["known_top"]), len(dv["known_bottom"])
        s.discards[d] = [card(d, FACE_INDEX[x]) for x in dv["discards"]]
    s.outpost = [card(DECK_INDEX[o["deck"]], FACE_INDEX[o["card"]]) for o in view["outpost"]]
    idx = game.voyage_index
    s.columns = [[idx[v] for v in col] for col in view["voyages"]["columns"]]
    s.piles = [[idx[v] for v in pile] for pile in view["victory"]]
    s.stars = view["shooting_stars"]
    s.turn = view["turn"]
    s.turns = view["turns"]
    s.phase = PHASE_NAMES.index(view["phase"])
    s.outcome = {"won": 1, "lost": -1}.get(view["outcome"], 0)
    s.reason = view["reason"]
    th = view.get("theories")
    if th is not None:
        ids = game.theory_ids
        rest = [ids.index(t) for t in th["remaining"] if t != th["top"]]
        rng.shuffle(rest)
        s.theories = rest + ([ids.index(th["top"])] if th["top"] else [])
        s.proven = [ids.index(t) for t in th["proven"]]
        s.breakthrough = game.breakthrough_ids.index(view["breakthrough"]["id"])
    sun = view.get("sun")
    if sun is not None:
        s.sun, s.meteors, s.held = (
            sun["position"],
            list(sun["meteors_on_board"]),
            sun["meteors_held"],
        )
    p = view.get("pending")
    if p and p["kind"] == "coordinate":
        s.p_type = POWER_NAMES.index(p["power"])
        s.p_major = int(p["major"])
        s.p_left = p["uses_left"]
        s.p_started = int(p["started"])
        s.p_deck = DECK_INDEX[p["deck"]] if p["deck"] else -1
        s.p_cards = [
            card(DECK_INDEX[c.split("/")[1]], FACE_INDEX[c.split("/")[0]]) for c in p["cards"]
        ]
    elif p and p["kind"] == "traverse":
        s.p_take = p["takes_left"]
    s._legal = None
    s.settle()
    return s
