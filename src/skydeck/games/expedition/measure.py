"""Measurements behind rulings: ``python -m skydeck.games.expedition.measure edge``.

``edge`` (RULINGS 11, issue 54 item 11): how often the fixed radius-4 map refuses a
Location tile that a real table would take. At every Discovery decision of seeded
heuristic games it looks at the acting ship's Location: when some of its neighbours lie
beyond the grid (empty space on a real table), and fewer tiles can be placed than the
rule allows there (2, or 3 with two players), the rim took a tile away.
"""

from __future__ import annotations

import argparse
from typing import Any

from skydeck.core.record import Match
from skydeck.games.expedition.ai.heuristic import HeuristicAgent
from skydeck.games.expedition.game import ExpeditionGame


def edge(players: int, games: int, modules: list[str]) -> dict[str, Any]:
    """Counts over ``games`` seeded heuristic games (seeds 0..games-1)."""
    game = ExpeditionGame(players=players, modules=modules)
    decisions = rim = limited = 0
    left: list[int] = []
    for seed in range(games):
        match = Match(game, seed)
        agents = [HeuristicAgent(game, seed=seed * 7 + k) for k in range(players)]
        st: Any = match.state
        while not st.is_over:
            seat = st.to_move[0]
            legal = st.legal_actions(seat)
            if st.phase == "discovery" and any(a.kind == "place" for a in legal):
                near = st.grid.neighbours[st.ship[seat]]
                empty = sum(1 for x in near if st.board[x] < 0)
                beyond = 6 - len(near)
                decisions += 1
                if beyond:
                    rim += 1
                    wanted = 3 if players == 2 else 2
                    limited += empty < min(wanted, empty + beyond)
            match.play(seat, agents[seat].choose(st.view(seat), legal, seat), t=0.0)
            st = match.state
        left.append(len(st.stack))
    return {
        "players": players,
        "modules": modules,
        "games": games,
        "placements": decisions,
        "on_the_rim": rim,
        "rim_took_a_tile": limited,
        "tiles_left_at_the_end": sum(left) / max(1, len(left)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["edge"])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for players, modules in ((2, []), (4, []), (4, ["hazards", "legendary", "artifacts"])):
        r = edge(players, args.games, modules)
        share = 100 * r["rim_took_a_tile"] / max(1, r["placements"])
        print(
            f"{players} players, modules {modules or 'none'}: {r['games']} games, "
            f"{r['placements']} tile placements, the rim took a tile in "
            f"{r['rim_took_a_tile']} ({share:.1f}%), ship on the rim {r['on_the_rim']}, "
            f"tiles left in the stack at the end {r['tiles_left_at_the_end']:.1f}"
        )


if __name__ == "__main__":
    main()
