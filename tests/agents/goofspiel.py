"""Goofspiel, a small game with a simultaneous phase and hidden information, to test the
search where the toy game (whose result the deal decides) cannot: a good player beats a
random one by a wide margin.

Each seat holds bid cards 1..N; N prize cards are shuffled face down. Each round one
prize is turned up and both seats bid a card at the same time (the first bid stays
hidden until the second is in); the higher bid takes the prize, a tie discards it.
Highest prize total wins.
"""

from __future__ import annotations

from typing import Any

from skydeck.agents.support import GameSupport
from skydeck.core import Action, Event, Game, OptionSpec, Rng, State, private


class Goofspiel(Game):
    id = "goofspiel"
    title = "Goofspiel"
    player_counts = (2,)
    option_specs = (OptionSpec("cards", "int", 6, "cards per suit", min=1, max=13),)

    def new(self, seed: int) -> GoofState:
        s = GoofState(self, Rng(seed))
        n = self.options["cards"]
        s.prizes = list(range(1, n + 1))
        s.rng.shuffle(s.prizes)
        s.hands = [list(range(1, n + 1)), list(range(1, n + 1))]
        s.prize = s.prizes.pop()
        return s

    def restore(self, obj: dict[str, Any]) -> GoofState:
        s = GoofState(self, Rng.from_json(obj["rng"]))
        s.prizes, s.hands, s.bids = (
            list(obj["prizes"]),
            [list(h) for h in obj["hands"]],
            list(obj["bids"]),
        )
        s.prize, s.won, s.reveals = obj["prize"], list(obj["won"]), obj["reveals"]
        return s


class GoofState(State):
    def __init__(self, game: Goofspiel, rng: Rng) -> None:
        self.game, self.rng = game, rng
        self.prizes: list[int] = []
        self.hands: list[list[int]] = []
        self.bids: list[int] = [0, 0]
        self.prize = 0
        self.won = [0, 0]
        self.reveals = 0

    @property
    def to_move(self) -> tuple[int, ...]:
        if self.prize == 0:
            return ()
        return tuple(i for i in (0, 1) if self.bids[i] == 0)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        return [Action("bid", (c,)) for c in self.hands[seat]]

    def _apply(self, action: Action, seat: int) -> list[Event]:
        card = int(action.args[0])  # type: ignore[arg-type]
        self.hands[seat].remove(card)
        self.bids[seat] = card
        events = [private("bid", seat, {"seat": seat, "card": card}, {"seat": seat})]
        if 0 in self.bids:
            return events
        a, b = self.bids
        if a != b:
            self.won[0 if a > b else 1] += self.prize
        events.append(Event("round", {"bids": [a, b], "prize": self.prize}))
        self.bids = [0, 0]
        self.prize = self.prizes.pop() if self.prizes else 0
        self.reveals += 1
        return events

    @property
    def scores(self) -> list[float]:
        return [float(w) for w in self.won]

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        a, b = self.won
        return (0, 1) if a == b else ((0,) if a > b else (1,))

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hands": self.hands
            if seat is None
            else [
                h if i == seat or self.bids[i] == 0 else sorted([*h, self.bids[i]])
                for i, h in enumerate(self.hands)
            ],
            "bid_in": [b != 0 for b in self.bids],
            "own_bid": self.bids[seat] if seat is not None else None,
            "prizes_left": sorted(self.prizes),
            "prize": self.prize,
            "won": self.won,
        }

    def resample(self, seat: int | None, rng: Rng) -> GoofState:
        s = self.clone()
        rng.shuffle(s.prizes)
        for i in (0, 1):
            if i != seat and s.bids[i]:
                pool = sorted([*s.hands[i], s.bids[i]])
                s.bids[i] = pool.pop(rng.below(len(pool)))
                s.hands[i] = pool
        return s

    def clone(self) -> GoofState:
        s = GoofState.__new__(GoofState)
        s.game, s.rng = self.game, self.rng.copy()
        s.prizes, s.hands, s.bids = self.prizes[:], [h[:] for h in self.hands], self.bids[:]
        s.prize, s.won, s.reveals = self.prize, self.won[:], self.reveals
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_json(),
            "prizes": self.prizes,
            "hands": self.hands,
            "bids": self.bids,
            "prize": self.prize,
            "won": self.won,
            "reveals": self.reveals,
        }


def goof_from_view(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> GoofState:
    assert isinstance(game, Goofspiel)
    s = GoofState(game, Rng(rng.next64()))
    s.prizes = list(view["prizes_left"])
    rng.shuffle(s.prizes)
    s.prize, s.won = view["prize"], list(view["won"])
    s.hands = [list(h) for h in view["hands"]]
    s.bids = [0, 0]
    s.bids[seat] = view["own_bid"] or 0
    other = 1 - seat
    if view["bid_in"][other]:
        pool = s.hands[other]
        s.bids[other] = pool.pop(rng.below(len(pool)))
    return s


SEARCH_SUPPORT = GameSupport(from_view=goof_from_view, score_scale=5.0)
