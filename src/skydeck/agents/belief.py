"""Determinisation: full states a seat could be in, built from what the seat knows.

An agent is handed a view, never a state, yet tree search needs states to play on. A
:class:`Belief` turns (view, seat) into a *seed* state consistent with the view, then
draws one determinisation per search iteration with the game's own ``State.resample``.

Where the seed comes from, in order:

1. the game's support ``from_view`` hook (:mod:`skydeck.agents.support`), which is the
   engine's own ``Game.from_view`` for every game that declares ``has_from_view`` (all
   four Skydeck games): the view alone decides the seed, so two true states with the
   same view give the same search;
2. for games without that capability, a bound :class:`MatchRecord` (the public log a
   host already keeps): it is replayed and immediately resampled for the seat, and only
   that resample is kept, so nothing hidden from the seat survives into the search.

Every determinisation also gets a fresh RNG: a state's generator is hidden information
too (it decides future draws, dice and reshuffles), so the search must never inherit it.
"""

from __future__ import annotations

import json
from typing import Any

from skydeck.agents.support import GameSupport
from skydeck.core import Action, Game, Rng, State
from skydeck.core.record import MatchRecord


class NoBelief(RuntimeError):
    """The agent cannot rebuild a state from this view (no hook, no record)."""


def view_key(view: dict[str, Any]) -> str:
    """A canonical text of a view: equal views give equal keys."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def reseed(state: State, rng: Rng) -> State:
    state.rng = Rng(rng.next64(), state.rng.draws)
    return state


class Belief:
    """The states a seat considers possible at one decision."""

    def __init__(
        self,
        game: Game,
        support: GameSupport,
        view: dict[str, Any],
        legal: list[Action],
        seat: int,
        rng: Rng,
        record: MatchRecord | None = None,
    ) -> None:
        self.game, self.seat, self.rng = game, seat, rng
        self.seed_state = self._seed(support, view, seat, record)
        self._check(view, legal)

    def _seed(
        self, support: GameSupport, view: dict[str, Any], seat: int, record: MatchRecord | None
    ) -> State:
        if support.from_view is not None:
            return reseed(support.from_view(self.game, view, seat, self.rng.spawn()), self.rng)
        if record is not None:
            if record.game != self.game.id or record.options != self.game.options:
                raise NoBelief(f"the bound record is of another game: {record.game}")
            true_state = self.game.new(record.seed)
            for entry in record.entries:
                true_state.apply(entry.action, entry.seat)
            seed = true_state.resample(seat, self.rng.spawn())
            del true_state
            return reseed(seed, self.rng)
        raise NoBelief(
            f"{self.game.id}: no from_view support and no match record bound; "
            "cannot rebuild a state from the view"
        )

    def _check(self, view: dict[str, Any], legal: list[Action]) -> None:
        state = self.seed_state
        if self.seat not in state.to_move:
            raise NoBelief(
                f"{self.game.id}: rebuilt state has to_move={state.to_move}, seat {self.seat} "
                "is not among them (view and record out of step?)"
            )
        if set(state.legal_actions(self.seat)) != set(legal):
            raise NoBelief(
                f"{self.game.id}: rebuilt state offers other legal actions than the host "
                f"for seat {self.seat} (view and record out of step?)"
            )
        if view_key(state.view(self.seat)) != view_key(view):
            raise NoBelief(f"{self.game.id}: rebuilt state does not show seat {self.seat} its view")

    def sample(self) -> State:
        """One determinisation: hidden parts and the RNG re-drawn."""
        return reseed(self.seed_state.resample(self.seat, self.rng), self.rng)
