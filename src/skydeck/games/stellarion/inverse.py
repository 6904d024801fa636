"""The view's inverse: one full state from what the table shows (for agents and tree
search). Beside the view (view.py), so that the two change together; a module of its
own because it builds the State, which imports the view."""

from __future__ import annotations

from typing import Any

from skydeck.core import Rng
from skydeck.games.stellarion.cards import DECK_INDEX, FACE_INDEX, card
from skydeck.games.stellarion.legal import PHASE_NAMES
from skydeck.games.stellarion.state import StellarionState
from skydeck.games.stellarion.view import POWER_NAMES


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
