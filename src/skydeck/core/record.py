"""Event-sourced match records: a header plus the ordered action log.

A match is fully described by (game id, options, seed, seats, actions); replaying the
log rebuilds every state, so a record is all that storage, replays, crash recovery and
analysis need.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skydeck.core.action import Action
from skydeck.core.errors import IllegalAction
from skydeck.core.event import Event
from skydeck.core.game import Game, State

RECORD_VERSION = 1

#: Makes a game from its id and options. Core cannot import the registry above it, so
#: ``skydeck.registry`` hands its ``load`` over here when it is imported (and
#: ``import skydeck`` imports it, so every use of the package has it).
_load: Callable[..., Game] | None = None


def use_loader(load: Callable[..., Game]) -> None:
    """Set how a record makes its game: ``load(game_id, **options)``."""
    global _load
    _load = load


@dataclass
class Entry:
    seat: int
    action: Action
    t: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action.to_json(), "t": self.t}


@dataclass
class MatchRecord:
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    version: int = RECORD_VERSION

    def make_game(self) -> Game:
        if _load is None:
            raise RuntimeError("no game registry: import skydeck.registry first")
        return _load(self.game, **self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "header": {
                "game": self.game,
                "options": self.options,
                "seed": self.seed,
                "seats": self.seats,
                "created": self.created,
                "version": self.version,
            },
            "actions": [e.to_json() for e in self.entries],
        }

    @classmethod
    def from_json(cls, obj: Any) -> MatchRecord:
        try:
            head = obj["header"]
            rec = cls(
                game=str(head["game"]),
                options=dict(head["options"]),
                seed=int(head["seed"]),
                seats=list(head.get("seats", [])),
                created=float(head.get("created", 0.0)),
                version=int(head.get("version", RECORD_VERSION)),
            )
            game = rec.make_game()
            for i, e in enumerate(obj["actions"]):
                try:
                    rec.entries.append(
                        Entry(
                            int(e["seat"]), game.action_from_json(e["action"]), float(e.get("t", 0))
                        )
                    )
                except (KeyError, TypeError, ValueError, IllegalAction) as exc:
                    raise ValueError(f"match record: action #{i} is malformed: {exc}") from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed match record: missing or bad field {exc}") from None
        if rec.version > RECORD_VERSION:
            raise ValueError(f"match record version {rec.version} is newer than this Skydeck")
        return rec

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        return cls.from_json(json.loads(Path(path).read_text()))

    def replay(self) -> Iterator[tuple[State, Entry | None, list[Event]]]:
        """Yield (state, entry that led here, its events), starting with the initial
        state. The yielded state is live: clone it to keep it."""
        state = self.make_game().new(self.seed)
        yield state, None, []
        for i, entry in enumerate(self.entries):
            try:
                events = state.apply(entry.action, entry.seat)
            except IllegalAction as exc:
                raise ValueError(
                    f"record does not replay: action #{i} ({entry.action}): {exc}"
                ) from None
            yield state, entry, events

    def final_state(self) -> State:
        final: State | None = None
        for final, _, _ in self.replay():  # noqa: B007 - we want the last one
            pass
        assert final is not None
        return final


class Match:
    """A live match: the current state, its record and its event log, with undo.

    Undo steps back one action only when that action neither used randomness nor
    revealed hidden information (``State.info_epoch`` unchanged), so it can never be
    used to peek at a card or re-roll a die.
    """

    def __init__(self, game: Game, seed: int, seats: list[str] | None = None) -> None:
        self.game = game
        self.record = MatchRecord(game.id, dict(game.options), seed, seats or [])
        self.state = game.new(seed)
        self.events: list[list[Event]] = []
        self._epochs: list[Any] = [self.state.info_epoch()]

    @classmethod
    def from_record(cls, record: MatchRecord) -> Match:
        match = cls(record.make_game(), record.seed, list(record.seats))
        for entry in record.entries:
            match.play(entry.seat, entry.action, t=entry.t)
        return match

    def play(self, seat: int, action: Action | str, t: float | None = None) -> list[Event]:
        if isinstance(action, str):
            action = self.game.parse_action(action)
        events = self.state.apply(action, seat)
        self.record.entries.append(Entry(seat, action, time.time() if t is None else t))
        self.events.append(events)
        self._epochs.append(self.state.info_epoch())
        return events

    def can_undo(self) -> bool:
        return bool(self.record.entries) and self._epochs[-1] == self._epochs[-2]

    def undo(self) -> Entry:
        """Take back the last action; IllegalAction if it used chance or revealed anything."""
        if not self.record.entries:
            raise IllegalAction("nothing to undo")
        if not self.can_undo():
            raise IllegalAction("cannot undo: the last action revealed information or used chance")
        entry = self.record.entries.pop()
        self.events.pop()
        self._epochs.pop()
        state = self.game.new(self.record.seed)
        for e in self.record.entries:
            state.apply(e.action, e.seat)
        self.state = state
        return entry
