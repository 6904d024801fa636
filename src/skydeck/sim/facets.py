"""What a study records about a finished match beyond scores: each seat's faction and
powers, its place in the turn order, how often it took each kind of action and which
cards or components it used.

The games' own vocabulary is read from public information only (the spectator's view
of the final state and the action log), so a study never depends on a game's internals.
Each game declares how (``Capabilities.facets`` and ``.uses``); a game that declares
neither simply has no faction, order or usage columns filled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from skydeck.core.action import Action, Arg
from skydeck.core.capabilities import SeatFacets, Uses
from skydeck.core.game import Game


def seat_facets(game: Game, final_view: dict[str, Any], players: int) -> list[SeatFacets]:
    """One :class:`SeatFacets` per seat (all empty for games without facets)."""
    read = game.capabilities.facets
    facets = read(final_view, players) if read else []
    if len(facets) != players:
        return [SeatFacets() for _ in range(players)]
    return facets


def _words(args: tuple[Arg, ...]) -> Iterator[str]:
    for a in args:
        if isinstance(a, tuple):
            yield from _words(a)
        elif isinstance(a, str):
            yield a


def count_actions(
    game: Game,
    entries: list[tuple[int, Action]],
    memo: dict[Action, tuple[str, ...]] | None = None,
) -> tuple[Counter[tuple[int, str]], Counter[tuple[int, str]]]:
    """(seat, action kind) counts and (seat, component) use counts of one match.
    ``memo`` (action -> the components it uses) may be shared by the matches of one
    game: a study plays the same few hundred actions thousands of times, and a dict
    look-up costs a tenth of reading an action's words again."""
    kinds: Counter[tuple[int, str]] = Counter()
    used: Counter[tuple[int, str]] = Counter()
    uses = game.capabilities.uses
    if memo is None:
        memo = {}
    for seat, action in entries:
        kinds[seat, action.kind] += 1
        if uses is None:
            continue
        words = memo.get(action)
        if words is None:
            words = memo[action] = _components(uses, action)
        for word in words:
            used[seat, word] += 1
    return kinds, used


def _components(uses: Uses, action: Action) -> tuple[str, ...]:
    """The components ``action`` uses, by the game's ``Uses`` (its kinds and id shape)."""
    if uses.kinds is not None and action.kind not in uses.kinds:
        return ()
    return tuple(w for w in _words(action.args) if uses.pattern.match(w))
