"""Stellium's state: plain lists and ints (clone() copies a few lists), and the engine
contract's methods over them. What a move does is the rules' (``rules/``): the state
asks them for its legal moves and hands them each action."""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, IllegalAction, Rng, State
from skydeck.core.fields import FieldTable, derived, int_lists, ints, shared, value
from skydeck.games.stellium.content import BAG_TOTALS
from skydeck.games.stellium.notation import EFFECT_BODY, TIMEOUT
from skydeck.games.stellium.rules import effects, phases
from skydeck.games.stellium.rules.legal import compute_legal, why_illegal
from skydeck.games.stellium.tables import (
    ALL_TOKENS,
    CARD_COLOUR,
    DRAW_PHASE,
    NEW_MISSION,
    OVER,
    REFILL,
    UNIVERSE,
)
from skydeck.games.stellium.view import build_view

if TYPE_CHECKING:
    from skydeck.games.stellium.game import StelliumGame

#: An action's value as a tuple (what Action's equality compares).
_ACTION_KEY = attrgetter("kind", "args")
#: ``_legal_set`` of a state whose legal actions were looked through once already.
_ASKED: set[tuple[str, tuple[Any, ...]]] = set()


#: The state's fields, in snapshot order: the one list clone, to_json and restore read.
FIELDS = FieldTable(
    "stellium",
    [
        value("reveals"),
        *(ints(name) for name in ("board", "bag", "discs", "turns", "tokens")),
        *(int_lists(name) for name in ("hands", "completed")),
        *(ints(name) for name in ("points", "available", "reserve", "boxed", "reached")),
        *(ints(name) for name in ("keep_cells", "refill_queue", "refill_pool", "refill_seats")),
        *(value(name) for name in ("turn", "first", "phase", "drawn", "placed")),
        value("token_mode", bool),
        value("final", bool),
        value("turn_count"),
        derived("colours"),  # what the board's bodies make of it: recoloured on restore
        shared("_legal"),  # never changed in place: a move replaces it
        shared("_legal_set"),
    ],
)


class StelliumState(State):
    game: StelliumGame
    #: The last view's reusable parts (view.py ``_Memo``); a clone starts without.
    _view_memo: Any = None

    def __init__(self, game: StelliumGame, rng: Rng) -> None:
        n = game.players
        self.game = game
        self.rng = rng
        self.reveals = 0
        self.board: list[int] = [0] * UNIVERSE.size
        self.colours: list[int] = [0] * UNIVERSE.size
        self.bag: list[int] = list(BAG_TOTALS)
        self.discs: list[int] = []
        self.turns: list[int] = []
        self.tokens: list[int] = [ALL_TOKENS] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.completed: list[list[int]] = [[] for _ in range(n)]
        self.points: list[int] = [0] * n
        self.available: list[int] = []
        self.reserve: list[int] = []
        self.boxed: list[int] = []
        self.reached: list[int] = []
        self.keep_cells: list[int] = []
        self.refill_queue: list[int] = []
        self.refill_pool: list[int] = [0] * 5
        self.refill_seats: list[int] = []
        self.turn = 0
        self.first = 0
        self.phase = DRAW_PHASE
        self.drawn = 0
        self.placed = -1
        self.token_mode = False
        self.final = False
        self.turn_count = 0
        self._legal: list[Action] | None = None
        #: (kind, args) of every legal action: tuples hash and compare in C, where the
        #: Action dataclass's own hash is a Python call per action (validation and the
        #: server's clock check run once or twice a move)
        self._legal_set: set[tuple[str, tuple[Any, ...]]] | None = None

    # --- turn structure ------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == REFILL:
            return (self.refill_seats[0],)
        return (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.to_move[0]:
            return []
        if self._legal is None:
            self._legal = compute_legal(self)
        return list(self._legal)

    def validate(self, action: Action, seat: int) -> None:
        if self._legal is None:
            self._legal = compute_legal(self)
        # One look along the list (in C) is cheaper than a set built for one question;
        # the engine's own object (``shared``, as ``Action.from_json`` hands it out) is
        # found by identity, five times as fast as by value. A state asked again (a
        # search) builds the set.
        legal, legal_set = self._legal, self._legal_set
        if legal_set is None:
            self._legal_set = _ASKED
            found = any(map(is_, legal, repeat(action))) or (
                (action.kind, action.args) in map(_ACTION_KEY, legal)
            )
        else:
            if legal_set is _ASKED:
                legal_set = self._legal_set = set(map(_ACTION_KEY, legal))
            found = (action.kind, action.args) in legal_set
        if not found:
            # The 5-second clock's random draw: the server's action, never a player's
            # choice, so it is accepted here but not listed in legal_actions.
            if action == TIMEOUT and self._draw_clock_runs():
                return
            raise IllegalAction(why_illegal(self, action))

    def accepts(self, action: Action, seat: int) -> bool:
        """``validate`` without its refusal message: the server's clock check asks after
        every move whether the 5-second draw is running, which holds exactly in the draw
        step (the timeout is never a listed action)."""
        if action == TIMEOUT:
            return self._draw_clock_runs()
        return super().accepts(action, seat)

    def _draw_clock_runs(self) -> bool:
        """The 5-second clock's random draw is accepted exactly in the draw step."""
        return self.phase == DRAW_PHASE

    # --- applying ------------------------------------------------------------------
    def _apply(self, action: Action, seat: int) -> list[Event]:
        self._legal = None
        self._legal_set = None
        kind = action.kind
        ev: list[Event] = []
        if kind == "draw" or kind == "timeout":
            effects.draw(self, action, seat, ev)
        elif kind == "place":
            effects.place(self, action, seat, ev)
        elif kind in EFFECT_BODY or kind == "skip":
            effects.effect(self, action, seat, ev)
        elif kind == "complete":
            effects.complete(self, action, seat, ev)
        elif kind == "keep":
            effects.keep(self, action, seat, ev)
        elif kind == "done":
            ev.append(Event("missions_done", {"seat": seat}))
            self.phase = NEW_MISSION
        elif kind == "refill":
            effects.refill(self, action, seat, ev)
        elif kind == "take" or kind == "pass":
            effects.take(self, action, seat, ev)
        else:  # pragma: no cover - validate() let something unknown through
            raise AssertionError(kind)
        phases.advance(self, ev)
        return ev

    # --- outcome -------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        return [float(self.total(s)) for s in range(self.game.players)]

    def total(self, seat: int) -> int:
        """Missions + unused Influence tokens + one per distinct Mission colour."""
        colours = set(map(CARD_COLOUR.__getitem__, self.completed[seat]))
        return self.points[seat] + self.tokens[seat].bit_count() + len(colours)

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != OVER:
            return ()
        totals = [self.total(s) for s in range(self.game.players)]
        best = max(totals)
        top = [s for s, t in enumerate(totals) if t == best]
        if len(top) == 1:
            return (top[0],)
        for s in self.reached:  # a tie goes to whoever reached the target first
            if s in top:
                return (s,)
        return ()

    # --- information ---------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def resample(self, seat: int | None, rng: Rng) -> StelliumState:
        """Everything but the Mission Reserve's order is public (hands were shown when
        taken, the bag's contents follow from the board), so only that is re-drawn."""
        s = self.clone()
        rng.shuffle(s.reserve)
        s.rng = Rng(rng.next64(), self.rng.draws)
        return s

    # --- copies and storage --------------------------------------------------------
    def clone(self) -> StelliumState:
        s = StelliumState.__new__(StelliumState)
        s.game, s.rng = self.game, self.rng.copy()
        FIELDS.copy(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        """A snapshot: every list copied, so it never changes as the game goes on."""
        return {"rng": self.rng.to_json(), **FIELDS.dump(self)}
