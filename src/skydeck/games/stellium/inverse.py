"""The view's inverse: a full state from what a seat sees (VIEW.md), for the search
agents and the heuristic. Beside the view (view.py), so that the two change together;
a module of its own because it builds the State, which imports the view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from skydeck.core import Game, Rng
from skydeck.games.stellium.content import BODY_CODE, COLOURS
from skydeck.games.stellium.rules.effects import recolour
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import CARD_INDEX, CARDS, PHASES, UNIVERSE

if TYPE_CHECKING:
    from skydeck.games.stellium.game import StelliumGame

_COLOUR_CODE = {name: i for i, name in enumerate(COLOURS) if name}


def state_from_view(game: Game, view: dict[str, Any], seed: int = 0) -> StelliumState:
    """A full state consistent with ``view`` (the Reserve in an arbitrary order): the
    view's inverse, beside it so that the two change together."""
    u = UNIVERSE
    s = StelliumState(cast("StelliumGame", game), Rng(seed))
    idx = u.index_of
    for name, body in view["board"].items():
        s.board[idx[name]] = BODY_CODE[body]
    s.bag = [0] + [view["bag"][b] for b in ("planet", "comet", "star", "supernova")]
    discs = {name: i for i, name in enumerate(u.disc_names)}
    s.discs = [discs[d["disc"]] for d in view["discs"]]
    s.turns = [d["turns"] for d in view["discs"]]
    recolour(s)
    s.tokens = [sum(1 << _COLOUR_CODE[c] for c in t) for t in view["tokens"]]
    s.hands = [[CARD_INDEX[c] for c in h] for h in view["hands"]]
    s.completed = [[CARD_INDEX[c] for c in h] for h in view["completed"]]
    s.points = list(view["mission_points"])
    s.available = [CARD_INDEX[c] for c in view["available"]]
    s.boxed = [CARD_INDEX[c] for c in view["boxed"]]
    seen = set(s.available) | set(s.boxed) | {c for h in s.hands + s.completed for c in h}
    s.reserve = [c for c in range(len(CARDS)) if c not in seen][: view["reserve"]]
    s.reached = list(view["reached_target"])
    s.keep_cells = [idx[n] for n in view["keep"]]
    refill = view["refill"]
    if refill:
        s.refill_queue = [u.slot_names.index(refill["galaxy"])]
        s.refill_pool = [0] + [refill["bodies"].get(b, 0) for b in BODY_CODE]
        s.refill_seats = list(refill["order"])
    s.turn, s.first, s.turn_count = view["turn"], view["first_player"], view["turn_count"]
    s.phase = PHASES.index(view["phase"])
    s.drawn = BODY_CODE[view["drawn"]] if view["drawn"] else 0
    s.placed = idx[view["placed"]] if view["placed"] else -1
    s.token_mode = bool(view["must_use_token"])
    s.final = bool(view["final_round"])
    return s


def from_view(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> StelliumState:
    """The search agents' ``GameSupport.from_view`` hook: one determinisation of what
    ``seat`` knows (the Reserve shuffled, a fresh RNG)."""
    return state_from_view(game, view, rng.next64()).resample(seat, rng)
