"""The template's options, set-up, restore and declared capabilities."""

from __future__ import annotations

from typing import Any

from skydeck.core import Game, Rng
from skydeck.core.capabilities import Capabilities, Uses

from .state import FIELDS, HAND, TemplateState


class TemplateGame(Game):
    id = "template"
    title = "High Card"
    player_counts = (2, 3)
    option_specs = ()
    #: Every seat's view shows only its own hand: the views differ, so not public.
    public_views = False
    #: A search rebuilds states from a view (``from_view``), never from the true state.
    has_from_view = True
    capabilities = Capabilities(uses=Uses(frozenset({"play"})))
    #: The State class ``new``, ``from_view`` and ``restore`` build (a variant of the
    #: game, such as the tests' toy game, builds its own).
    state_class: type[TemplateState] = TemplateState

    def new(self, seed: int) -> TemplateState:
        s = self.state_class(self, Rng(seed))
        deck = list(range(1, 10))
        s.rng.shuffle(deck)
        s.hands = [[deck.pop() for _ in range(HAND)] for _ in range(self.players)]
        s.deck = deck
        s.played = [[] for _ in range(self.players)]
        return s

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> TemplateState:
        """The public table as it is; the hands ``seat`` cannot see and the deck's
        order drawn with ``rng`` from the cards nobody has seen played."""
        s = self.state_class(self, Rng(rng.below(2**62)))
        s.played = [[int(c) for c in p] for p in view["played"]]
        mine = [] if seat is None else [int(c) for c in view["hands"][seat]]
        seen = set(mine).union(*map(set, s.played))
        pool = [c for c in range(1, 10) if c not in seen]
        rng.shuffle(pool)
        s.hands = [
            mine[:] if i == seat else [pool.pop() for _ in range(int(h))]
            for i, h in enumerate(view["hands"])
        ]
        s.deck = pool
        s.turn = view["turn"] if view["turn"] is not None else 0
        s.reveals = int(view["reveals"])
        return s

    def restore(self, obj: dict[str, Any]) -> TemplateState:
        try:
            s = self.state_class(self, Rng.from_json(obj["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{self.id}: malformed state: rng: {exc}") from None
        FIELDS.load(s, obj, who=self.id)
        if len(s.hands) != self.players or len(s.played) != self.players:
            raise ValueError(f"{self.id}: malformed state: not one hand per seat")
        return s
