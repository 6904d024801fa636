"""ExpeditionState: the engine contract over the plain data and the rule functions; its
views and resampling are view.py's."""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, Game, IllegalAction, Rng, State, player_name
from skydeck.games.expedition import command, drone, flow, modules
from skydeck.games.expedition.content import Content
from skydeck.games.expedition.data_state import (
    StateData,
    copy_fields,
    fields_from_json,
    fields_json,
    new_data,
)
from skydeck.games.expedition.view import build_view, resample


class ExpeditionState(StateData, State):
    """The engine contract over the plain data (``StateData``); the rules are the
    functions of effects, modules, drone, sensor, flow and command."""

    #: moves applied to this object (neither saved nor cloned): while it stands still the
    #: position stands still, so the RL environment need not re-validate an action from
    #: the legal list it just handed out (``skydeck.games.expedition.encode.moves``)
    applied = 0
    #: the seat and the actions ``legal_actions`` last handed out, until the next move:
    #: one of those very objects played back needs no second generation (``validate``).
    #: Neither saved nor cloned; any other action (parsed text, a copy) is checked in full
    _offered: tuple[int, tuple[Action, ...]] | None = None

    def __init__(self, game: Game, content: Content, rng: Rng) -> None:
        self.game = game
        new_data(self, content, game.players, rng)
        rank = game.options.get("solo_rank")
        self.is_solo = rank is not None
        self.rank = rank or ""
        self.turns = game.players + (1 if self.is_solo else 0)
        self.drone_faction = getattr(game, "drone_faction_index", -1)

    # --- turn structure ------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == "over":
            return ()
        if self.pending:
            return (self.pending[-1]["s"],)
        if self.phase == "draft":
            return tuple(s for s in range(self.n) if not self.picked[s])
        if self.phase == "powers":
            return (self.acted,)
        if self.phase == "start":
            return (flow.to_place(self),)
        return (self.turn,)

    @property
    def is_over(self) -> bool:
        """``not self.to_move`` without building the tuple (asked every step): only
        the end, or a draft whose every seat has picked, leaves nobody to move."""
        if self.phase == "over":
            return True
        return not self.pending and self.phase == "draft" and all(self.picked)

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            return []
        acts = command.actions_for(self, seat)
        self._offered = (seat, tuple(acts))
        return acts

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.applied += 1
        self._offered = None
        return command.dispatch(self, seat, action)

    # --- outcome ----------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        return [float(modules.points(self, s)) for s in range(self.n)]

    def tiebreak(self, seat: int) -> tuple[int, int, int]:
        return modules.points(self, seat), self.crew_levels(seat), len(self.loc_cards[seat])

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != "over":
            return ()
        if self.is_solo:  # the drone has no crew and no Location cards: ties go to the player
            return (0,) if modules.points(self, 0) >= drone.drone_points(self) else ()
        best = max(self.tiebreak(s) for s in range(self.n))
        return tuple(s for s in range(self.n) if self.tiebreak(s) == best)

    # --- information ------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def resample(self, seat: int | None, rng: Rng) -> ExpeditionState:
        return resample(self, seat, rng)

    # --- copies and storage ----------------------------------------------------------------
    def clone(self) -> ExpeditionState:
        """The field table's copy (data_state.TABLE): constants shared, data copied;
        ``applied`` starts again at 0 (it counts moves applied to this object)."""
        s = ExpeditionState.__new__(ExpeditionState)
        s.game, s.rng = self.game, self.rng.copy()
        copy_fields(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        return {"rng": self.rng.to_json(), **fields_json(self)}

    @classmethod
    def from_json(cls, game: Game, content: Content, obj: dict[str, Any]) -> ExpeditionState:
        if not isinstance(obj, dict):
            raise ValueError("expedition: a state must be a JSON object")
        s = cls(game, content, Rng.from_json(obj.get("rng", {})))
        try:
            fields_from_json(s, obj)
        except (TypeError, KeyError) as exc:
            raise ValueError(f"expedition: malformed state: {exc}") from None
        if len(s.hand) != s.n:
            raise ValueError("expedition: state does not match the number of players")
        if not s.filled:  # saved before the third-Embassy rule: nothing filled this round
            s.filled = [[] for _ in range(s.n)]
        if not s.ready:  # ... before special actions waited for their moment
            s.ready = [[] for _ in range(s.n)]
        return s

    def validate(self, action: Action, seat: int) -> None:
        """Membership in the legal actions: found by identity in the list just handed
        out (``_offered``), else generated again; in a free Command turn only the
        actions of the same kind are generated (the others cannot match)."""
        offered = self._offered
        if offered is not None and offered[0] == seat and id(action) in map(id, offered[1]):
            return
        if (
            self.phase == "command"
            and not self.pending
            and isinstance(seat, int)
            and seat == self.turn
        ):
            legal = command.command_actions(self, seat, action.kind)
        else:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(f"'{action}' is not a legal action for {player_name(seat)} now")
