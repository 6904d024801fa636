"""Stellar Conflict speed figures: battle resolution on War-scale tables (2 x 15 cards)
by the engine and by a straightforward shapely reference, and the placement heuristic
against random placement.

    skydeck bench conflict                        (random play, then ``report``)
    python benchmarks/bench_conflict_battle.py    (the same battle figures)
    python -m skydeck.games.conflict.bench --duel 500 --scale conflict

``shapely_resolve`` fights a battle with every laser traced by shapely (LineString rays
against Polygon cards and LineString shields; shapely is a dev dependency, imported
inside it) and the step's effects applied by the engine's own ``apply_shots``, so the
two differ only in geometry; ``compare`` times both (best of a few rounds, alternated)
and checks that every shot, the table, the scores and the cubes come out identical.
``reference_shots`` is an older float reference of one step's tracing, kept for tests.
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


# --- the shapely reference: whole battles ------------------------------------------


def shapely_step(st: ConflictState) -> None:
    """Resolve the next step with its lasers traced by shapely: every card a Polygon,
    every laser a LineString long enough to cross the table, intersected with every
    other card; shields are LineStrings the hit point must lie on. The obvious way, not
    a tuned one. The step's effects are the engine's (``apply_shots``), so any
    difference in results comes from the geometry."""
    from shapely.geometry import LineString, Point, Polygon, box

    ships = st.game.content.ships
    width, height = st.game.shapes.width, st.game.shapes.height
    reach = 2.0 * math.hypot(width, height)
    table = box(0, 0, width, height)
    initiative, firing, present = b.step_cards(st)
    polygons = {v: Polygon(_corners(st, st.cards[v])) for v in present}
    shots: list[dict[str, Any]] = []
    for u in firing:
        c = st.cards[u]
        for k, lz in enumerate(ships[c[b.C_SHIP]].lasers):
            p = _world(c, lz.lx / 2, lz.ly / 2)
            ang = math.radians(c[b.C_ANGLE] + lz.direction)
            far = (p[0] - reach * math.sin(ang), p[1] + reach * math.cos(ang))
            ray, start = LineString([p, far]), Point(p)
            best: tuple[float, int, Any] | None = None
            for v in present:
                if v == u:
                    continue
                met = ray.intersection(polygons[v])
                if met.is_empty:
                    continue
                t = start.distance(met)
                if best is None or t < best[0]:
                    best = (t, v, met)
            shot: dict[str, Any] = {
                "from_card": u,
                "laser": k,
                "from": [round(p[0], 2), round(p[1], 2)],
            }
            if best is None:
                x, y = ray.intersection(table).coords[-1]
                shot.update(target=None, to=[round(x, 2), round(y, 2)], blocked=False)
            else:
                t, v, _met = best
                q = ray.interpolate(t)
                blocked = False
                if lz.kind != "piercing":
                    tc = st.cards[v]
                    for x1, y1, x2, y2 in ships[tc[b.C_SHIP]].shields:
                        shield = LineString(
                            [_world(tc, x1 / 2, y1 / 2), _world(tc, x2 / 2, y2 / 2)]
                        )
                        if shield.distance(q) < 1e-6:
                            blocked = True
                shot.update(target=v, to=[round(q.x, 2), round(q.y, 2)], blocked=blocked)
            shot.update(strength=lz.strength, laser_kind=lz.kind)
            shots.append(shot)
    b.apply_shots(st, initiative, firing, present, shots)


def shapely_resolve(st: ConflictState) -> list[list[dict[str, Any]]]:
    """The whole battle through the shapely reference; the shots of every step."""
    steps = []
    while b.next_initiative(st) is not None:
        shapely_step(st)
        steps.append(st.last_shots)
    return steps


def outcome(st: ConflictState, steps: list[list[dict[str, Any]]]) -> Any:
    """What must match between the engine and the reference: every shot's shooter,
    laser, target, shield block and result, and the table, scores and cubes after."""
    keys = ("from_card", "laser", "target", "blocked", "result", "damage", "cubes")
    return (
        [[tuple(s.get(k) for k in keys) for s in shots] for shots in steps],
        [(c[b.C_ALIVE], c[b.C_DAMAGE], c[b.C_CUBES], c[b.C_DELAYS]) for c in st.cards],
        st.scores,
        st.vaporised,
        st.kills,
    )


def compare(tables: int, seed: int = 0, rounds: int = 3) -> dict[str, Any]:
    """War-scale battles resolved by the engine and by the shapely reference.

    Each battle is timed alone, engine and reference alternately, ``rounds`` times,
    and its fastest time kept: on a shared machine a busy spell only ever slows a run
    down, so the minimum is the figure least disturbed by it."""
    boards = [war_table(seed + i) for i in range(tables)]
    cold = [war_table(seed + i) for i in range(tables)]  # fresh games: empty shape caches
    start = time.perf_counter()
    for st in cold:
        resolve(st)
    cold_s = (time.perf_counter() - start) / tables
    for st in boards:  # fill the shape caches, as placing the cards does in a real game
        resolve(st.clone())
    engine_s = [math.inf] * tables
    reference_s = [math.inf] * tables
    same = shots = 0
    clock = time.perf_counter
    for r in range(rounds):
        for k, st in enumerate(boards):
            mine_st, their_st = st.clone(), st.clone()
            t0 = clock()
            mine = resolve(mine_st)
            t1 = clock()
            theirs = shapely_resolve(their_st)
            t2 = clock()
            engine_s[k] = min(engine_s[k], t1 - t0)
            reference_s[k] = min(reference_s[k], t2 - t1)
            if r == 0:
                shots += sum(len(x) for x in mine)
                same += outcome(mine_st, mine) == outcome(their_st, theirs)
    engine, reference = sum(engine_s) / tables, sum(reference_s) / tables
    return {
        "war tables (2 x 15 ships)": tables,
        "shots per battle": round(shots / tables, 1),
        "engine battle ms": round(engine * 1000, 3),
        "engine battle ms, shapes not cached yet": round(cold_s * 1000, 3),
        "shapely reference battle ms": round(reference * 1000, 3),
        "speed ratio (reference / engine)": round(reference / engine, 1),
        "identical results": f"{same}/{tables}",
    }


def report(seconds: float = 3.0) -> dict[str, Any]:
    """Figures for ``skydeck bench conflict``: as many War tables as fit in about
    ``seconds`` (at least 5)."""
    probe = compare(2, seed=10_000, rounds=1)
    per_table = 3 * (2 * probe["engine battle ms"] + probe["shapely reference battle ms"]) / 1000
    tables = max(5, int(seconds / max(per_table, 1e-3)))
    return compare(tables)


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
    from skydeck.games.conflict.ai.heuristic import HeuristicAgent

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
