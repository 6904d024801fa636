"""The Stellar Expedition game definition: options, new matches, restore."""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, OptionSpec, Rng
from skydeck.games.expedition.content import Content, default_content
from skydeck.games.expedition.state import ExpeditionState


class ExpeditionGame(Game):
    id = "expedition"
    title = "Stellar Expedition"
    player_counts = (2, 3, 4)
    option_specs = (
        OptionSpec(
            "factions",
            "list",
            None,
            "faction id per seat (unec, tognath, maheri, edda); default: in that order",
            ["unec", "tognath", "maheri", "edda"],
        ),
    )

    def __init__(self, **options: Any) -> None:
        self.content: Content = default_content()
        super().__init__(**options)

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        known = [d.faction for d in self.content.dashboards]
        n = options.get("players", self.player_counts[0])
        factions = options.get("factions")
        if factions is None:
            factions = known[:n]
        if not isinstance(factions, (list, tuple)) or not all(isinstance(f, str) for f in factions):
            raise ValueError(
                f"expedition: factions must be a list of faction ids, got {factions!r}"
            )
        factions = list(factions)
        if len(factions) != n:
            raise ValueError(
                f"expedition: factions needs one faction per seat ({n}), got {factions}"
            )
        bad = [f for f in factions if f not in known]
        if bad:
            raise ValueError(f"expedition: unknown faction(s) {bad}; known: {known}")
        if len(set(factions)) != len(factions):
            raise ValueError(f"expedition: each seat needs a different faction, got {factions}")
        return {"factions": factions}

    def faction_indices(self) -> list[int]:
        known = [d.faction for d in self.content.dashboards]
        return [known.index(f) for f in self.options["factions"]]

    def new(self, seed: int) -> ExpeditionState:
        s = ExpeditionState(self, self.content, Rng(seed))
        s.setup(self.faction_indices())
        return s

    def restore(self, obj: dict[str, Any]) -> ExpeditionState:
        return ExpeditionState.from_json(self, self.content, obj)

    def describe(self, action: Action) -> str:
        """The notation with the content it names, e.g. 'play ensign_okoro (Ensign Okoro,
        L1: pilot)'; menus show this."""
        c = self.content
        a0 = str(action.args[0]) if action.args else ""
        k = action.kind
        extra = ""
        if k in ("expedition", "draft", "replace") and a0 in c.expedition_index:
            e = c.expeditions[c.expedition_index[a0]]
            extra = f"{e.name}, {e.tier} {e.points} pt"
        elif k in ("play", "solo", "react_solo", "reprogram") and a0 in c.crew_index:
            cr = c.crew[c.crew_index[a0]]
            extra = f"{cr.name}, L{cr.level}: {', '.join(cr.skills)}"
        elif k in ("buy", "take", "use", "ability", "react_upgrade") and a0 in c.upgrade_index:
            u = c.upgrades[c.upgrade_index[a0]]
            extra = f"{u.name}" + (f": {u.skill}" if u.skill else "")
        elif k in ("collect_at", "token") and a0 in c.location_index:
            extra = c.locations[c.location_index[a0]].name
        elif k == "pick" and a0 in c.encounter_index:
            extra = c.encounters[c.encounter_index[a0]].name
        elif k == "place" and a0 in c.location_index:
            loc = c.locations[c.location_index[a0]]
            extra = f"{loc.name}, {loc.type} level {loc.level}"
        return f"{action} ({extra})" if extra else str(action)
