"""Play one chunk of a study's matches and turn them into table rows.

A chunk is the unit every backend hands out (a local process, a Ray task): it depends
only on the plan and its (setting, start, end), never on which worker runs it, so
every backend and every ``--jobs`` produce the same rows. A match that raises becomes
a ``failed`` row with its error and seed, never a lost one.
"""

from __future__ import annotations

import json
import time
from typing import Any

from skydeck.agents import make, support_for
from skydeck.core.action import Action
from skydeck.core.game import Game
from skydeck.sim.facets import count_actions, seat_facets
from skydeck.sim.plan import Plan
from skydeck.sim.runner import MatchResult, play_match
from skydeck.sim.tournament import agent_seed, load_game, match_seed, seat_points, seating

Rows = dict[str, list[dict[str, Any]]]
#: Actions remembered per game and worker before the memo starts again (a game's action
#: space is finite, but a worker should not grow without bound on one that is not).
MEMO_MAX = 1 << 16
_MEMOS: dict[str, _Memo] = {}


def _memo(game_id: str) -> _Memo:
    memo = _MEMOS.get(game_id)
    if memo is None or len(memo.uses) >= MEMO_MAX:
        memo = _MEMOS[game_id] = _Memo()
    return memo


def play_chunk(plan: Plan, setting: int, start: int, end: int) -> Rows:
    """Rows of every table for matches ``start..end-1`` of one setting."""
    chosen = plan.settings()[setting]
    game = load_game(plan.game, chosen.options)
    cooperative = game.players == 1 or support_for(game).cooperative
    rows: Rows = {"matches": [], "seats": [], "actions": [], "usage": [], "records": []}
    options = json.dumps(game.options, sort_keys=True)
    memo = _memo(game.id)
    for index in range(start, end):
        specs = seating(plan.agents, game.players, index)
        seed = match_seed(plan.seed, plan.agents, index)
        row: dict[str, Any] = {
            "match_id": setting * plan.games + index,
            "setting": setting,
            "index": index,
            "label": chosen.label,
            "game": game.id,
            "options": options,
            "players": game.players,
            "agents": specs,
            "seed": seed,
        }
        begin = time.perf_counter()
        try:
            agents = [
                make(spec, game, seed=agent_seed(plan.seed, index, k))
                for k, spec in enumerate(specs)
            ]
            result = play_match(game, agents, seed, names=specs, keep_match=True)
        except Exception as exc:  # a crash is data: recorded with its seed, never lost
            row.update(
                status="failed",
                error=f"{type(exc).__name__}: {exc}",
                winners=[],
                scores=[],
                length=None,
                duration_s=time.perf_counter() - begin,
            )
            rows["matches"].append(row)
            continue
        row.update(
            status="ok",
            error=None,
            winners=result.winners,
            scores=result.scores,
            length=result.steps,
            duration_s=time.perf_counter() - begin,
        )
        rows["matches"].append(row)
        _add_details(rows, game, row["match_id"], setting, result, cooperative, options, memo)
    return rows


class _Memo:
    """What the matches of one game share about an action (its text, the components
    it uses): the same few thousand actions come back in every match of a study, and a
    dict look-up costs a tenth of writing or reading the action again."""

    __slots__ = ("texts", "uses")

    def __init__(self) -> None:
        self.texts: dict[Action, str] = {}
        self.uses: dict[Action, tuple[str, ...]] = {}

    def text(self, action: Action) -> str:
        if len(self.texts) >= MEMO_MAX:
            self.texts.clear()
        text = self.texts.get(action)
        if text is None:
            text = self.texts[action] = str(action)
        return text


def _add_details(
    rows: Rows,
    game: Game,
    match_id: int,
    setting: int,
    result: MatchResult,
    cooperative: bool,
    options: str,
    memo: _Memo,
) -> None:
    match = result.match
    assert match is not None
    entries = [(e.seat, e.action) for e in match.record.entries]
    facets = seat_facets(game, match.state.view(None), game.players)
    points = list(seat_points(result, cooperative))
    for seat, spec in enumerate(result.seats):
        thinking = result.thinking[seat]
        rows["seats"].append(
            {
                "match_id": match_id,
                "setting": setting,
                "seat": seat,
                "agent": spec,
                "faction": facets[seat].faction,
                "powers": list(facets[seat].powers),
                "order": facets[seat].order,
                "score": float(result.scores[seat]),
                "win": seat in result.winners,
                "points": points[seat],
                "decisions": thinking.decisions,
                "think_s": thinking.seconds,
            }
        )
    kinds, used = count_actions(game, entries, memo.uses)
    text = memo.text
    for (seat, kind), n in sorted(kinds.items()):
        rows["actions"].append({"match_id": match_id, "seat": seat, "kind": kind, "count": n})
    for (seat, comp), n in sorted(used.items()):
        rows["usage"].append({"match_id": match_id, "seat": seat, "component": comp, "count": n})
    rows["records"].append(
        {
            "match_id": match_id,
            "game": game.id,
            "options": options,
            "seed": match.record.seed,
            "names": list(result.seats),
            "seats": [seat for seat, _ in entries],
            "actions": [text(action) for _, action in entries],
        }
    )
