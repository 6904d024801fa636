"""StellarionGame: options, set-up and restore. Content tables are flattened here
once per game so the rules read plain lists."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from skydeck.core import Action, Game, OptionSpec, Rng, State
from skydeck.core.capabilities import Capabilities, Uses
from skydeck.games.stellarion.cards import DECKS, FACE_NAMES, GALAXIES, SOURCE_NAMES, TYPES
from skydeck.games.stellarion.cards import full_deck as _full_deck
from skydeck.games.stellarion.content import EXPANSIONS, Content, default_content
from skydeck.games.stellarion.describe import describe as _describe_action
from skydeck.games.stellarion.describe import describe_event as _describe_event
from skydeck.games.stellarion.describe import tops_in_view as _tops_in_view
from skydeck.games.stellarion.inverse import from_view as _from_view
from skydeck.games.stellarion.legal import MemoGate
from skydeck.games.stellarion.shaping import progress
from skydeck.games.stellarion.state import StellarionState

MAX_SOLO_STARS = 4
_ORDERED = {"coordinate": SOURCE_NAMES, "traverse": DECKS, "outpost": DECKS}


def canonical(action: Action) -> Action:
    """Unordered card lists in the order the engine lists them, so a player may type
    ``coordinate (planet,beta)`` for ``coordinate (beta,planet)``."""
    order = _ORDERED.get(action.kind)
    if order is None and action.kind == "retrieve" and len(action.args) == 2:
        order = FACE_NAMES
    if order is None or not action.args or not isinstance(action.args[-1], tuple):
        return action
    items = action.args[-1]
    rank = {name: i for i, name in enumerate(order.values() if isinstance(order, dict) else order)}
    if not all(isinstance(x, str) and x in rank for x in items):
        return action
    ordered = tuple(sorted(items, key=lambda x: rank[str(x)]))
    return Action(action.kind, (*action.args[:-1], ordered))


class StellarionGame(Game):
    id = "stellarion"
    capabilities = Capabilities(
        env_id="skydeck/Stellarion-v0",
        # Voyage cards named in any action ("search nebula beta.nebula").
        uses=Uses(None, re.compile(r"[a-z]+\d*\.[a-z_]+\Z")),
        progress=progress,
        value="skydeck.games.stellarion.ai.heuristic:position_value",
        solver="skydeck.games.stellarion.ai.solve:run_command",
        cooperative=True,
    )
    title = "Stellarion"
    player_counts = (1, 2)
    option_specs = (
        OptionSpec(
            "expansions",
            "set",
            [],
            "any of black_holes, theories, mirrors, glaucous_sun",
            list(EXPANSIONS),
        ),
        OptionSpec(
            "shooting_stars",
            "int",
            None,
            "Shooting Star tokens: solo 0-4 (default 1); two players get 2 more (default 3)",
            by_players={
                1: {"default": 1, "min": 0, "max": MAX_SOLO_STARS},
                2: {"default": 3, "min": 2, "max": MAX_SOLO_STARS + 2},
            },
        ),
        OptionSpec(
            "reveal",
            "str",
            "all",
            "end of turn: turn up every face-down top ('all', the rulebook's rule, "
            "RULINGS #6) or, as a variant, the top of one face-down deck of the "
            "player's choice ('one')",
            ["all", "one"],
        ),
    )

    def __init__(self, content: Content | None = None, **options: Any) -> None:
        # the content pack supplies the default reveal reading, so it is needed first
        self.content = content or default_content()
        if options.get("reveal") is None:
            options["reveal"] = self.content.rules.end_of_turn_reveal
        super().__init__(**options)
        exp = self.options["expansions"]
        self.black_holes = "black_holes" in exp
        self.theories = "theories" in exp
        self.mirrors = "mirrors" in exp
        self.glaucous_sun = "glaucous_sun" in exp
        c = self.content
        voyages = c.all_voyages()
        self.n_base_voyages = len(c.voyage)
        self.voyage_ids = [v.id for v in voyages]
        self.voyage_names = [v.name for v in voyages]
        self.voyage_galaxy = [GALAXIES.index(v.galaxy) for v in voyages]
        self.voyage_index = {v.id: i for i, v in enumerate(voyages)}
        self.theory_ids = [t.id for t in c.theory]
        self.theory_names = [t.name for t in c.theory]
        self.theory_type = [TYPES.index(t.type) for t in c.theory]
        self.theory_needs = [t.needs for t in c.theory]
        by_type = {TYPES.index(b.type): b for b in c.breakthrough}
        self.breakthrough_ids = [by_type[t].id for t in range(4)]
        self.breakthrough_names = [by_type[t].name for t in range(4)]
        self.reveal_all = self.options["reveal"] == "all"
        self.sun_start = c.sun.start
        self.sun_final = c.sun.final
        self.meteor_spots = list(c.sun.meteors)
        counts = c.advanced_per_expansion
        self.n_advanced = sum(getattr(counts, e) for e in exp)
        self.memo: dict[Any, Action] = {}
        #: main-step legal tables by what decides them (legal.main_actions)
        self.main_tables: dict[Any, dict[Action, Any]] = {}
        self.main_gate = MemoGate()
        self._text: dict[Action, str] = {}

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        every = list(EXPANSIONS)
        return [
            {"players": 1},
            {"players": 2},
            *({"players": 1, "expansions": [e]} for e in EXPANSIONS),
            {"players": 2, "expansions": ["black_holes", "mirrors"]},
            {"players": 1, "expansions": every},
            {"players": 2, "expansions": every},
        ]

    def parse_action(self, text: str) -> Action:
        return canonical(Action.parse(text))

    def action_from_json(self, obj: Any) -> Action:
        return canonical(Action.from_json(obj))

    def text(self, action: Action) -> str:
        t = self._text.get(action)
        if t is None:
            t = self._text[action] = str(action)
        return t

    def describe(self, action: Action, view: Mapping[str, Any] | None = None) -> str:
        if view is None:
            return _describe_action(self, action)
        return _describe_action(self, action, _tops_in_view(view), where=True)

    def describe_event(
        self, event: Mapping[str, Any], names: Sequence[str], state: State | None = None
    ) -> str:
        return _describe_event(self, event, names)

    def new(self, seed: int) -> StellarionState:
        s = StellarionState(self, Rng(seed))
        rng = s.rng
        for d in range(8):
            deck = _full_deck(d, self.black_holes, self.mirrors)
            rng.shuffle(deck)
            s.decks[d] = deck
            s.up[d] = 1
            s.ktop[d] = 1
        # Voyages: the base cards plus advanced cards drawn at random
        base = list(range(self.n_base_voyages))
        advanced = list(range(self.n_base_voyages, len(self.voyage_ids)))
        chosen = base + sorted(rng.sample(advanced, self.n_advanced))
        if self.mirrors:
            rng.shuffle(chosen)
            left = (len(chosen) + 1) // 2
            s.columns = [chosen[:left], chosen[left:]]
        else:
            s.columns = [[v for v in chosen if self.voyage_galaxy[v] == g] for g in range(4)]
        s.stars = self.options["shooting_stars"]
        if self.theories:
            tokens = list(range(len(self.theory_ids)))
            rng.shuffle(tokens)
            s.theories = tokens
            s.breakthrough = rng.below(4)
        if self.glaucous_sun:
            s.sun = self.sun_start
            s.meteors = list(self.meteor_spots)
        s.settle()
        return s

    has_from_view = True
    public_views = True

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> StellarionState:
        """Every seat sees the same table, so ``seat`` changes nothing: the view's own
        inverse (``inverse.from_view``) deals each deck's unknown middle with ``rng``."""
        return _from_view(self, view, rng)

    def restore(self, obj: dict[str, Any]) -> StellarionState:
        if not isinstance(obj, dict):
            raise ValueError(f"stellarion: a state must be a JSON object, got {type(obj)}")
        return StellarionState.from_json(self, obj)


__all__ = ["StellarionGame", "canonical"]
