"""The boardgame.io anchor's own game, for a like-for-like server comparison.

``../shared/anchors/bgio`` measures boardgame.io on a two-player counter: each move
adds one to a shared number and passes the turn, and the match ends after 200 moves.
Skydeck's bench plays real Stellium (a rules engine, views of a board, legal-action
lists, log sentences), so its figures mix the server's own cost with the game's. This
is the same counter as a Skydeck game, so ``skydeck bench server --match-game counter``
measures what the server itself costs per move against boardgame.io's server on the
same game. It is not one of the four games: only the bench's server knows it
(``bench_games``), never the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skydeck.core import Action, Event, Game, OptionSpec, Rng, State
from skydeck.registry import with_games

#: The anchor's K: moves in a match.
MOVES = 200
INC = Action("inc")


class CounterGame(Game):
    id = "counter"
    title = "Counter (benchmark)"
    player_counts = (2,)
    option_specs = (OptionSpec("moves", "int", MOVES, "moves before the match ends", min=1),)
    public_views = True
    public_actions = True

    def new(self, seed: int) -> CounterState:
        return CounterState(self, Rng(seed))

    def restore(self, obj: dict[str, Any]) -> CounterState:
        try:
            s = CounterState(self, Rng.from_json(obj["rng"]))
            s.n, s.turn = int(obj["n"]), int(obj["turn"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"counter: malformed state: {exc}") from None
        return s


class CounterState(State):
    game: CounterGame

    def __init__(self, game: CounterGame, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.n = 0
        self.turn = 0

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.n >= self.game.options["moves"] else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        return [INC] if seat in self.to_move else []

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.n += 1
        self.turn = 1 - seat
        return [Event("inc", {"seat": seat, "n": self.n})]

    @property
    def scores(self) -> list[float]:
        return [0.0, 0.0]

    @property
    def winners(self) -> tuple[int, ...]:
        return ()  # the anchor's match ends without a winner

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "n": self.n, "turn": self.turn, "moves": self.game.options["moves"]}

    def resample(self, seat: int | None, rng: Rng) -> CounterState:
        return self.clone()  # nothing is hidden

    def clone(self) -> CounterState:
        s = CounterState(self.game, self.rng.copy())
        s.n, s.turn = self.n, self.turn
        return s

    def to_json(self) -> dict[str, Any]:
        return {"rng": self.rng.to_json(), "n": self.n, "turn": self.turn}


def bench_games() -> tuple[Callable[[str], type[Game]], Callable[[], list[str]]]:
    """``create_app``'s ``games`` and ``list_games`` for a bench server: every game,
    and the counter."""
    return with_games(CounterGame)
