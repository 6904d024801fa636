"""The Stellarion state: plain lists of small ints (see cards.py), so clone() is a
handful of list copies and tree search can afford millions of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, IllegalAction, Rng, State, player_name
from skydeck.core.fields import FieldTable, int_lists, integer, ints, shared, value
from skydeck.games.stellarion import effects, legal
from skydeck.games.stellarion.legal import END, MAIN, OVER, Key
from skydeck.games.stellarion.view import make_view
from skydeck.games.stellarion.view import resample as _resample

if TYPE_CHECKING:
    from skydeck.games.stellarion.game import StellarionGame

#: the state's fields, in snapshot order: the one list clone, to_json and restore read
FIELDS = FieldTable(
    "stellarion",
    [
        value("reason", str),
        *(
            integer(name)
            for name in (
                "stars",
                "sun",
                "held",
                "turn",
                "phase",
                "outcome",
                "turns",
                "p_type",
                "p_major",
                "p_left",
                "p_started",
                "p_deck",
                "p_take",
                "reveals",
                "breakthrough",
            )
        ),
        *(
            ints(name)
            for name in (
                *("up", "ktop", "kbot", "outpost"),
                *("theories", "proven", "meteors", "p_cards"),
            )
        ),
        *(int_lists(name) for name in ("decks", "discards", "columns", "piles")),
        shared("_legal"),  # never changed in place: a move replaces it
        shared("_list"),
    ],
)


class StellarionState(State):
    """Decks keep their top card at the end of the list. ``up[d]``: the top is face up
    (in the Observatory). ``ktop[d]`` / ``kbot[d]``: how many cards from the top / from
    the bottom the players know (seen and not shuffled since)."""

    game: StellarionGame

    def __init__(self, game: StellarionGame, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.reveals = 0
        self.decks: list[list[int]] = [[] for _ in range(8)]
        self.up = [0] * 8
        self.ktop = [0] * 8
        self.kbot = [0] * 8
        self.discards: list[list[int]] = [[] for _ in range(8)]
        self.outpost: list[int] = []
        self.columns: list[list[int]] = []
        self.piles: list[list[int]] = [[] for _ in range(game.players)]
        self.stars = 0
        self.theories: list[int] = []
        self.proven: list[int] = []
        self.breakthrough = -1  # the Type whose Coordinate is upgraded, -1 without Theories
        self.sun = game.sun_start
        self.meteors: list[int] = []
        self.held = 0
        self.turn = 0
        self.phase = MAIN
        self.outcome = 0
        self.reason = ""
        self.turns = 1
        # the Coordinate (or Traverse) being resolved
        self.p_type = 0
        self.p_major = 0
        self.p_left = 0
        self.p_started = 0
        self.p_deck = -1
        self.p_take = 0
        self.p_cards: list[int] = []
        self._legal: dict[Action, Key] | None = None
        self._list: list[Action] | None = None

    # --- turn structure -------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        return (self.turn,)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _table(self) -> dict[Action, Key]:
        table = self._legal
        if table is None:
            table = self._legal = legal.generate(self)
            self._list = list(table)
        return table

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.turn:
            return []
        if self._legal is None:
            self._table()
        assert self._list is not None
        return list(self._list)

    def validate(self, action: Action, seat: int) -> None:
        if action not in self._table():
            raise IllegalAction(f"'{action}' is not a legal action for {player_name(seat)} now")

    def apply(self, action: Action, seat: int) -> list[Event]:
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if self.phase == OVER:
            raise IllegalAction(f"the match is over; {player_name(seat)} cannot play {action}")
        if seat != self.turn or type(seat) is not int:
            raise IllegalAction(
                f"{player_name(seat)} may not act now (to move: {player_name(self.turn)})"
            )
        key = self._table().get(action)
        if key is None:
            raise IllegalAction(f"'{action}' is not a legal action for {player_name(seat)} now")
        return self._do(key, action, seat)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        return self._do(self._table()[action], action, seat)

    def _do(self, key: Key, action: Action, seat: int) -> list[Event]:
        data: dict[str, Any] = {"seat": seat, "action": self.game.text(action)}
        tops = effects.used_tops(self, key)
        if tops:
            data["cards"] = tops
        events = [Event("action", data)]
        effects.apply_key(self, key, seat, events)
        self._legal = None
        self.settle(events)
        return events

    def settle(self, events: list[Event] | None = None) -> None:
        """Play the forced steps: an end-of-turn step offering a single action, and the
        loss check at the start of a turn. Only those two phases need the legal table
        here; in the others (a power's choices, a Stars look, ...) it is left to be
        built on first use: a search that clones a position's every child and keeps one
        would otherwise build tables it never reads (legal.py has no randomness, so
        building later gives the same table)."""
        if events is None:
            events = []
        while True:
            phase = self.phase
            if phase == OVER:
                self._legal, self._list = {}, []
                return
            if phase != END and phase != MAIN:
                return
            table = self._table()
            if phase == END and len(table) == 1:
                ((_action, key),) = table.items()
                effects.apply_key(self, key, self.turn, events)
                self._legal = None
                continue
            if phase == MAIN and not any(k[0] in "LCT" for k in table.values()):
                if free_win(self, table):
                    return  # only free actions are left, and they still win (RULINGS 8)
                why = f"{player_name(self.turn)} can neither Launch nor Coordinate"
                effects.finish(self, -1, why)
                events.append(Event("lost", {"reason": self.reason}))
                continue
            return

    # --- outcome --------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        return [1.0 if self.outcome > 0 else 0.0] * self.game.players

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(range(self.game.players)) if self.outcome > 0 else ()

    # --- information ----------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return make_view(self, seat)

    def resample(self, seat: int | None, rng: Rng) -> StellarionState:
        return _resample(self, seat, rng)

    # --- copies and storage ---------------------------------------------------------
    def clone(self) -> StellarionState:
        s = StellarionState.__new__(StellarionState)
        s.__dict__.update(self.__dict__)
        s.rng = self.rng.copy()
        FIELDS.copy_mutable(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        return {"rng": self.rng.to_json(), **FIELDS.dump(self)}

    @classmethod
    def from_json(cls, game: StellarionGame, obj: dict[str, Any]) -> StellarionState:
        try:
            s = cls(game, Rng.from_json(obj["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"stellarion: malformed state: rng: {exc!r}") from None
        FIELDS.load(s, obj)
        if len(s.decks) != 8 or len(s.piles) != game.players or len(s.up) != 8:
            raise ValueError("stellarion: malformed state: wrong number of decks or piles")
        if not 0 <= s.phase <= OVER or not 0 <= s.turn < game.players:
            raise ValueError(f"stellarion: malformed state: phase {s.phase}, turn {s.turn}")
        if any(c >> 5 != d for d in range(8) for c in s.decks[d] + s.discards[d]):
            raise ValueError("stellarion: malformed state: a card is in another deck's pile")
        s.settle()
        return s


def free_win(s: StellarionState, table: dict[Action, Key]) -> bool:
    """Can free actions alone (two Meteors for a Voyage, proving a Theory) still win?

    The win comes "as soon as" the last Voyage is acquired and Meteors are spent
    "whenever you choose", so a turn with no Launch or Coordinate is lost only when no
    sequence of free actions completes the game first. Searched on clones: at most a
    few Meteor trades and Theory proofs, and only when a turn would otherwise be lost.
    """
    for key in table.values():
        if key[0] not in ("P", "M"):
            continue
        t = s.clone()
        effects.apply_key(t, key, t.turn, [])
        if t.outcome > 0:
            return True
        if t.phase == MAIN and free_win(t, legal.generate(t)):
            return True
    return False
