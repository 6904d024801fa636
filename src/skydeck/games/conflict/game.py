"""Stellar Conflict's options and the factory of its states."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from skydeck.core import Game, OptionSpec, Rng, State
from skydeck.core.capabilities import Capabilities, SeatFacets, TimedAction, Uses
from skydeck.games.conflict.belief import from_view as _from_view
from skydeck.games.conflict.content import RACES, Content, default_content
from skydeck.games.conflict.describe import describe as _describe_action
from skydeck.games.conflict.describe import describe_event as _describe_event
from skydeck.games.conflict.shapes import Shapes
from skydeck.games.conflict.state import ConflictState

SCALES = ("dispute", "conflict", "war")
VARIANTS = ("meteor", "stolen_goods")
DEPLOYMENTS = ("timed", "light_speed")
#: Who keeps the time of Deployment (RULINGS 15): the engine's time model (self-play,
#: tournaments, simulations) or a real clock outside it (the server), which rings the
#: alarm with ``timeout`` and reports the card each seat is moving on the table.
CLOCKS = ("model", "real")
#: Seconds of the timed deployment per battle scale.
DEPLOYMENT_SECONDS = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}


def _deployment_seconds(options: dict[str, Any]) -> float | None:
    if options.get("deployment", "timed") != "timed" or options.get("clock", "model") != "real":
        return None  # Light Speed stops by itself; the time model needs no clock
    return DEPLOYMENT_SECONDS.get(str(options.get("scale", "conflict")), 60.0)


def _stop_seconds(options: dict[str, Any]) -> float | None:
    """Light Speed on a real table: when a seat calls stop, the cards the others are
    moving are reported at once (they stay where they are)."""
    if options.get("deployment") != "light_speed" or options.get("clock", "model") != "real":
        return None
    return 0.0


#: Seconds the server gives each player, after the alarm or a stop, to deploy the card
#: frozen under their finger or remove it; then ``close`` deploys it if legal.
ALARM_GRACE_SECONDS = 10.0


def _alarm_seconds(options: dict[str, Any]) -> float | None:
    """Only a real clock freezes a card under a finger (RULINGS 15)."""
    return ALARM_GRACE_SECONDS if options.get("clock", "model") == "real" else None


def _facets(view: dict[str, Any], players: int) -> list[SeatFacets]:
    # Deployment and battle are simultaneous: no seat moves first.
    return [SeatFacets(faction=s.get("race")) for s in view.get("seats", [])[:players]]


@lru_cache(maxsize=4)
def _shapes(content: int) -> Shapes:
    assert content == id(default_content())
    return Shapes(default_content())


class ConflictGame(Game):
    id = "conflict"
    capabilities = Capabilities(
        env_id="skydeck/Conflict-v0",
        # The deployment ends for everybody when the battle's timer rings (or, Light
        # Speed, at once after a stop); the cards being moved land where they are.
        timed_actions=(
            TimedAction(
                "timeout", _deployment_seconds, scope="table", label="deployment", reports=True
            ),
            TimedAction("timeout", _stop_seconds, scope="table", label="stop", reports=True),
            # After it, each player deploys the frozen card or removes it; a player who
            # does not answer within the grace period gets the card deployed if legal.
            TimedAction("close", _alarm_seconds, scope="table", label="alarm"),
        ),
        # A live server runs the deployment on its real clock, not the time model.
        live_options={"clock": "real"},
        facets=_facets,
        # A ship card bought into the fleet ("buy wiss.eclipse_1").
        uses=Uses(frozenset({"buy"}), re.compile(r"[a-z]+\.\w+\Z")),
        picture="skydeck.games.conflict.svg:render_svg",
    )
    title = "Stellar Conflict"
    player_counts = (2, 3, 4)
    option_specs = (
        OptionSpec("scale", "choice", "conflict", "battle size: credits and timer", SCALES),
        OptionSpec("races", "list", None, "race of each seat (default: in box order)", RACES),
        OptionSpec("variants", "set", [], "optional rules", VARIANTS),
        OptionSpec("meteors", "int", 3, "Meteor cards with the meteor variant (1-5)", min=1, max=5),
        OptionSpec(
            "deployment",
            "choice",
            "timed",
            "timed (the server's clock ends it) or light_speed (first empty deck stops it)",
            DEPLOYMENTS,
        ),
        OptionSpec(
            "clock",
            "choice",
            "model",
            "model (each card takes modelled seconds: self-play, simulations) or real (a "
            "server's clock rings the alarm and reports the cards being played)",
            CLOCKS,
        ),
    )

    content: Content
    shapes: Shapes

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        opts = self.options
        self.content = default_content()
        self.shapes = _shapes(id(self.content))
        table = self.content.table
        self.races: tuple[str, ...] = tuple(opts["races"])
        self.credits: int = table.scales[opts["scale"]].credits
        self.seconds: int = table.scales[opts["scale"]].seconds
        self.timed = opts["deployment"] == "timed"
        self.real_clock = opts["clock"] == "real"
        #: Timed with the time model: how many cards each seat deploys before its alarm
        #: (``data/table.json``'s ``timer_model``); None otherwise.
        self.cards_in_time: int | None = (
            table.timer_model.cards_in(self.seconds) if self.timed and not self.real_clock else None
        )
        self.cubes_per_source: int = table.cargo_cubes[str(self.players)]

    def new(self, seed: int) -> ConflictState:
        return ConflictState(self, Rng(seed))

    has_from_view = True

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> ConflictState:
        """Hidden fleets, hands and deck orders drawn with ``rng`` as purchases and decks
        the public table allows (see ``belief.py``)."""
        return _from_view(self, view, seat, rng)

    def restore(self, obj: dict[str, Any]) -> ConflictState:
        if not isinstance(obj, dict):
            raise ValueError("conflict: a state must be a JSON object")
        return ConflictState.from_json(self, obj)

    def describe(self, action: Any, view: Mapping[str, Any] | None = None) -> str:
        return _describe_action(self, action, view)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        return _describe_event(self, event, names, state)  # type: ignore[arg-type]

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [
            {"players": 2, "scale": "war"},
            {"players": 2, "scale": "dispute", "variants": ["meteor"], "meteors": 5},
            {"players": 3, "scale": "conflict", "deployment": "light_speed"},
            {"players": 4, "scale": "dispute", "variants": ["stolen_goods"]},
            {"players": 3, "scale": "dispute", "deployment": "light_speed", "clock": "real"},
        ]
