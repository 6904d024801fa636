"""A Stellar Conflict match: Preparation, simultaneous Deployment, Battle, Scoring.

Phases and who acts (``to_move``):
- ``preparation``: every seat not yet ready, secretly (``buy`` ships, then ``ready``);
- ``deployment``: every seat still holding a card (``place x y angle`` or ``done``).
  Timed, it ends at the alarm: with the ``model`` clock each seat has time for
  ``game.cards_in_time`` cards; with a ``real`` clock the server sends ``timeout``
  with the card each seat is moving on the table (deployed there if legal, else
  removed). Light speed: a seat deploying its last card calls "stop" at once; the
  cards others hold are removed (model), or the server reports them (real);
- ``last_card`` (light speed, real clock only): after a stop, the seats still holding
  a card wait for the server's report (``timeout``) or take the card back (``done``);
- ``alarm`` (real clock only): after the alarm or the stop's report, each seat whose
  reported card lies frozen on the table chooses ``deploy`` (where it is, if legal) or
  ``remove``; the server's ``close`` ends the step for seats that did not answer
  (deployed if legal, else removed, RULINGS 15);
- ``battle``: every seat; any ``fire`` resolves the next initiative step;
- ``over``.
See VIEW.md for the view and the action notation, RULINGS.md for interpretations.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from skydeck.core import Action, Event, IllegalAction, Rng, State, private
from skydeck.core.fields import FieldTable, bools, custom, int_lists, ints, shared, value
from skydeck.games.conflict import battle as b
from skydeck.games.conflict.battle import (
    C_ALIVE,
    C_ANGLE,
    C_CUBES,
    C_DAMAGE,
    C_OWNER,
    C_SHIP,
    C_X,
    C_Y,
)
from skydeck.games.conflict.view import build_view, resample

if TYPE_CHECKING:
    from skydeck.games.conflict.game import ConflictGame

PREP, DEPLOY, LAST, BATTLE, OVER = "preparation", "deployment", "last_card", "battle", "over"
ALARM = "alarm"
PHASES = (PREP, DEPLOY, LAST, ALARM, BATTLE, OVER)
READY, DONE, FIRE, TIMEOUT = Action("ready"), Action("done"), Action("fire"), Action("timeout")
#: The alarm's keep-or-remove step: lift the finger (the card lands where it is frozen)
#: or take it away; ``close`` is the server's end of the step (its grace period).
DEPLOY_HERE, REMOVE, CLOSE = Action("deploy"), Action("remove"), Action("close")
#: ship id -> its ``buy`` action: Preparation's legal lists hand out the same objects
#: every time, as Deployment's do (``shapes.place_action``), so callers that look
#: actions up by identity (skydeck.rl's catalogue) skip the dataclass hash
_BUY: dict[str, Action] = {}


def _buy(ship_id: str) -> Action:
    action = _BUY.get(ship_id)
    if action is None:
        action = _BUY[ship_id] = Action("buy", (ship_id,))
    return action


#: Preparation's ``to_move`` per tuple of ready flags, and Battle's (every seat) per
#: player count: ``to_move`` is read several times a step, and these are few
_WAITING: dict[tuple[Any, ...], tuple[int, ...]] = {}
_EVERYONE = {n: tuple(range(n)) for n in range(9)}
_OWNER = itemgetter(C_OWNER)
#: (content, race) -> that fleet's regular ships as (ship, cost, its ``buy`` Action),
#: in box order, and as ship id -> (ship, cost): Preparation's legal list filters the
#: first, its validation looks a bought ship up in the second (``content`` is kept
#: in the entry, so its id stays unique)
_Shop = tuple[tuple[tuple[int, int, Action], ...], dict[str, tuple[int, int]]]
_SHOP: dict[tuple[int, str], tuple[Any, _Shop]] = {}


def _shop(content: Any, race: str) -> _Shop:
    entry = _SHOP.get((id(content), race))
    if entry is None or entry[0] is not content:
        ships = content.ships
        items = tuple((i, ships[i].cost, _buy(ships[i].id)) for i in content.regulars_of(race))
        ids = {ships[i].id: (i, cost) for i, cost, _a in items}
        entry = _SHOP[(id(content), race)] = (content, (items, ids))
    return entry[1]


class ConflictState(State):
    game: ConflictGame

    def __init__(self, game: ConflictGame, rng: Rng) -> None:
        n = game.players
        self.game = game
        self.rng = rng
        self.reveals = 0
        self.phase = PREP
        self.fleets: list[list[int]] = [[] for _ in range(n)]  # chosen regular ships
        self.ready = [False] * n
        self.decks: list[list[int]] = [[] for _ in range(n)]  # top card last
        self.hands = [-1] * n  # the card being played, -1 none
        self.done = [False] * n  # stopped deploying
        self.cards: list[list[Any]] = []  # see battle.C_*
        self.kills: list[list[int]] = [[] for _ in range(n)]
        self.dealt = [0] * n  # damage tokens each colour has put on ships
        self.returned = [0] * n  # ... and got back (destruction, regeneration)
        self.vaporised = 0
        self.supply = game.content.table.cube_supply  # cubes still in the box
        self.step = 0
        self.initiative = -1
        self.last_shots: list[dict[str, Any]] = []
        self.stopped_by = -1  # light speed: the seat that called "stop"
        #: the alarm step: where each seat's card lies frozen, None: no frozen card
        self.frozen: list[tuple[int, int, int] | None] = [None] * n
        #: the free grid spots as a mask (``Shapes.free_mask``), None until needed:
        #: a placement cache, replaced whole (never changed in place)
        self._free: int | None = None
        #: battle.fire_step's geometry of the cards on the table (cards never move)
        self._step_cache: tuple[Any, ...] | None = None

    # --- turn structure -----------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        ph = self.phase
        if ph == BATTLE:
            n = self.game.players
            return _EVERYONE.get(n) or tuple(range(n))
        if ph == PREP:
            key = tuple(self.ready)
            waiting = _WAITING.get(key)
            if waiting is None:
                waiting = _WAITING[key] = tuple(i for i, r in enumerate(key) if not r)
            return waiting
        if ph in (DEPLOY, LAST):
            hands, done = self.hands, self.done
            if hands and min(hands) >= 0 and not any(done):  # (most of Deployment)
                return _EVERYONE.get(len(hands)) or tuple(range(len(hands)))
            return tuple([i for i in range(len(hands)) if hands[i] >= 0 and not done[i]])
        if ph == ALARM:
            return tuple(i for i, f in enumerate(self.frozen) if f is not None)
        return ()

    def credits_left(self, seat: int) -> int:
        ships = self.game.content.ships
        return self.game.credits - sum([ships[i].cost for i in self.fleets[seat]])

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        ph = self.phase
        if ph == PREP:
            left = self.credits_left(seat)
            mine = self.fleets[seat]
            shop = _shop(self.game.content, self.game.races[seat])[0]
            out = [buy for i, cost, buy in shop if i not in mine and cost <= left]
            out.append(READY)
            return out
        if ph == DEPLOY:
            acts = self.game.shapes.mask_actions(self._free_mask())
            acts.append(DONE)
            return acts
        if ph == LAST:
            return [DONE]  # the card stays where it is: only the server's report places it
        if ph == ALARM:
            return [DEPLOY_HERE, REMOVE] if self._frozen_error(seat) is None else [REMOVE]
        return [FIRE]

    def free_placements(self) -> list[tuple[int, int, int]]:
        """The grid spots a card may go to now, in grid order."""
        return self.game.shapes.mask_spots(self._free_mask())

    def _free_mask(self) -> int:
        free = self._free
        if free is None:
            free = self._free = self.game.shapes.free_mask(self._occupied())
        return free

    def _occupied(self) -> list[tuple[int, int, int]]:
        return [(c[C_X], c[C_Y], c[C_ANGLE]) for c in self.cards if c[C_ALIVE]]

    def validate(self, action: Action, seat: int) -> None:
        kind, args, ph = action.kind, action.args, self.phase
        if ph == PREP:
            if kind == "ready" and not args:
                return
            if kind == "buy" and len(args) == 1 and isinstance(args[0], str):
                regular = _shop(self.game.content, self.game.races[seat])[1].get(args[0])
                if (
                    regular is not None
                    and regular[0] not in self.fleets[seat]
                    and regular[1] <= self.credits_left(seat)
                ):
                    return  # a regular ship of the seat's fleet, not bought, affordable
                idx = self.game.content.by_id.get(args[0])
                ships = self.game.content.ships
                if idx is None or ships[idx].race != self.game.races[seat]:
                    raise IllegalAction(
                        f"{args[0]!r} is not a ship of the {self.game.races[seat]} fleet"
                    )
                if ships[idx].role != "ship":
                    raise IllegalAction(
                        f"{ships[idx].name} is always in the deck: it is not bought"
                    )
                if idx in self.fleets[seat]:
                    raise IllegalAction(f"{ships[idx].name} is already in your fleet")
                if ships[idx].cost > self.credits_left(seat):
                    raise IllegalAction(
                        f"{ships[idx].name} costs {ships[idx].cost} credits; "
                        f"only {self.credits_left(seat)} left"
                    )
                return
            raise IllegalAction(f"'{action}' is not a Preparation action (buy SHIP, ready)")
        if ph in (DEPLOY, LAST):
            if kind == "done" and not args:
                return
            if kind == "timeout":
                if ph == DEPLOY and not self.game.timed:
                    raise IllegalAction(
                        "'timeout' is the timer's alarm: a Light Speed deployment has none "
                        "(it stops when a seat deploys its last card)"
                    )
                if not self.game.real_clock:
                    raise IllegalAction(
                        "'timeout' is the server clock's alarm: with the model clock no "
                        "server clock runs (each seat's alarm rings after the cards it has "
                        "time for, RULINGS 15)"
                    )
                self._check_reports(args)
                return
            if kind == "place":
                if ph == LAST:
                    raise IllegalAction(
                        "stop was called: the card in hand stays where it is (the "
                        "server reports it) or goes back to the box with 'done'"
                    )
                self._check_place(args)
                return
            raise IllegalAction(f"'{action}' is not a Deployment action (place x y angle, done)")
        if ph == ALARM:
            if kind in ("deploy", "remove", "close") and args:
                raise IllegalAction(f"'{kind}' takes no arguments: the card stays where it is")
            if kind == "remove" or kind == "close":
                return
            if kind == "deploy":
                why = self._frozen_error(seat)
                if why is not None:
                    raise IllegalAction(f"your card cannot be deployed where it is: {why}")
                return
            raise IllegalAction(
                f"'{action}' is not an action after the alarm: your card is frozen where it "
                "is ('deploy' it there or 'remove' it)"
            )
        if ph == BATTLE and kind == "fire" and not args:
            return
        raise IllegalAction(f"'{action}' is not legal in the {ph} phase")

    def _check_reports(self, args: tuple[Any, ...]) -> None:
        """``timeout SEAT X Y ANGLE ...``: where each listed seat is moving its card at
        the alarm. A spot need not be legal (an illegal one removes the card), but the
        report itself must name seats holding a card, once each, in whole numbers."""
        if len(args) % 4 or not all(type(a) is int for a in args):
            raise IllegalAction(
                "timeout takes groups of four whole numbers: seat, x and y in millimetres, "
                f"angle in degrees (the card each seat is moving), got {list(args)}"
            )
        seen: set[int] = set()
        holders = self.to_move
        for k in range(0, len(args), 4):
            seat = args[k]
            if seat in seen:
                raise IllegalAction(f"timeout reports Player {seat + 1}'s card twice")
            if seat not in holders:
                raise IllegalAction(
                    f"timeout reports a card for Player {seat + 1}, who is not playing one "
                    f"(playing a card: {', '.join(f'Player {h + 1}' for h in holders) or 'nobody'})"
                )
            seen.add(seat)

    def _check_place(self, args: tuple[Any, ...]) -> None:
        if len(args) != 3 or not (type(args[0]) is type(args[1]) is type(args[2]) is int):
            raise IllegalAction(
                "place needs three whole numbers: x and y in millimetres, angle in degrees"
            )
        bit = self.game.shapes.spot_bit.get(args)
        if bit is not None and self._free_mask() >> bit & 1:
            return  # a free grid spot (the free mask is the same test, made once)
        why = self._spot_error(*args, self._occupied())
        if why:
            raise IllegalAction(why)

    # --- applying -----------------------------------------------------------------
    def _apply(self, action: Action, seat: int) -> list[Event]:
        kind = action.kind
        if kind == "buy":
            self.fleets[seat].append(self.game.content.by_id[str(action.args[0])])
            # The others see that a ship was chosen, never which (the fleet is chosen
            # in secret; the log tells "Player 2 adds a ship to the fleet").
            return [private(kind, seat, {"seat": seat, "ship": action.args[0]}, {"seat": seat})]
        if kind == "ready":
            self.ready[seat] = True
            events = [Event("ready", {"seat": seat})]
            if all(self.ready):
                events.extend(self._start_deployment())
            return events
        if kind == "place":
            return self._place(seat, action.args)  # type: ignore[arg-type]
        if kind == "done":
            return self._withdraw(seat)
        if kind == "timeout":
            events = []
            if self.phase == DEPLOY:  # the timer's alarm (in last_card: the stop's report)
                events.append(Event("stop", {"why": "timeout", "seat": None}))
            return events + self._alarm(action.args)  # type: ignore[arg-type]
        if kind == "deploy":
            return self._unfreeze(seat, True) + self._after_alarm()
        if kind == "remove":
            return self._unfreeze(seat, False) + self._after_alarm()
        if kind == "close":
            return self._close()
        if kind == "fire":
            events = b.fire_step(self)
            if b.next_initiative(self) is None:
                events.extend(self._finish())
            return events
        raise AssertionError(f"unvalidated action {action}")  # pragma: no cover

    def _start_deployment(self) -> list[Event]:
        g = self.game
        content = g.content
        meteor = "meteor" in g.options["variants"]
        events: list[Event] = []
        for seat in range(g.players):
            race = g.races[seat]
            middle = list(self.fleets[seat])
            self.rng.shuffle(middle)
            deck = [content.flagship_of(race), *middle]
            if not meteor:
                deck.append(content.cargo_of(race))
            self.decks[seat] = deck
        if meteor:
            events.extend(self._place_meteors())
        self.phase = DEPLOY
        events.append(
            Event("deployment", {"decks": [len(d) for d in self.decks], "timed": g.timed})
        )
        for seat in range(g.players):
            events.append(self._draw(seat))
        return events

    def _place_meteors(self) -> list[Event]:
        """Meteors go on the table before Deployment, at random legal grid spots."""
        g = self.game
        count = g.options["meteors"]
        cubes = g.cubes_per_source * g.players // count
        chosen = list(g.content.meteors)
        self.rng.shuffle(chosen)
        events = []
        for ship in chosen[:count]:
            free = self.free_placements()
            x, y, a = free[self.rng.below(len(free))]
            self.cards.append(b.new_card(ship, b.NEUTRAL, x, y, a, cubes))
            self.supply -= cubes
            self._free = None
            events.append(
                Event(
                    "meteor",
                    {"card": len(self.cards) - 1, "ship": g.content.ships[ship].id,
                     "x": x, "y": y, "angle": a, "cubes": cubes},
                )
            )  # fmt: skip
        return events

    def _draw(self, seat: int) -> Event:
        deck = self.decks[seat]
        if not deck:
            self.hands[seat] = -1
            return Event("deck_empty", {"seat": seat})
        card = deck.pop()
        self.hands[seat] = card
        self.reveals += 1
        return private(
            "drew",
            seat,
            {"seat": seat, "ship": self.game.content.ships[card].id, "deck": len(deck)},
            {"seat": seat, "deck": len(deck)},
        )

    def _place(self, seat: int, args: tuple[int, int, int]) -> list[Event]:
        x, y, angle = args
        ship = self.hands[seat]
        self.cards.append(b.new_card(ship, seat, x, y, angle))
        if self._free is not None:  # a new card only removes spots near it
            self._free &= ~self.game.shapes.blocked_bits((x, y, angle))
        self.reveals += 1
        events = [
            Event(
                "placed",
                {"seat": seat, "card": len(self.cards) - 1,
                 "ship": self.game.content.ships[ship].id, "x": x, "y": y, "angle": angle},
            )
        ]  # fmt: skip
        cap = self.game.cards_in_time
        if cap is not None and self.deployed_by(seat) >= cap:
            # the model's alarm for this seat: no time for another card
            self.hands[seat] = -1
            self.decks[seat] = []
            self.done[seat] = True
            events.append(Event("time_up", {"seat": seat, "cards": cap}))
            return events + self._maybe_end_deployment()
        events.append(self._draw(seat))
        if self.hands[seat] < 0 and self.game.options["deployment"] == "light_speed":
            self.done[seat] = True
            return events + self._stop("stop", seat)
        return events + self._maybe_end_deployment()

    def _withdraw(self, seat: int) -> list[Event]:
        self.hands[seat] = -1
        self.decks[seat] = []
        self.done[seat] = True
        events = [Event("done", {"seat": seat})]
        return events + self._maybe_end_deployment()

    def deployed_by(self, seat: int) -> int:
        """Cards ``seat`` has put on the table (its modelled time spent, RULINGS 15)."""
        return list(map(_OWNER, self.cards)).count(seat)  # (no generator: every placement)

    def _stop(self, why: str, by: int) -> list[Event]:
        """A seat deployed its last card and called stop (Light Speed): the other decks
        go back to the box. The cards others are playing stay where they are: with a
        real clock the server reports them (``timeout`` in ``last_card``); in the time
        model nobody is moving a card on the table, so they are removed."""
        self.stopped_by = by
        for seat in range(self.game.players):
            self.decks[seat] = []
        events = [Event("stop", {"why": why, "seat": by if by >= 0 else None})]
        if self.game.real_clock:
            self.phase = LAST
            return events + self._maybe_end_deployment()
        return events + self._alarm(())

    def _alarm(self, args: tuple[int, ...]) -> list[Event]:
        """The alarm (timed) or the stop's report (Light Speed): nobody draws any more. A
        reported card that lies on the table touching no card there freezes where it is
        and its player chooses to deploy it there or remove it (the ``alarm`` step); any
        other card in hand is removed. Deployment ends when no card is frozen."""
        events: list[Event] = []
        reports = {args[k]: (args[k + 1], args[k + 2], args[k + 3]) for k in range(0, len(args), 4)}
        occupied = self._occupied()
        for seat in range(self.game.players):
            card = self.hands[seat]
            if card < 0 or self.done[seat]:
                continue
            why = "it was not on the table"
            if seat in reports:
                why = self._spot_error(*reports[seat], occupied) or ""
            if not why:
                self.frozen[seat] = reports[seat]
                x, y, angle = reports[seat]
                events.append(Event("frozen", {"seat": seat, "x": x, "y": y, "angle": angle}))
                continue
            self.hands[seat] = -1
            self.done[seat] = True
            events.append(Event("removed", {"seat": seat, "why": why}))
        for seat in range(self.game.players):
            self.decks[seat] = []
        self._free = None
        if any(f is not None for f in self.frozen):
            self.phase = ALARM
            return events
        return events + self._maybe_end_deployment()

    def _frozen_error(self, seat: int) -> str | None:
        """Why ``seat``'s frozen card cannot be deployed where it is now (it touches
        another frozen card or one deployed there since the alarm); None if it can."""
        spot = self.frozen[seat]
        assert spot is not None
        others = [f for s, f in enumerate(self.frozen) if f is not None and s != seat]
        why = self.game.shapes.placement_error(*spot, self._occupied() + others)
        if why is None:
            return None
        if self.game.shapes.placement_error(*spot, self._occupied()) is None:
            return "it touches another card frozen at the same moment"
        return why

    def _unfreeze(self, seat: int, deploy: bool, why: str = "its player removed it") -> list[Event]:
        """``seat``'s frozen card lands where it is (``deploy``) or leaves the game."""
        card, spot = self.hands[seat], self.frozen[seat]
        assert spot is not None
        self.frozen[seat] = None
        self.hands[seat] = -1
        self.done[seat] = True
        if not deploy:
            return [Event("removed", {"seat": seat, "why": why})]
        x, y, angle = spot
        self.cards.append(b.new_card(card, seat, x, y, angle))
        self.reveals += 1
        self._free = None
        data = {"seat": seat, "card": len(self.cards) - 1,
                "ship": self.game.content.ships[card].id,
                "x": x, "y": y, "angle": angle, "at_alarm": True}  # fmt: skip
        return [Event("placed", data)]

    def _close(self) -> list[Event]:
        """The server's grace period is over: every card still frozen lands where it is
        if that is legal (touching no card, frozen or not), else it is removed."""
        events: list[Event] = []
        waiting = [s for s, f in enumerate(self.frozen) if f is not None]
        why = {s: self._frozen_error(s) for s in waiting}
        for seat in waiting:
            events += self._unfreeze(seat, why[seat] is None, why[seat] or "")
        return events + self._after_alarm()

    def _after_alarm(self) -> list[Event]:
        if any(f is not None for f in self.frozen):
            return []
        return self._maybe_end_deployment()

    def _spot_error(self, x: int, y: int, angle: int, occupied: list[Any]) -> str | None:
        """Why a card cannot lie at (x, y, angle) on the table now; None if it can."""
        if not 0 <= angle < 360:
            return f"angle must be 0-359 degrees, got {angle}"
        sh = self.game.shapes
        if not (0 <= x <= sh.width and 0 <= y <= sh.height):
            return f"({x}, {y}) is off the {sh.width} x {sh.height} mm table"
        return sh.placement_error(x, y, angle, occupied)

    def _maybe_end_deployment(self) -> list[Event]:
        if self.to_move:
            return []
        g = self.game
        for seat in range(g.players):
            self.decks[seat] = []
            self.hands[seat] = -1
        events: list[Event] = []
        ships = g.content.ships
        for uid, c in enumerate(self.cards):
            if ships[c[C_SHIP]].role == "cargo":
                c[C_CUBES] = g.cubes_per_source
                self.supply -= g.cubes_per_source
                events.append(Event("cargo", {"card": uid, "cubes": g.cubes_per_source}))
        self.phase = BATTLE
        events.append(Event("battle", {"next": b.next_initiative(self)}))
        if b.next_initiative(self) is None:
            events.extend(self._finish())
        return events

    def _finish(self) -> list[Event]:
        self.phase = OVER
        return [Event("over", {"scores": self.scores, "winners": list(self.winners)})]

    def kill_pile_for(self, card: list[Any]) -> int:
        """Whose kill pile a destroyed ship joins; -1: vaporised (a tie of others)."""
        owner = card[C_OWNER]
        n = self.game.players
        if n == 2:
            return 1 - owner
        tally = [0] * n
        for seat in card[C_DAMAGE]:
            tally[seat] += 1
        best = max(tally)
        tied = [s for s in range(n) if tally[s] == best]
        if owner in tied:
            return int(owner)
        return tied[0] if len(tied) == 1 else -1

    # --- outcome ------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        ships = self.game.content.ships
        out = [0.0] * self.game.players
        for seat, pile in enumerate(self.kills):
            for uid in pile:
                c = self.cards[uid]
                vp = ships[c[C_SHIP]].vp
                out[seat] += -vp if c[C_OWNER] == seat else vp
        for c in self.cards:
            if c[C_ALIVE] and c[C_OWNER] >= 0:
                out[c[C_OWNER]] += c[C_CUBES]
        return out

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != OVER:
            return ()
        sc = self.scores
        best = max(sc)
        return tuple(i for i, s in enumerate(sc) if s == best)

    # --- information --------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def resample(self, seat: int | None, rng: Rng) -> ConflictState:
        return resample(self, seat, rng)

    # --- copies -------------------------------------------------------------------
    def clone(self) -> ConflictState:
        s = ConflictState.__new__(ConflictState)
        s.game, s.rng = self.game, self.rng.copy()
        FIELDS.copy(self, s)
        return s

    def to_json(self) -> dict[str, Any]:
        """A snapshot: it shares no list with the live state, so it never changes as the
        match goes on (and ``restore`` of it gives this moment back)."""
        return {"rng": self.rng.to_json(), **FIELDS.dump(self)}

    @classmethod
    def from_json(cls, game: ConflictGame, obj: dict[str, Any]) -> ConflictState:
        n = game.players
        try:
            s = cls(game, Rng.from_json(obj["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"conflict: malformed state: rng: {exc}") from None
        FIELDS.load(s, obj)
        if not s.frozen:  # snapshots stored before the alarm step (issue 54): none frozen
            s.frozen = [None] * n
        lists = (
            s.fleets,
            s.ready,
            s.decks,
            s.hands,
            s.done,
            s.kills,
            s.dealt,
            s.returned,
            s.frozen,
        )
        if any(len(v) != n for v in lists):
            raise ValueError(f"conflict: malformed state: per-seat lists must have {n} entries")
        nships = len(game.content.ships)
        for c in s.cards:
            if len(c) != 10 or not 0 <= c[C_SHIP] < nships:
                raise ValueError(f"conflict: malformed state: bad table card {c!r}")
        return s


def _shot_copy(shot: dict[str, Any]) -> dict[str, Any]:
    """A shot record with its own point lists (a snapshot shares nothing)."""
    out = dict(shot)
    for key in ("from", "to"):
        if isinstance(out.get(key), list):
            out[key] = out[key][:]
    return out


def _phase(v: Any) -> str:
    if v not in PHASES:
        raise ValueError(f"unknown phase {v!r}")
    return str(v)


def _cards(v: Any) -> list[list[Any]]:
    return [[*(int(x) for x in c[:C_DAMAGE]), tuple(c[C_DAMAGE])] for c in v]


def _frozen(v: Any) -> list[tuple[int, int, int] | None]:
    return (
        [] if v is None else [None if f is None else (int(f[0]), int(f[1]), int(f[2])) for f in v]
    )


#: The state's fields, in snapshot order: the one list clone, to_json and restore read.
#: A table card is a row of ints whose C_DAMAGE entry is a tuple (stored as a list).
FIELDS = FieldTable(
    "conflict",
    [
        value("reveals"),
        value("phase", _phase),
        int_lists("fleets"),
        bools("ready"),
        int_lists("decks"),
        ints("hands"),
        bools("done"),
        custom(
            "cards",
            "[_c[:] for _c in {x}]",
            "[[*_c[:C_DAMAGE], list(_c[C_DAMAGE])] for _c in {x}]",
            _cards,
        ),
        int_lists("kills"),
        ints("dealt"),
        ints("returned"),
        *(value(name) for name in ("vaporised", "supply", "step", "initiative")),
        # the last step's shots: replaced whole, never changed in place, so shared by copies
        custom(
            "last_shots",
            "{x}",
            "[_shot_copy(_s) for _s in {x}]",
            lambda v: [_shot_copy(s) for s in v],
        ),
        value("stopped_by"),
        custom(
            "frozen",
            "{x}[:]",
            "[None if _f is None else list(_f) for _f in {x}]",
            _frozen,
            default=lambda s: [],
        ),
        shared("_free"),
        shared("_step_cache"),  # immutable once built
    ],
    env={"C_DAMAGE": C_DAMAGE, "_shot_copy": _shot_copy},
)


__all__ = ["ALARM", "BATTLE", "DEPLOY", "LAST", "OVER", "PHASES", "PREP", "ConflictState"]
