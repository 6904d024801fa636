"""The template's state: plain lists, so clone() is a few list copies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, Rng, State, private
from skydeck.core.fields import FieldTable, int_lists, ints, value

if TYPE_CHECKING:
    from .game import TemplateGame

#: Cards in a hand.
HAND = 2

#: Every field of the state, named once: clone, to_json and restore all come from it
#: (add a field here, not in three methods).
FIELDS = FieldTable(
    "template",
    [ints("deck"), int_lists("hands"), int_lists("played"), value("turn"), value("reveals")],
)


class TemplateState(State):
    game: TemplateGame

    def __init__(self, game: TemplateGame, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.deck: list[int] = []
        self.hands: list[list[int]] = []
        self.played: list[list[int]] = []
        self.turn = 0
        self.reveals = 0

    @property
    def to_move(self) -> tuple[int, ...]:
        return (self.turn,) if any(self.hands) else ()

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        return [Action("play", (card,)) for card in sorted(self.hands[seat])]

    def _apply(self, action: Action, seat: int) -> list[Event]:
        card = int(action.args[0])  # type: ignore[arg-type]
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        events = [Event("played", {"seat": seat, "card": card})]
        if self.deck:
            drawn = self.deck.pop()
            self.hands[seat].append(drawn)
            self.reveals += 1
            events.append(private("drew", seat, {"seat": seat, "card": drawn}, {"seat": seat}))
        n = self.game.players
        self.turn = (self.turn + 1) % n
        while any(self.hands) and not self.hands[self.turn]:
            self.turn = (self.turn + 1) % n
        return events

    @property
    def scores(self) -> list[float]:
        return [float(sum(p)) for p in self.played]

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "deck_size": len(self.deck),
            "hands": [sorted(h) if seat == i else len(h) for i, h in enumerate(self.hands)],
            "played": [p[:] for p in self.played],
            "turn": self.turn if self.to_move else None,
            "scores": self.scores,
            "reveals": self.reveals,
        }

    def resample(self, seat: int | None, rng: Rng) -> TemplateState:
        s = self.clone()
        pool = list(self.deck)
        for i, h in enumerate(self.hands):
            if i != seat:
                pool.extend(h)
        rng.shuffle(pool)
        for i, h in enumerate(s.hands):
            if i != seat:
                s.hands[i] = [pool.pop() for _ in h]
        s.deck = pool
        return s

    def clone(self) -> TemplateState:
        s = type(self).__new__(type(self))
        s.game, s.rng = self.game, self.rng.copy()
        FIELDS.copy(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        """A snapshot: it shares no list with the live state."""
        return {"rng": self.rng.to_json(), **FIELDS.dump(self)}
