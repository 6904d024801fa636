"""A tiny hidden-information game used to test the core and the conformance suite
itself: the template's High Card (``games/_template``) with one thing more, a free
action.

Nine cards 1-9 are shuffled; each seat holds two face down. On a turn a seat either
plays a card face up (scoring it) and draws a replacement, or sets the public marker
(a free, undoable action that reveals nothing, at most ``marker_limit`` times a turn).
The match ends when all hands are empty; the highest total wins. Unlike the template,
it cannot rebuild a state from a view (``has_from_view`` is False), so the tests can
give it an inversion of their own.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, Game, OptionSpec, Rng
from skydeck.games._template.game import TemplateGame
from skydeck.games._template.state import TemplateState


class ToyState(TemplateState):
    game: ToyGame

    def __init__(self, game: ToyGame, rng: Rng) -> None:
        super().__init__(game, rng)
        self.played = [[] for _ in range(game.players)]
        self.marker = 0
        self.marks = 0

    def legal_actions(self, seat: int) -> list[Action]:
        acts = super().legal_actions(seat)
        if acts and self.marks < self.game.options["marker_limit"]:
            acts.append(Action("mark", (self.marker + 1,)))
        return acts

    def _apply(self, action: Action, seat: int) -> list[Event]:
        if action.kind == "mark":
            self.marker = int(action.args[0])  # type: ignore[arg-type]
            self.marks += 1
            return [Event("marked", {"seat": seat, "marker": self.marker})]
        self.marks = 0
        return super()._apply(action, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**super().view(seat), "marker": self.marker, "marks": self.marks}

    def clone(self) -> ToyState:
        s = super().clone()
        assert isinstance(s, ToyState)
        s.marker, s.marks = self.marker, self.marks
        return s

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "marker": self.marker, "marks": self.marks}


class ToyGame(TemplateGame):
    id = "toy"
    title = "Toy"
    option_specs = (
        OptionSpec("marker_limit", "int", 3, "how often a seat may set the marker", min=0),
    )
    has_from_view = False
    from_view = Game.from_view  # the contract's default: Unsupported
    state_class = ToyState

    def restore(self, obj: dict[str, Any]) -> ToyState:
        s = super().restore(obj)
        assert isinstance(s, ToyState)
        try:
            s.marker, s.marks = int(obj["marker"]), int(obj["marks"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"toy: malformed state: {exc}") from None
        return s
