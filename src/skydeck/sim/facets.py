"""What a study records about a finished match beyond scores: each seat's faction and
powers, its place in the turn order, how often it took each kind of action and which
cards or components it used.

The games' own vocabulary is read from public information only (the spectator's view
of the final state and the action log), so a study never depends on a game's internals.
A game without an entry here simply has no faction, order or usage columns filled.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from skydeck.core.action import Action, Arg


@dataclass(frozen=True)
class SeatFacets:
    """A seat's side in a match: ``faction`` (Stellar Conflict's race, Stellar
    Expedition's faction), ``powers`` (Expedition's player powers) and ``order`` (0 for
    the first player, 1 for the next ...; None where the game has no first player)."""

    faction: str | None = None
    powers: tuple[str, ...] = ()
    order: int | None = None


def _conflict(view: dict[str, Any], players: int) -> list[SeatFacets]:
    # Deployment and battle are simultaneous: no seat moves first.
    return [SeatFacets(faction=s.get("race")) for s in view.get("seats", [])[:players]]


def _expedition(view: dict[str, Any], players: int) -> list[SeatFacets]:
    # Player 1 is first in round 1 and the lead passes on each round (flow.py), so the
    # seat is the turn-order position of the opening round.
    out = []
    for seat, p in enumerate(view.get("players", [])[:players]):
        out.append(SeatFacets(p.get("faction"), tuple(p.get("powers") or ()), seat))
    return out


def _stellium(view: dict[str, Any], players: int) -> list[SeatFacets]:
    first = view.get("first_player")
    if not isinstance(first, int):
        return [SeatFacets() for _ in range(players)]
    return [SeatFacets(order=(seat - first) % players) for seat in range(players)]


FACETS: dict[str, Callable[[dict[str, Any], int], list[SeatFacets]]] = {
    "conflict": _conflict,
    "expedition": _expedition,
    "stellium": _stellium,
}


def seat_facets(game_id: str, final_view: dict[str, Any], players: int) -> list[SeatFacets]:
    """One :class:`SeatFacets` per seat (all empty for games without facets)."""
    read = FACETS.get(game_id)
    facets = read(final_view, players) if read else []
    if len(facets) != players:
        return [SeatFacets() for _ in range(players)]
    return facets


@dataclass(frozen=True)
class Uses:
    """Which actions use a card or component: their kinds (None: every kind) and the
    shape of a component's id among the action's arguments."""

    kinds: frozenset[str] | None
    pattern: re.Pattern[str] = field(default=re.compile(r"[A-Za-z_][\w.]*\Z"))


USES: dict[str, Uses] = {
    # A ship card bought into the fleet ("buy wiss.eclipse_1").
    "conflict": Uses(frozenset({"buy"}), re.compile(r"[a-z]+\.\w+\Z")),
    # Expedition cards drafted, Upgrades bought or used, Crew played or sent solo.
    "expedition": Uses(
        frozenset({"draft", "buy", "ability", "react_upgrade", "play", "solo", "react_solo"})
    ),
    # Missions taken and completed ("take m38", "complete m39 (f1,g1)").
    "stellium": Uses(frozenset({"take", "complete"}), re.compile(r"m\d+\Z")),
    # Voyage cards named in any action ("search nebula beta.nebula").
    "stellarion": Uses(None, re.compile(r"[a-z]+\d*\.[a-z_]+\Z")),
}


def _words(args: tuple[Arg, ...]) -> Iterator[str]:
    for a in args:
        if isinstance(a, tuple):
            yield from _words(a)
        elif isinstance(a, str):
            yield a


def count_actions(
    game_id: str, entries: list[tuple[int, Action]]
) -> tuple[Counter[tuple[int, str]], Counter[tuple[int, str]]]:
    """(seat, action kind) counts and (seat, component) use counts of one match."""
    kinds: Counter[tuple[int, str]] = Counter()
    used: Counter[tuple[int, str]] = Counter()
    uses = USES.get(game_id)
    for seat, action in entries:
        kinds[seat, action.kind] += 1
        if uses is None or (uses.kinds is not None and action.kind not in uses.kinds):
            continue
        for word in _words(action.args):
            if uses.pattern.match(word):
                used[seat, word] += 1
    return kinds, used
