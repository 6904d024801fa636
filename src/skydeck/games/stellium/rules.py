"""Stellium's rules: the Game (options, set-up) and the State (turns, effects, missions).

A turn runs through phases, each decision one action of the right seat:

    DRAW -> PLACE -> EFFECT -> MISSIONS <-> KEEP -> NEW_MISSION -> next player
                         \\-> REFILL (any seat, when a Galaxy was emptied) -/

Phases without a real choice (an empty bag, no Mission that can be completed, an
effect with no target and no token to use instead) are passed over automatically,
with an event saying so. The state is plain lists and ints: clone() copies a few lists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import attrgetter, is_
from typing import Any

from skydeck.core import Action, Event, Game, IllegalAction, OptionSpec, Rng, State
from skydeck.core.action import shared
from skydeck.core.capabilities import Capabilities, SeatFacets, TimedAction, Uses
from skydeck.games.stellium.content import BAG_TOTALS, BODIES, BODY_CODE, COLOURS
from skydeck.games.stellium.describe import describe as _describe_action
from skydeck.games.stellium.describe import describe_event as _describe_event
from skydeck.games.stellium.missions import Card, build_cards, occupied_keys
from skydeck.games.stellium.notation import (
    DONE,
    DRAW,
    EFFECT_BODY,
    EFFECTS,
    PASS,
    SKIP,
    TIMEOUT,
    Notation,
)
from skydeck.games.stellium.universe import played
from skydeck.games.stellium.view import build_view
from skydeck.games.stellium.view import from_view as _from_view

#: An action's value as a tuple (what Action's equality compares).
_ACTION_KEY = attrgetter("kind", "args")
#: ``_legal_set`` of a state whose legal actions were looked through once already.
_ASKED: set[tuple[str, tuple[Any, ...]]] = set()

UNIVERSE = played()
CARDS: tuple[Card, ...] = build_cards(UNIVERSE)
CARD_INDEX = {c.id: c.index for c in CARDS}
NOTATION = Notation(UNIVERSE)

TARGETS = {2: 20, 3: 25, 4: 30}
AVAILABLE = {2: 6, 3: 7, 4: 8}
HAND_LIMIT = 3
REFILL_DRAW = 5
ALL_TOKENS = 0b11110  # bit b set: the token of body b's colour is unused

DRAW_PHASE, PLACE, EFFECT, MISSIONS, KEEP, REFILL, NEW_MISSION, OVER = range(8)
PHASES = ("draw", "place", "effect", "missions", "keep", "refill", "new_mission", "over")

_U = UNIVERSE
#: Each Mission card's colour, by card index (scores read it after every move).
_CARD_COLOUR: tuple[int, ...] = tuple(c.colour for c in CARDS)
_NAMES = _U.names
_IDX = _U.index_of
_STEP = _U.step
_NEIGH = _U.neighbours
_HOLES = _U.holes
_GALAXY_SPACES = _U.galaxy_spaces
_SLOTS = _U.slot_cells
_GALAXY_OF = _U.galaxy_of
_IS_HOLE = _U.is_hole
_DIRS = _U.dirs
_DIR_INDEX = NOTATION.dir_index
_PUSH = NOTATION.push

# Memoised actions: legal lists hand out the same objects every time, like the rest of
# NOTATION (callers that look actions up by identity, as skydeck.rl's catalogue does,
# skip the dataclass hash, and no list builds fresh Actions).
_TAKE = tuple(shared("take", (c.id,)) for c in CARDS)
#: [m][h]: take m in place of h (a card is never both, so the diagonal is never read)
_TAKE_REPLACE = tuple(
    tuple(shared("take", (m.id, h.id)) if m is not h else PASS for h in CARDS) for m in CARDS
)
#: (card, cells) -> its ``complete`` action, filled as completions are found (at most
#: one per way a card can ever be completed: bounded by the content)
_COMPLETE: dict[tuple[int, tuple[int, ...]], Action] = {}


def _facets(view: dict[str, Any], players: int) -> list[SeatFacets]:
    first = view.get("first_player")
    if not isinstance(first, int):
        return [SeatFacets() for _ in range(players)]
    return [SeatFacets(order=(seat - first) % players) for seat in range(players)]


class StelliumGame(Game):
    id = "stellium"
    capabilities = Capabilities(
        env_id="skydeck/Stellium-v0",
        # A seat has 5 seconds to pick a body from the bag, else it draws at random.
        timed_actions=(TimedAction("timeout", lambda _options: 5.0, label="draw"),),
        facets=_facets,
        # Missions taken and completed ("take m38", "complete m39 (f1,g1)").
        uses=Uses(frozenset({"take", "complete"}), re.compile(r"m\d+\Z")),
    )
    title = "Stellium"
    player_counts = (2, 3, 4)
    option_specs = (
        OptionSpec("first_game", "bool", False, "a first game: the target is 5 Stelliums lower"),
    )

    @property
    def target(self) -> int:
        """Mission Stelliums that trigger the final round."""
        return TARGETS[self.players] - (5 if self.options["first_game"] else 0)

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [{"players": n} for n in cls.player_counts] + [{"players": 3, "first_game": True}]

    def new(self, seed: int) -> StelliumState:
        s = StelliumState(self, Rng(seed))
        rng = s.rng
        discs = list(range(len(_SLOTS)))
        rng.shuffle(discs)
        s.discs = discs
        s.turns = [rng.below(_U.full_turn) for _ in discs]
        for g, cells in enumerate(_SLOTS):
            bodies = [1, 2, 3, 4]
            rng.shuffle(bodies)
            starts = _U.disc_start[discs[g]][s.turns[g]]
            for local, body in zip(starts, bodies):
                s.board[cells[local]] = body
                s.bag[body] -= 1
        s._recolour()
        deck = list(range(len(CARDS)))
        rng.shuffle(deck)
        k = AVAILABLE[self.players]
        s.available = deck[:k]
        s.reserve = deck[k:]
        s.first = s.turn = rng.below(self.players)
        s._advance([])
        return s

    has_from_view = True
    public_views = True
    #: Every choice (a Mission taken, a body drawn by choice, a space, a token) shows
    #: on the table at once.
    public_actions = True

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> StelliumState:
        """Only the Mission Reserve's order is hidden: the view's inverse
        (``view.from_view``) rebuilds the table and shuffles the Reserve with ``rng``."""
        return _from_view(self, view, seat, rng)  # type: ignore[arg-type]

    def restore(self, obj: dict[str, Any]) -> StelliumState:
        try:
            s = StelliumState(self, Rng.from_json(obj["rng"]))
            s.board = [int(x) for x in obj["board"]]
            s.bag = [int(x) for x in obj["bag"]]
            s.discs = [int(x) for x in obj["discs"]]
            s.turns = [int(x) for x in obj["turns"]]
            s.tokens = [int(x) for x in obj["tokens"]]
            s.hands = [[int(c) for c in h] for h in obj["hands"]]
            s.completed = [[int(c) for c in h] for h in obj["completed"]]
            s.points = [int(x) for x in obj["points"]]
            s.available = [int(c) for c in obj["available"]]
            s.reserve = [int(c) for c in obj["reserve"]]
            s.boxed = [int(c) for c in obj["boxed"]]
            s.reached = [int(x) for x in obj["reached"]]
            s.keep_cells = [int(x) for x in obj["keep_cells"]]
            s.refill_queue = [int(x) for x in obj["refill_queue"]]
            s.refill_pool = [int(x) for x in obj["refill_pool"]]
            s.refill_seats = [int(x) for x in obj["refill_seats"]]
            (s.turn, s.first, s.phase, s.drawn, s.placed, s.turn_count, s.reveals) = (
                int(obj[k])
                for k in ("turn", "first", "phase", "drawn", "placed", "turn_count", "reveals")
            )
            s.token_mode = bool(obj["token_mode"])
            s.final = bool(obj["final"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"stellium: malformed state: {exc!r}") from None
        if len(s.board) != _U.size or len(s.bag) != 5 or len(s.tokens) != self.players:
            raise ValueError("stellium: malformed state: board, bag or tokens have the wrong size")
        s._recolour()
        return s

    def describe(self, action: Action) -> str:
        return _describe_action(action)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        return _describe_event(event, names)


class StelliumState(State):
    game: StelliumGame
    #: The last view's reusable parts (view.py ``_Memo``); a clone starts without.
    _view_memo: Any = None

    def __init__(self, game: StelliumGame, rng: Rng) -> None:
        n = game.players
        self.game = game
        self.rng = rng
        self.reveals = 0
        self.board: list[int] = [0] * _U.size
        self.colours: list[int] = [0] * _U.size
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
            self._legal = self._compute_legal()
        return list(self._legal)

    def validate(self, action: Action, seat: int) -> None:
        if self._legal is None:
            self._legal = self._compute_legal()
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
            raise IllegalAction(self._why_illegal(action))

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

    def _why_illegal(self, action: Action) -> str:
        phase = PHASES[self.phase]
        kinds = sorted({a.kind for a in self._legal or ()})
        if action.kind not in kinds:
            return (
                f"'{action}' is not possible now: the {phase} step allows only "
                f"{', '.join(kinds) or 'nothing'}"
            )
        return f"'{action}' is not a legal {action.kind} now ({phase} step)"

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == DRAW_PHASE:
            return [DRAW[b] for b in (1, 2, 3, 4) if self.bag[b]]
        if phase == PLACE:
            return self._place_options()
        if phase == EFFECT:
            return self._effect_options()
        if phase == MISSIONS:
            return [*self._completions(), DONE]
        if phase == KEEP:
            return [NOTATION.keep[c] for c in self.keep_cells]
        if phase == REFILL:
            cells = _SLOTS[self.refill_queue[0]]
            board = self.board
            out: list[Action] = []
            for b in (1, 2, 3, 4):
                if self.refill_pool[b]:
                    row = NOTATION.refill[b]
                    out.extend(row[c] for c in cells if not board[c])
            return out
        if phase == NEW_MISSION:
            hand = self.hands[self.turn]
            if len(hand) < HAND_LIMIT:
                return [_TAKE[c] for c in self.available]
            out = [PASS]
            for c in self.available:
                row = _TAKE_REPLACE[c]
                out.extend(row[h] for h in hand)
            return out
        return []

    def _place_options(self) -> list[Action]:
        board = self.board
        empty = [NOTATION.place[c] for c in _GALAXY_SPACES if not board[c]]
        if self.drawn != 2:
            return empty
        hits = [c for c in _GALAXY_SPACES if board[c]]
        out = [a for c in hits for a in NOTATION.place_dir[c]]
        if not hits or self._comet_token_possible():
            out.extend(empty)
        return out

    def _comet_token_possible(self) -> bool:
        """Can a Comet skip its Collision for a token's effect? Rotation always works;
        Swap needs another Comet beside a body of another type, Attraction an empty
        Black Hole beside a body (neither can involve the Comet's empty landing space)."""
        tokens = self.tokens[self.turn]
        if tokens & (1 << 3):
            return True
        if tokens & (1 << 1) and any(
            self.board[a] == 2
            and any(self.board[b] not in (0, 2) and not _IS_HOLE[b] for b in _NEIGH[a])
            for a in _GALAXY_SPACES
        ):
            return True
        return bool(tokens & (1 << 4)) and any(
            not self.board[h] and any(self.board[b] for b in _NEIGH[h]) for h in _HOLES
        )

    def _effect_options(self) -> list[Action]:
        p = self.placed
        body = self.board[p]
        tokens = self.tokens[self.turn]
        out: list[Action] = []
        native_possible = False
        for eff in (1, 2, 3, 4):
            native = eff == body
            if native:
                if body == 2:  # a Comet's Collision happens as it is placed
                    continue
            elif not tokens & (1 << eff):
                continue
            opts = self._options_of(eff, p, body)
            if native and opts:
                native_possible = True
            out.extend(opts)
        if not native_possible and not self.token_mode:
            out.append(SKIP)
        return out

    def _options_of(self, eff: int, p: int, body: int) -> list[Action]:
        board = self.board
        if eff == 1:  # Swap: another body of the placed type trades with a neighbour,
            # both in Galaxies (a body enters a Black Hole only when pushed or pulled)
            swap = NOTATION.swap
            return [
                swap[a, b]
                for a in _GALAXY_SPACES
                if board[a] == body and a != p
                for b in _NEIGH[a]
                if b != p and board[b] and board[b] != body and not _IS_HOLE[b]
            ]
        if eff == 2:  # Collision: the placed body pushes a line and takes the first space,
            # never a Black Hole (bodies are only pushed or pulled there, not placed)
            step = _STEP[p]
            return [
                _PUSH[d]
                for d in range(len(_DIRS))
                if step[d] >= 0 and board[step[d]] and not _IS_HOLE[step[d]]
            ]
        if eff == 3:  # Rotation of the placed body's Galaxy
            return list(NOTATION.rotate[1:]) if _GALAXY_OF[p] >= 0 else []
        pull = NOTATION.pull  # Attraction: an empty Black Hole pulls a neighbour in
        return [
            pull[h, b] for h in _HOLES if not board[h] for b in _NEIGH[h] if b != p and board[b]
        ]

    def _completions(self) -> list[Action]:
        out = []
        board, colours = self.board, self.colours
        hand = self.hands[self.turn]
        occupied = occupied_keys(board) if hand else []
        memo = _COMPLETE
        for c in hand:
            card = CARDS[c]
            for cells in card.matches(board, colours, _U.centres, occupied):
                action = memo.get((c, cells))
                if action is None:
                    action = shared("complete", (card.id, tuple(_NAMES[i] for i in cells)))
                    memo[c, cells] = action
                out.append(action)
        return out

    # --- applying ------------------------------------------------------------------
    def _apply(self, action: Action, seat: int) -> list[Event]:
        self._legal = None
        self._legal_set = None
        kind = action.kind
        ev: list[Event] = []
        if kind == "draw" or kind == "timeout":
            self._draw(action, seat, ev)
        elif kind == "place":
            self._place(action, seat, ev)
        elif kind in EFFECT_BODY or kind == "skip":
            self._effect(action, seat, ev)
        elif kind == "complete":
            self._complete(action, seat, ev)
        elif kind == "keep":
            self._keep(action, seat, ev)
        elif kind == "done":
            ev.append(Event("missions_done", {"seat": seat}))
            self.phase = NEW_MISSION
        elif kind == "refill":
            self._refill(action, seat, ev)
        elif kind == "take" or kind == "pass":
            self._take(action, seat, ev)
        else:  # pragma: no cover - validate() let something unknown through
            raise AssertionError(kind)
        self._advance(ev)
        return ev

    def _draw(self, action: Action, seat: int, ev: list[Event]) -> None:
        if action.kind == "timeout":
            body = self._random_body(self.bag)
            ev.append(Event("timeout", {"seat": seat}))
        else:
            body = BODY_CODE[str(action.args[0])]
        self.bag[body] -= 1
        self.drawn = body
        self.phase = PLACE
        ev.append(Event("drew", {"seat": seat, "body": BODIES[body]}))

    def _random_body(self, bag: list[int]) -> int:
        k = self.rng.below(bag[1] + bag[2] + bag[3] + bag[4])
        for b in (1, 2, 3, 4):
            if k < bag[b]:
                return b
            k -= bag[b]
        raise AssertionError("empty bag")  # pragma: no cover

    def _place(self, action: Action, seat: int, ev: list[Event]) -> None:
        cell = _IDX[str(action.args[0])]
        body, self.drawn = self.drawn, 0
        self.placed = cell
        if len(action.args) == 2:  # a Comet's Collision
            d = _DIR_INDEX[str(action.args[1])]
            off = self._push(cell, d)
            self.board[cell] = body
            ev.append(Event("placed", {"seat": seat, "body": BODIES[body], "space": _NAMES[cell]}))
            ev.append(self._push_event(seat, "collision", cell, d, off))
            self.phase = MISSIONS
            self._check_empty()
            return
        self.board[cell] = body
        ev.append(Event("placed", {"seat": seat, "body": BODIES[body], "space": _NAMES[cell]}))
        self.token_mode = body == 2 and self._comet_could_collide_before(cell)
        self.phase = EFFECT

    def _comet_could_collide_before(self, cell: int) -> bool:
        """Whether a Comet just put on an empty space had somewhere to collide (then a
        token must replace its effect; otherwise its effect simply had no target)."""
        board = self.board
        return any(board[c] for c in _GALAXY_SPACES if c != cell)

    def _push(self, start: int, d: int) -> int:
        """Push the contiguous line of bodies from ``start`` one step towards ``d``.
        Leaves ``start`` empty; returns the body pushed off the Universe (0: none)."""
        board = self.board
        chain = [start]
        nxt = _STEP[start][d]
        while nxt >= 0 and board[nxt]:
            chain.append(nxt)
            nxt = _STEP[nxt][d]
        off = 0
        if nxt < 0:
            off = board[chain[-1]]
            self.bag[off] += 1
        else:
            board[nxt] = board[chain[-1]]
        for k in range(len(chain) - 1, 0, -1):
            board[chain[k]] = board[chain[k - 1]]
        board[start] = 0
        return off

    def _push_event(self, seat: int, how: str, start: int, d: int, off: int) -> Event:
        data: dict[str, Any] = {
            "seat": seat,
            "effect": how,
            "from": _NAMES[start],
            "direction": _DIRS[d][0],
        }
        if off:
            data["off_edge"] = BODIES[off]
        return Event("effect", data)

    def _effect(self, action: Action, seat: int, ev: list[Event]) -> None:
        p = self.placed
        body = self.board[p]
        kind = action.kind
        board = self.board
        if kind == "skip":
            ev.append(Event("effect", {"seat": seat, "effect": "none"}))
        else:
            eff = EFFECT_BODY[kind]
            if eff != body:
                self.tokens[seat] &= ~(1 << eff)
                ev.append(Event("token", {"seat": seat, "colour": COLOURS[eff]}))
            if kind == "swap":
                a, b = _IDX[str(action.args[0])], _IDX[str(action.args[1])]
                board[a], board[b] = board[b], board[a]
                ev.append(
                    Event(
                        "effect", {"seat": seat, "effect": "swap", "spaces": [_NAMES[a], _NAMES[b]]}
                    )
                )
            elif kind == "push":
                d = _DIR_INDEX[str(action.args[0])]
                q = _STEP[p][d]
                off = self._push(q, d)
                board[q], board[p] = board[p], 0
                self.placed = q
                ev.append(self._push_event(seat, "collision", q, d, off))
            elif kind == "rotate":
                turns = int(str(action.args[0])) // _U.turn_degrees
                self._rotate(_GALAXY_OF[p], turns)
                ev.append(
                    Event(
                        "effect",
                        {
                            "seat": seat,
                            "effect": "rotation",
                            "galaxy": _U.slot_names[_GALAXY_OF[p]],
                            "degrees": turns * _U.turn_degrees,
                        },
                    )
                )
            else:
                h, b = _IDX[str(action.args[0])], _IDX[str(action.args[1])]
                board[h], board[b] = board[b], 0
                ev.append(
                    Event(
                        "effect",
                        {
                            "seat": seat,
                            "effect": "attraction",
                            "hole": _NAMES[h],
                            "from": _NAMES[b],
                        },
                    )
                )
        self.token_mode = False
        self.phase = MISSIONS
        self._check_empty()

    def _rotate(self, g: int, turns: int) -> None:
        """Turn Galaxy ``g`` clockwise: its bodies and its coloured holes move with it."""
        cells = _SLOTS[g]
        perm = _U.turn_perm[turns]
        old = [self.board[c] for c in cells]
        for local in range(len(cells)):
            self.board[cells[perm[local]]] = old[local]
        self.turns[g] = (self.turns[g] + turns) % _U.full_turn
        if self.placed >= 0 and _GALAXY_OF[self.placed] == g:
            self.placed = cells[perm[cells.index(self.placed)]]
        self._recolour_slot(g)

    def _recolour(self) -> None:
        for g in range(len(self.discs)):
            self._recolour_slot(g)

    def _recolour_slot(self, g: int) -> None:
        table = _U.disc_colour[self.discs[g]][self.turns[g]]
        for local, c in enumerate(_SLOTS[g]):
            self.colours[c] = table[local]

    def _complete(self, action: Action, seat: int, ev: list[Event]) -> None:
        c = CARD_INDEX[str(action.args[0])]
        cells = [_IDX[str(n)] for n in action.args[1]]  # type: ignore[union-attr]
        card = CARDS[c]
        self.hands[seat].remove(c)
        self.completed[seat].append(c)
        self.points[seat] += card.points
        ev.append(
            Event(
                "completed",
                {
                    "seat": seat,
                    "mission": card.id,
                    "points": card.points,
                    "spaces": [_NAMES[i] for i in cells],
                },
            )
        )
        if self.points[seat] >= self.game.target and seat not in self.reached:
            self.reached.append(seat)
            if not self.final:
                self.final = True
                ev.append(Event("final_round", {"seat": seat, "reason": "target"}))
        self.keep_cells = cells
        self.phase = KEEP

    def _keep(self, action: Action, seat: int, ev: list[Event]) -> None:
        kept = _IDX[str(action.args[0])]
        back = []
        for c in self.keep_cells:
            if c != kept:
                body = self.board[c]
                self.bag[body] += 1
                self.board[c] = 0
                back.append(BODIES[body])
        self.keep_cells = []
        ev.append(Event("discarded", {"seat": seat, "kept": _NAMES[kept], "to_bag": back}))
        self.phase = MISSIONS
        self._check_empty()

    def _check_empty(self) -> None:
        """Queue each Galaxy left without bodies for a refill (the phase is resumed
        afterwards: Missions, since only effects and discards empty Galaxies)."""
        board = self.board
        for g, cells in enumerate(_SLOTS):
            if g not in self.refill_queue and not any(board[c] for c in cells):
                self.refill_queue.append(g)
        if self.refill_queue and self.phase != REFILL:
            self.phase = REFILL
            self.refill_seats = []

    def _start_refill(self, ev: list[Event]) -> bool:
        """Draw the 5 bodies for the first queued Galaxy; False if nothing can be drawn."""
        g = self.refill_queue[0]
        pool = [0] * 5
        bag = self.bag
        for _ in range(min(REFILL_DRAW, sum(bag))):
            b = self._random_body(bag)
            bag[b] -= 1
            pool[b] += 1
        self.refill_pool = pool
        n = self.game.players
        self.refill_seats = [(self.turn - k) % n for k in range(1, n + 1)]
        ev.append(
            Event(
                "refill_drawn",
                {
                    "seat": self.turn,
                    "galaxy": _U.slot_names[g],
                    "bodies": _pool_json(pool),
                    "order": list(self.refill_seats),
                },
            )
        )
        return sum(pool) > 0

    def _refill(self, action: Action, seat: int, ev: list[Event]) -> None:
        body = BODY_CODE[str(action.args[0])]
        cell = _IDX[str(action.args[1])]
        self.refill_pool[body] -= 1
        self.board[cell] = body
        self.refill_seats.pop(0)
        ev.append(Event("refilled", {"seat": seat, "body": BODIES[body], "space": _NAMES[cell]}))
        if not self.refill_seats or not sum(self.refill_pool):
            self._finish_refill(ev)

    def _finish_refill(self, ev: list[Event]) -> None:
        for b in (1, 2, 3, 4):
            self.bag[b] += self.refill_pool[b]
        if sum(self.refill_pool):
            ev.append(Event("refill_returned", {"bodies": _pool_json(self.refill_pool)}))
        self.refill_pool = [0] * 5
        self.refill_seats = []
        self.refill_queue.pop(0)

    def _take(self, action: Action, seat: int, ev: list[Event]) -> None:
        hand = self.hands[seat]
        if action.kind == "take":
            c = CARD_INDEX[str(action.args[0])]
            if len(action.args) == 2:
                drop = CARD_INDEX[str(action.args[1])]
                hand.remove(drop)
                self.boxed.append(drop)
                ev.append(Event("mission_discarded", {"seat": seat, "mission": CARDS[drop].id}))
            self.available.remove(c)
            hand.append(c)
            ev.append(Event("took", {"seat": seat, "mission": CARDS[c].id}))
            self._refresh(ev)
        else:
            ev.append(Event("kept_hand", {"seat": seat}))
        self._end_turn(ev)

    def _refresh(self, ev: list[Event]) -> None:
        if not self.reserve:
            return
        c = self.reserve.pop()
        self.reveals += 1
        self.available.append(c)
        ev.append(Event("revealed", {"mission": CARDS[c].id, "reserve": len(self.reserve)}))
        if not self.reserve and not self.final:
            self.final = True
            ev.append(Event("final_round", {"seat": self.turn, "reason": "reserve"}))

    def _end_turn(self, ev: list[Event]) -> None:
        self.placed = -1
        self.turn_count += 1
        self.turn = (self.turn + 1) % self.game.players
        if self.final and self.turn == self.first:
            self.phase = OVER
            ev.append(Event("game_over", {"scores": self.scores, "winners": list(self.winners)}))
        else:
            self.phase = DRAW_PHASE
            ev.append(Event("turn", {"seat": self.turn}))

    def _advance(self, ev: list[Event]) -> None:
        """Pass over steps that hold no choice, until someone must decide (or the end)."""
        while True:
            phase = self.phase
            if phase == REFILL:
                if self.refill_seats:
                    break
                if not self.refill_queue:
                    self.phase = MISSIONS
                    continue
                if not self._start_refill(ev):
                    ev.append(
                        Event("refill_impossible", {"galaxy": _U.slot_names[self.refill_queue[0]]})
                    )
                    self._finish_refill(ev)
                continue
            if phase == DRAW_PHASE and not sum(self.bag):
                ev.append(Event("bag_empty", {"seat": self.turn}))
                self.phase = MISSIONS
                continue
            if phase == EFFECT:
                legal = self._effect_options()
                if legal == [SKIP]:
                    ev.append(Event("effect", {"seat": self.turn, "effect": "none"}))
                    self.token_mode = False
                    self.phase = MISSIONS
                    self._check_empty()
                    continue
                self._legal = legal
                break
            if phase == MISSIONS:
                found = self._completions()
                if not found:
                    self.phase = NEW_MISSION
                    continue
                self._legal = [*found, DONE]
                break
            if phase == NEW_MISSION and not self.available:
                ev.append(Event("kept_hand", {"seat": self.turn}))
                self._end_turn(ev)
                continue
            break

    # --- outcome -------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        return [float(self.total(s)) for s in range(self.game.players)]

    def total(self, seat: int) -> int:
        """Missions + unused Influence tokens + one per distinct Mission colour."""
        colours = set(map(_CARD_COLOUR.__getitem__, self.completed[seat]))
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
        s.game, s.rng, s.reveals = self.game, self.rng.copy(), self.reveals
        s.board, s.colours, s.bag = self.board[:], self.colours[:], self.bag[:]
        s.discs, s.turns, s.tokens = self.discs[:], self.turns[:], self.tokens[:]
        s.hands = [h[:] for h in self.hands]
        s.completed = [h[:] for h in self.completed]
        s.points, s.available, s.reserve = self.points[:], self.available[:], self.reserve[:]
        s.boxed, s.reached = self.boxed[:], self.reached[:]
        s.keep_cells, s.refill_queue = self.keep_cells[:], self.refill_queue[:]
        s.refill_pool, s.refill_seats = self.refill_pool[:], self.refill_seats[:]
        s.turn, s.first, s.phase, s.drawn, s.placed = (
            self.turn,
            self.first,
            self.phase,
            self.drawn,
            self.placed,
        )
        s.token_mode, s.final, s.turn_count = self.token_mode, self.final, self.turn_count
        s._legal, s._legal_set = self._legal, self._legal_set  # never mutated in place
        return s

    def to_json(self) -> dict[str, Any]:
        """A snapshot: every list copied, so it never changes as the game goes on."""
        return {
            "rng": self.rng.to_json(),
            "reveals": self.reveals,
            "board": self.board[:],
            "bag": self.bag[:],
            "discs": self.discs[:],
            "turns": self.turns[:],
            "tokens": self.tokens[:],
            "hands": [h[:] for h in self.hands],
            "completed": [h[:] for h in self.completed],
            "points": self.points[:],
            "available": self.available[:],
            "reserve": self.reserve[:],
            "boxed": self.boxed[:],
            "reached": self.reached[:],
            "keep_cells": self.keep_cells[:],
            "refill_queue": self.refill_queue[:],
            "refill_pool": self.refill_pool[:],
            "refill_seats": self.refill_seats[:],
            "turn": self.turn,
            "first": self.first,
            "phase": self.phase,
            "drawn": self.drawn,
            "placed": self.placed,
            "token_mode": self.token_mode,
            "final": self.final,
            "turn_count": self.turn_count,
        }


def _pool_json(pool: list[int]) -> dict[str, int]:
    return {BODIES[b]: pool[b] for b in (1, 2, 3, 4) if pool[b]}


__all__ = ["CARDS", "EFFECTS", "PHASES", "UNIVERSE", "StelliumGame", "StelliumState"]
