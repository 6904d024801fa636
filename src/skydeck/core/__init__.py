"""Game-agnostic engine: actions, events, RNG, the Game/State contract, records."""

from skydeck.core.action import Action
from skydeck.core.agent import Agent
from skydeck.core.errors import IllegalAction, Unsupported
from skydeck.core.event import Event, filter_events, private
from skydeck.core.game import Game, State, player_name, player_names
from skydeck.core.options import OptionSpec
from skydeck.core.rng import Rng, as_rng

__all__ = [
    "Action",
    "Agent",
    "Event",
    "Game",
    "IllegalAction",
    "OptionSpec",
    "Rng",
    "State",
    "Unsupported",
    "as_rng",
    "filter_events",
    "player_name",
    "player_names",
    "private",
]
