"""The engine contract every game honours (see ARCHITECTURE.md).

A :class:`Game` is a rules definition with validated options; it makes
:class:`State` objects. A state knows whose turn it is, which actions are legal, how to
apply one (all or nothing), what each seat may see, and how to copy, resample and
serialise itself. Everything random comes from the state's own :class:`Rng`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from skydeck.core.action import Action
from skydeck.core.capabilities import Capabilities
from skydeck.core.errors import IllegalAction, Unsupported
from skydeck.core.event import Event
from skydeck.core.options import OptionSpec
from skydeck.core.rng import Rng


def seat_name(names: Sequence[str], seat: Any) -> str:
    """The name people see for a 0-based seat ("Player 1" when no name is known)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat + 1}" if isinstance(seat, int) else str(seat)


def generic_event_sentence(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """ "Player 1: drew, body planet": the fallback of :meth:`Game.describe_event`,
    for a game that does not name an event (numbers and words only, never JSON)."""
    kind = str(event.get("kind", "event")).replace("_", " ")
    parts = []
    for key, value in event.items():
        if key in ("kind", "seat", "text"):
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            continue
        parts.append(f"{key.replace('_', ' ')} {str(value).replace('_', ' ')}")
    who = f"{seat_name(names, event['seat'])}: " if event.get("seat") is not None else ""
    text = f"{who}{kind}" + (f" ({', '.join(parts)})" if parts else "")
    return text[0].upper() + text[1:]


#: Game terms that open a command and are conjugated as a whole ("Warp Jump to ...").
_TERMS = ("Warp Jump",)


def third_person(command: str) -> str:
    """ "Play Fia Rusk" -> "plays Fia Rusk": a move's command as the log tells it after
    a player's name, so the log reads as sentences ("Player 2 plays Fia Rusk"), never as
    the buttons' commands. Only the opening verb changes."""
    text = command.strip()
    for term in _TERMS:
        if text.startswith(term):
            return term + "s" + text[len(term) :]
    verb, sep, rest = text.partition(" ")
    if not verb:
        return text
    low = verb[0].lower() + verb[1:]
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        low += "es"
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        low = low[:-1] + "ies"
    else:
        low += "s"
    return low + sep + rest


def player_name(seat: object) -> str:
    """How people see a seat: "Player 1".."Player N" (seats are 0-based only in code,
    JSON and the API). Anything that is no seat number is shown as given."""
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return f"Player {seat + 1}"
    return f"seat {seat!r} (no such player)"


def player_names(seats: Iterable[int]) -> str:
    """ "Player 1, Player 3" (for messages naming the seats to move)."""
    return ", ".join(player_name(s) for s in seats) or "nobody"


class Game(ABC):
    """A game's rules with one set of options. Cheap to make; immutable once made."""

    id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: Declared capability: :meth:`from_view` can rebuild a full state from a view.
    #: The conformance suite checks the inversion of every game that declares it.
    has_from_view: ClassVar[bool] = False
    #: Declared capability: every seat's view is the spectator's, ``view(None)``, with
    #: its own ``seat`` (what is hidden is hidden from everyone). A server then builds
    #: one view per update for all its clients. The conformance suite checks it.
    public_views: ClassVar[bool] = False
    #: Declared capability: every move is public as it is made. Its label tells no seat
    #: more than the public views before and after it (two legal choices that leave the
    #: same public view have the same label, or the same whole effect), so a server shows
    #: every seat every move's label at once instead of only at the end. The
    #: conformance suite checks it.
    public_actions: ClassVar[bool] = False
    #: What the fronts need beyond the contract (clocks, study columns, RL id and
    #: shaping, solver): one declaration, read by the server, sim, rl and the CLI.
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, **options: Any) -> None:
        known = {spec.name for spec in self.option_specs} | {"players"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"{self.id}: unknown option(s) {', '.join(unknown)}; "
                f"known options: {', '.join(sorted(known))}"
            )
        players = options.get("players", self.player_counts[0])
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or players not in self.player_counts
        ):
            raise ValueError(
                f"{self.id}: players must be one of {list(self.player_counts)}, got {players!r}"
            )
        self.players: int = players
        checked = {
            spec.name: spec.check(options.get(spec.name), players, self.id)
            for spec in self.option_specs
        }
        self.options: dict[str, Any] = {
            "players": players,
            **self.validate_options({"players": players, **checked}),
        }

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The rules that tie options together (one option only with another, a default
        drawn from another): ``options`` holds ``players`` and every option already
        checked against its spec, defaults filled. Return the full option dict
        (JSON-ready), or raise ValueError naming the game and the bad option. Each
        option's own kind, choices and range are its :class:`OptionSpec`'s to check,
        not this hook's. Default: the options as given."""
        return options

    @abstractmethod
    def new(self, seed: int) -> State:
        """A new match, all randomness drawn from ``seed``."""

    @abstractmethod
    def restore(self, obj: dict[str, Any]) -> State:
        """Rebuild a state from ``State.to_json()``; ValueError on a malformed object."""

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> State:
        """One full state consistent with ``view`` (what ``seat`` sees; None: a
        spectator): its ``view(seat)`` equals ``view`` and ``seat`` has the same legal
        actions; every hidden part (other hands, deck orders, the state's own RNG) is
        drawn with ``rng`` only, never taken from a true state.

        Why: search agents get views, never states, yet need states to play on
        (determinisation, then ``State.resample``); a server or terminal can also
        resume from a client's view without the match record. Games that support it set
        ``has_from_view = True``; this default raises :class:`Unsupported`.
        """
        raise Unsupported(
            f"{self.id}: this game cannot rebuild a state from a view "
            f"({type(self).__name__}.has_from_view is False)"
        )

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def action_from_json(self, obj: Any) -> Action:
        return Action.from_json(obj)

    def describe(self, action: Action, view: Mapping[str, Any] | None = None) -> str:
        """The action as a sentence: the one description of a move, for menus (the
        terminal's and the page's) and logs (defaults to the notation). ``view``, the
        seat's view when a menu is drawn, lets a game name what that seat sees (the
        cards on a deck's top, its own hand); without it the sentence names only what the
        action says, as a log of past moves must."""
        return str(action)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        """One plain sentence for a log line, e.g. "Player 2 drew a Comet".

        ``event`` is the event as one seat sees it (``Event.for_seat``: ``kind`` plus
        its data, hidden parts already removed), ``names`` the seats' display names.
        ``state``, when given, is the state after the move or a later one; a game may
        read only public parts of it that never change once public (which ship a card
        on the table is, which tile lies on a cell), so that the sentence never tells
        what the event filter hid. Why here: the web log, the
        replays and ``skydeck replay`` print the same sentences. Games override this;
        the default is a readable generic sentence (the kind and its plain values).
        """
        return generic_event_sentence(event, names)

    def card_texts(self) -> dict[str, dict[str, Any]]:
        """Every card face of this set-up in words, by content id: ``{"kind", "name",
        "lines"}``. Why: a UI writes out the cards a player must judge and shows a full
        card on hover; the faces never change during a match, so they are fetched once
        (``/api/matches/{id}/cards``) instead of riding in every view. Default: none."""
        return {}

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """Option sets the conformance suite plays; games add their variants."""
        return [{"players": n} for n in cls.player_counts]

    @classmethod
    def describe_options(cls) -> dict[str, Any]:
        return {
            "id": cls.id,
            "title": cls.title,
            "players": list(cls.player_counts),
            "options": [s.to_json() for s in cls.option_specs],
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


class State(ABC):
    """One moment of a match. Subclasses keep plain data so that clone() is cheap."""

    game: Game
    rng: Rng
    #: Counts reveals of hidden information that did not come from the RNG
    #: (e.g. turning up a known deck's top card); undo never crosses a change of it.
    reveals: int = 0

    # --- turn structure -------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now (several in simultaneous phases); () when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty if it may not act)."""

    def apply(self, action: Action, seat: int) -> list[Event]:
        """Apply ``action`` for ``seat``; IllegalAction (state untouched) if not allowed."""
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if seat not in self.to_move:
            if self.is_over:
                raise IllegalAction(f"the match is over; {player_name(seat)} cannot play {action}")
            raise IllegalAction(
                f"{player_name(seat)} may not act now (to move: {player_names(self.to_move)})"
            )
        self.validate(action, seat)
        return self._apply(action, seat)

    def validate(self, action: Action, seat: int) -> None:
        """Raise IllegalAction unless ``action`` is legal for ``seat``. Games with
        parameterised (continuous) actions override this."""
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"'{action}' is not a legal action for {player_name(seat)} now")

    def accepts(self, action: Action, seat: int) -> bool:
        """Whether ``validate(action, seat)`` would pass, as a plain answer. The server
        asks it after every move for each timed action (clocks.py); games whose
        refusal builds a message override it with a direct test of the same rule."""
        try:
            self.validate(action, seat)
        except IllegalAction:
            return False
        return True

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> list[Event]:
        """Mutate the state for a validated action and return its events."""

    # --- outcome --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.to_move

    @property
    @abstractmethod
    def scores(self) -> list[float]:
        """One score per seat (for co-op games: the team result on every seat)."""

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Seats that won; () while playing or when everybody lost."""

    # --- information ----------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-ready: exactly what ``seat`` may know (None: a spectator)."""

    @abstractmethod
    def resample(self, seat: int | None, rng: Rng) -> State:
        """A full state whose view(seat) equals this one's, hidden parts re-drawn."""

    # --- copies and storage ---------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: used by tree search)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything needed by ``game.restore`` (JSON-ready)."""

    def info_epoch(self) -> Hashable:
        """Changes whenever randomness is used or hidden information is revealed."""
        return (self.rng.draws, self.reveals)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} to_move={self.to_move}>"
