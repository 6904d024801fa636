"""A tiny hidden-information game used to test the core and the conformance suite
itself, before and besides the real games.

Nine cards 1-9 are shuffled; each seat holds two face down. On a turn a seat either
plays a card face up (scoring it) and draws a replacement, or sets the public marker
(a free, undoable action that reveals nothing). The match ends when all hands are
empty; the highest total wins.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Event, Game, OptionSpec, Rng, State, private


class ToyGame(Game):
    id = "toy"
    title = "Toy"
    player_counts = (2, 3)
    option_specs = (
        OptionSpec("marker_limit", "int", 3, "how often a seat may set the marker", min=0),
    )

    def new(self, seed: int) -> ToyState:
        s = ToyState(self, Rng(seed))
        deck = list(range(1, 10))
        s.rng.shuffle(deck)
        s.hands = [[deck.pop(), deck.pop()] for _ in range(self.players)]
        s.deck = deck
        return s

    def restore(self, obj: dict[str, Any]) -> ToyState:
        try:
            s = ToyState(self, Rng.from_json(obj["rng"]))
            s.deck = list(obj["deck"])
            s.hands = [list(h) for h in obj["hands"]]
            s.played = [list(p) for p in obj["played"]]
            s.turn, s.marker, s.marks, s.reveals = (
                obj["turn"],
                obj["marker"],
                obj["marks"],
                obj["reveals"],
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"toy: malformed state: {exc}") from None
        return s


class ToyState(State):
    def __init__(self, game: ToyGame, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.deck: list[int] = []
        self.hands: list[list[int]] = []
        self.played: list[list[int]] = [[] for _ in range(game.players)]
        self.turn = 0
        self.marker = 0
        self.marks = 0
        self.reveals = 0

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if not any(self.hands) else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        acts = [Action("play", (c,)) for c in sorted(self.hands[seat])]
        if self.marks < self.game.options["marker_limit"]:
            acts.append(Action("mark", (self.marker + 1,)))
        return acts

    def _apply(self, action: Action, seat: int) -> list[Event]:
        if action.kind == "mark":
            self.marker = int(action.args[0])  # type: ignore[arg-type]
            self.marks += 1
            return [Event("marked", {"seat": seat, "marker": self.marker})]
        card = action.args[0]
        self.hands[seat].remove(card)  # type: ignore[arg-type]
        self.played[seat].append(card)  # type: ignore[arg-type]
        events = [Event("played", {"seat": seat, "card": card})]
        if self.deck:
            drawn = self.deck.pop()
            self.hands[seat].append(drawn)
            self.reveals += 1
            events.append(private("drew", seat, {"seat": seat, "card": drawn}, {"seat": seat}))
        self.marks = 0
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
            "deck_size": len(self.deck),
            "hands": [sorted(h) if seat == i else len(h) for i, h in enumerate(self.hands)],
            "played": self.played,
            "turn": self.turn,
            "marker": self.marker,
            "marks": self.marks,
        }

    def resample(self, seat: int | None, rng: Rng) -> ToyState:
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

    def clone(self) -> ToyState:
        s = ToyState.__new__(ToyState)
        s.game, s.rng = self.game, self.rng.copy()
        s.deck = self.deck[:]
        s.hands = [h[:] for h in self.hands]
        s.played = [p[:] for p in self.played]
        s.turn, s.marker, s.marks, s.reveals = self.turn, self.marker, self.marks, self.reveals
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_json(),
            "deck": self.deck,
            "hands": self.hands,
            "played": self.played,
            "turn": self.turn,
            "marker": self.marker,
            "marks": self.marks,
            "reveals": self.reveals,
        }
