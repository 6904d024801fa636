"""The Stellar Expedition game definition: options, new matches, restore."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skydeck.core import Action, Game, OptionSpec, Rng, State
from skydeck.core.capabilities import Capabilities, SeatFacets, Uses
from skydeck.games.expedition import flow
from skydeck.games.expedition.belief import from_view as _from_view
from skydeck.games.expedition.content import Content
from skydeck.games.expedition.describe import catalogue as _catalogue
from skydeck.games.expedition.describe import describe as _describe_action
from skydeck.games.expedition.describe import describe_event as _describe_event
from skydeck.games.expedition.modules_content import MODULES, RANKS, content_for
from skydeck.games.expedition.state import ExpeditionState


def _facets(view: dict[str, Any], players: int) -> list[SeatFacets]:
    # Player 1 is first in round 1 and the lead passes on each round (flow.py), so the
    # seat is the turn-order position of the opening round.
    out = []
    for seat, p in enumerate(view.get("players", [])[:players]):
        out.append(SeatFacets(p.get("faction"), tuple(p.get("powers") or ()), seat))
    return out


#: The four factions in box order, as the content's dashboards name them.
FACTIONS = ("unec", "tognath", "maheri", "edda")


class ExpeditionGame(Game):
    id = "expedition"
    capabilities = Capabilities(
        env_id="skydeck/Expedition-v0",
        facets=_facets,
        # Expedition cards drafted, Upgrades bought or used, Crew played or sent solo.
        uses=Uses(
            frozenset({"draft", "buy", "ability", "react_upgrade", "play", "solo", "react_solo"})
        ),
    )
    title = "Stellar Expedition"
    #: 1 = the solo game against the drone; listed last so the default stays 2 players
    player_counts = (2, 3, 4, 1)
    option_specs = (
        OptionSpec(
            "factions",
            "list",
            None,
            "faction id per seat (unec, tognath, maheri, edda); default: in that order",
            list(FACTIONS),
        ),
        OptionSpec(
            "modules",
            "set",
            [],
            "optional modules, any combination",
            list(MODULES),
        ),
        OptionSpec(
            "nothing_bad_happens",
            "bool",
            False,
            "add the positive (green plus) Encounters to the Encounter deck",
        ),
        OptionSpec(
            "solo_rank",
            "choice",
            None,
            "solo game (players=1): the drone's rank; default commander",
            list(RANKS),
            players=(1,),
            by_players={1: {"default": "commander"}},
        ),
        OptionSpec(
            "drone_faction",
            "choice",
            None,
            "solo game: the drone's faction; default the first one the player does not use",
            list(FACTIONS),
            players=(1,),
        ),
    )

    def __init__(self, **options: Any) -> None:
        self.drone_faction_index = -1
        super().__init__(**options)
        opts = self.options
        self.content: Content = content_for(
            frozenset(opts["modules"]), opts["nothing_bad_happens"], opts["solo_rank"] is not None
        )
        if opts["solo_rank"] is not None:
            known = [d.faction for d in self.content.dashboards]
            self.drone_faction_index = known.index(opts["drone_faction"])

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The solo drone's faction: by default the first one the player does not use,
        and never the player's own."""
        factions, drone = options["factions"], options["drone_faction"]
        if options["solo_rank"] is not None:
            if drone is None:
                drone = next(f for f in FACTIONS if f not in factions)
            if drone in factions:
                raise ValueError(f"expedition: the drone needs another faction than {factions}")
        return {**options, "drone_faction": drone}

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """The base game at every count, each module alone, all six, solo at each rank."""
        return [
            {"players": 2},
            {"players": 3},
            {"players": 4},
            {"players": 3, "modules": ["player_powers"]},
            {"players": 2, "modules": ["objectives"]},
            {"players": 2, "modules": ["hazards"], "nothing_bad_happens": True},
            {"players": 4, "modules": ["legendary"]},
            {"players": 3, "modules": ["artifacts"]},
            {"players": 2, "modules": ["events"]},
            {"players": 4, "modules": list(MODULES), "nothing_bad_happens": True},
            {"players": 1, "solo_rank": "commander"},
            {"players": 1, "solo_rank": "captain", "modules": ["hazards", "artifacts"]},
            {"players": 1, "solo_rank": "admiral", "modules": list(MODULES)},
        ]

    def faction_indices(self) -> list[int]:
        known = [d.faction for d in self.content.dashboards]
        return [known.index(f) for f in self.options["factions"]]

    def new(self, seed: int) -> ExpeditionState:
        s = ExpeditionState(self, self.content, Rng(seed))
        flow.setup(s, self.faction_indices())
        return s

    has_from_view = True

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> ExpeditionState:
        """The seat's inversion in ``belief.py``: public boards copied, other hands,
        Secret Expeditions and every deck drawn with ``rng`` from what the seat cannot see."""
        return _from_view(self, view, seat, rng)

    def restore(self, obj: dict[str, Any]) -> ExpeditionState:
        return ExpeditionState.from_json(self, self.content, obj)

    def describe(self, action: Action, view: Mapping[str, Any] | None = None) -> str:
        """The move as a sentence naming its cards ("play Ensign Okoro (L1: Pilot)");
        menus and logs show this."""
        return _describe_action(self.content, action, view)

    def card_texts(self) -> dict[str, dict[str, Any]]:
        return _catalogue(self.content)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        factions = self.options["factions"]
        cells: list[str] = []
        if isinstance(state, ExpeditionState):  # the map is public
            cells = [state.tile_name(x) if x >= 0 else "" for x in state.board]
        return _describe_event(self.content, event, names, factions, cells)
