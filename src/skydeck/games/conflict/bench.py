"""Stellar Conflict speed figures: battle resolution on a War-scale table (2 x 15 cards),
and the exact engine's laser tracing checked against a plain floating-point reference.

    python -m skydeck.games.conflict.bench [--tables 20]
    python -m skydeck.games.conflict.bench --duel 200 --scale dispute [--random-fleet]

The reference computes every step's shots the straightforward way (floats, every
laser against every edge of every card, no bounding-circle filter); the engine's shots
must name the same targets and the same shield blocks.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from skydeck.core import Rng
from skydeck.games.conflict import battle as b
from skydeck.games.conflict.game import ConflictGame
from skydeck.games.conflict.state import BATTLE, ConflictState

WISS_15 = ["glimmer_1", "glimmer_2", "glimmer_3", "lancer_1", "lancer_2", "lancer_3"]
WISS_15 += ["mistral_1", "mistral_2", "warden_1", "warden_2", "tempest_1", "tempest_2", "prism_1"]
VAK_15 = ["needle_1", "needle_2", "needle_3", "raider_1", "raider_2", "raider_3"]
VAK_15 += ["harrier_1", "harrier_2", "bulwark_1", "spear_1", "spear_2", "flayer_1", "flayer_2"]


def war_table(seed: int) -> ConflictState:
    """A Battle-phase state: Cargo ship, 13 ships and the Flagship per side, at random
    free grid spots (so about 30 cards on a 900 x 600 mm table)."""
    game = ConflictGame(players=2, scale="war")
    st = game.new(seed)
    rng = Rng(seed)
    content = game.content
    st.ready = [True, True]
    for seat, (race, names) in enumerate((("wiss", WISS_15), ("vak", VAK_15))):
        ids = [content.cargo_of(race), content.flagship_of(race)]
        ids += [content.by_id[f"{race}.{n}"] for n in names]
        st.fleets[seat] = ids[2:]
        for ship in ids:
            free = st.free_placements()
            x, y, a = free[rng.below(len(free))]
            cubes = game.cubes_per_source if content.ships[ship].role == "cargo" else 0
            st.cards.append(b.new_card(ship, seat, x, y, a, cubes))
            st._free = None
    st.phase = BATTLE
    return st


def resolve(st: ConflictState) -> list[list[dict[str, Any]]]:
    """Fight the whole battle; the shots of every step."""
    steps = []
    while b.next_initiative(st) is not None:
        b.fire_step(st)
        steps.append(st.last_shots)
    return steps


# --- the floating-point reference ---------------------------------------------------


def _corners(st: ConflictState, c: list[Any]) -> list[tuple[float, float]]:
    hw, hl = st.game.content.table.card.width_mm / 2, st.game.content.table.card.length_mm / 2
    return [_world(c, lx, ly) for lx, ly in ((-hw, -hl), (hw, -hl), (hw, hl), (-hw, hl))]


def _world(c: list[Any], lx: float, ly: float) -> tuple[float, float]:
    a = math.radians(c[b.C_ANGLE])
    return (
        c[b.C_X] + lx * math.cos(a) - ly * math.sin(a),
        c[b.C_Y] + lx * math.sin(a) + ly * math.cos(a),
    )


Pt = tuple[float, float]


def _ray_segment(p: Pt, d: Pt, a: Pt, q: Pt) -> float | None:
    ex, ey = q[0] - a[0], q[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-12:
        return None
    wx, wy = a[0] - p[0], a[1] - p[1]
    t = (wx * ey - wy * ex) / den
    u = (wx * d[1] - wy * d[0]) / den
    return t if t >= 0 and -1e-9 <= u <= 1 + 1e-9 else None


def reference_shots(st: ConflictState) -> list[tuple[int, int, int | None, bool]]:
    """(shooter, laser, target, blocked) of the next step, computed with floats."""
    ships = st.game.content.ships
    initiative = b.next_initiative(st)
    firing = [u for u in b.shooters(st) if b.effective_initiative(st, st.cards[u]) == initiative]
    present = [u for u, c in enumerate(st.cards) if c[b.C_ALIVE]]
    corners = {u: _corners(st, st.cards[u]) for u in present}
    out: list[tuple[int, int, int | None, bool]] = []
    for u in firing:
        c = st.cards[u]
        for k, lz in enumerate(ships[c[b.C_SHIP]].lasers):
            p = _world(c, lz.lx / 2, lz.ly / 2)
            ang = math.radians(c[b.C_ANGLE] + lz.direction)
            d = (-math.sin(ang), math.cos(ang))
            best: tuple[float, int] | None = None
            for v in present:
                if v == u:
                    continue
                cs = corners[v]
                for i in range(4):
                    t = _ray_segment(p, d, cs[i], cs[(i + 1) % 4])
                    if t is not None and (best is None or t < best[0]):
                        best = (t, v)
            if best is None:
                out.append((u, k, None, False))
                continue
            t, v = best
            q = (p[0] + t * d[0], p[1] + t * d[1])
            blocked = False
            if lz.kind != "piercing":
                tc = st.cards[v]
                for x1, y1, x2, y2 in ships[tc[b.C_SHIP]].shields:
                    a1, a2 = _world(tc, x1 / 2, y1 / 2), _world(tc, x2 / 2, y2 / 2)
                    seg = math.hypot(a2[0] - a1[0], a2[1] - a1[1])
                    off = abs((a2[0] - a1[0]) * (q[1] - a1[1]) - (a2[1] - a1[1]) * (q[0] - a1[0]))
                    along = (q[0] - a1[0]) * (a2[0] - a1[0]) + (q[1] - a1[1]) * (a2[1] - a1[1])
                    if off / seg < 1e-6 and -1e-6 <= along / seg <= seg + 1e-6:
                        blocked = True
            out.append((u, k, v, blocked))
    return out


def run(tables: int = 20, seed: int = 0) -> dict[str, Any]:
    boards = [war_table(seed + i) for i in range(tables)]
    # engine: whole battles
    start = time.perf_counter()
    for st in boards:
        resolve(st.clone())
    engine_s = (time.perf_counter() - start) / tables
    # reference tracing, and agreement, step by step on the same battles
    agree = shots = 0
    ref_time = 0.0
    for st in boards:
        s = st.clone()
        while b.next_initiative(s) is not None:
            t0 = time.perf_counter()
            ref = reference_shots(s)
            ref_time += time.perf_counter() - t0
            b.fire_step(s)
            mine = [(x["from_card"], x["laser"], x["target"], x["blocked"]) for x in s.last_shots]
            shots += len(mine)
            agree += sum(1 for m, r in zip(mine, ref) if m == r)
    return {
        "tables": tables,
        "cards_per_table": len(boards[0].cards),
        "battle_ms": round(engine_s * 1000, 2),
        "reference_tracing_ms": round(ref_time / tables * 1000, 2),
        "shots": shots,
        "identical_shots": agree,
    }


def duel(games: int, scale: str, random_fleet: bool = False) -> dict[str, Any]:
    """The heuristic against random placement, seats alternating. The random seat's
    fleet is the heuristic's choice unless ``random_fleet`` (then it is random too)."""
    from skydeck.games.conflict.agents import HeuristicAgent

    game = ConflictGame(players=2, scale=scale)
    wins = ties = 0
    for seed in range(games):
        me = seed % 2
        st = game.new(seed)
        agent, shopper = HeuristicAgent(game, seed), HeuristicAgent(game, seed + 99)
        rng = Rng(seed * 7 + 1)
        while not st.is_over:
            seat = rng.choice(st.to_move)
            acts = st.legal_actions(seat)
            if seat == me:
                action = agent.choose(st.view(seat), acts, seat)
            elif st.phase == "preparation" and not random_fleet:
                action = shopper.choose(st.view(seat), acts, seat)
            else:
                action = acts[rng.below(len(acts))]
            st.apply(action, seat)
        wins += st.winners == (me,)
        ties += len(st.winners) > 1 and me in st.winners
    return {
        "scale": scale,
        "random_fleet": random_fleet,
        "games": games,
        "wins": wins,
        "ties": ties,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--duel", type=int, default=0, help="games of heuristic vs random")
    parser.add_argument("--scale", default="conflict")
    parser.add_argument("--random-fleet", action="store_true")
    args = parser.parse_args()
    if args.duel:
        print(json.dumps(duel(args.duel, args.scale, args.random_fleet)))
    else:
        print(json.dumps(run(args.tables)))
