"""Stellium's Game: options, set-up, restore, and what it declares to the fronts."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from skydeck.core import Action, Game, OptionSpec, Rng, State
from skydeck.core.capabilities import Capabilities, SeatFacets, TimedAction, Uses
from skydeck.games.stellium.describe import describe as _describe_action
from skydeck.games.stellium.describe import describe_event as _describe_event
from skydeck.games.stellium.inverse import from_view as _from_view
from skydeck.games.stellium.rules import effects, phases
from skydeck.games.stellium.state import FIELDS, StelliumState
from skydeck.games.stellium.tables import AVAILABLE, CARDS, SLOTS, TARGETS, UNIVERSE


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
        discs = list(range(len(SLOTS)))
        rng.shuffle(discs)
        s.discs = discs
        s.turns = [rng.below(UNIVERSE.full_turn) for _ in discs]
        for g, cells in enumerate(SLOTS):
            bodies = [1, 2, 3, 4]
            rng.shuffle(bodies)
            starts = UNIVERSE.disc_start[discs[g]][s.turns[g]]
            for local, body in zip(starts, bodies):
                s.board[cells[local]] = body
                s.bag[body] -= 1
        effects.recolour(s)
        deck = list(range(len(CARDS)))
        rng.shuffle(deck)
        k = AVAILABLE[self.players]
        s.available = deck[:k]
        s.reserve = deck[k:]
        s.first = s.turn = rng.below(self.players)
        phases.advance(s, [])
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
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"stellium: malformed state: rng: {exc!r}") from None
        FIELDS.load(s, obj)
        if len(s.board) != UNIVERSE.size or len(s.bag) != 5 or len(s.tokens) != self.players:
            raise ValueError("stellium: malformed state: board, bag or tokens have the wrong size")
        effects.recolour(s)
        return s

    def describe(self, action: Action, view: Mapping[str, Any] | None = None) -> str:
        """Everything a Stellium move names is public: the view adds nothing."""
        return _describe_action(action)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        return _describe_event(event, names)
