"""The Battle phase, one initiative step at a time.

A step: every ship of the lowest initiative still to fire shoots all its lasers at once
(rays traced against the table as it stood before the step); then damage, Delay tokens
and stolen Cargo are applied together; then destroyed ships leave the table (kill piles,
cubes vaporised or, with Stolen Goods, handed to the ship that struck the final blow);
then emptied Cargo ships and Meteors leave; then Hexai-style regeneration.

Each card on the table is a plain list (see the ``C_*`` indexes) so a state clones with
one list copy per card.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import add, itemgetter, sub
from typing import TYPE_CHECKING, Any

from skydeck.core import Event
from skydeck.games.conflict import geometry as g

if TYPE_CHECKING:
    from skydeck.games.conflict.shapes import Shape
    from skydeck.games.conflict.state import ConflictState

# indexes into a table card: [ship, owner, x, y, angle, alive, cubes, delays, fired, damage]
C_SHIP, C_OWNER, C_X, C_Y, C_ANGLE, C_ALIVE, C_CUBES, C_DELAYS, C_FIRED, C_DAMAGE = range(10)
NEUTRAL = -1  # owner of Meteor cards


def new_card(ship: int, owner: int, x: int, y: int, angle: int, cubes: int = 0) -> list[Any]:
    return [ship, owner, x, y, angle, 1, cubes, 0, 0, ()]


def public_events(kind: str, datas: list[dict[str, Any]]) -> list[Event]:
    """The battle's public events of one kind (about 40 laser events a War battle)."""
    return [Event(kind, d) for d in datas]


def effective_initiative(st: ConflictState, card: list[Any]) -> int:
    return int(st.game.content.ships[card[C_SHIP]].initiative + 2 * card[C_DELAYS])


def shooters(st: ConflictState) -> list[int]:
    """Cards on the table that still have lasers to fire."""
    ships = st.game.content.ships
    return [
        uid
        for uid, c in enumerate(st.cards)
        if c[C_ALIVE] and not c[C_FIRED] and ships[c[C_SHIP]].lasers
    ]


def next_initiative(st: ConflictState) -> int | None:
    armed = _roles(st)[3]
    best = None
    for c in st.cards:
        if c[C_ALIVE] and not c[C_FIRED]:
            base = armed[c[C_SHIP]]
            if base >= 0:
                initiative = base + 2 * c[C_DELAYS]
                if best is None or initiative < best:
                    best = initiative
    return best


def distribute(cubes: int, strengths: list[int], ships: int) -> tuple[list[int], int]:
    """Cubes each laser takes from a Cargo source, and how many are vaporised.

    Enough cubes: every laser takes its strength. One ship shooting (``ships`` == 1),
    however many of its lasers hit: it removes cubes equal to the damage, so its
    lasers take, in order, what is left and nothing is vaporised (the three passes are
    for "multiple ships ... shooting at the same Cargo Ship simultaneously"). Several
    ships and too few cubes: the rulebook's three passes (all lasers, then strength 2+,
    then strength 3), one cube per laser per pass, all the rest vaporised in the first
    pass that cannot serve every laser."""
    if sum(strengths) <= cubes:
        return list(strengths), 0
    if ships == 1:
        taken = []
        for s in strengths:
            n = min(s, cubes)
            taken.append(n)
            cubes -= n
        return taken, 0
    taken = [0] * len(strengths)
    for level in (1, 2, 3):
        firing = [i for i, s in enumerate(strengths) if s >= level]
        if not firing:
            continue
        if cubes >= len(firing):
            for i in firing:
                taken[i] += 1
            cubes -= len(firing)
        else:
            return taken, cubes
    return taken, cubes


def _mm(v: int, den: int = 1) -> float:
    return round(v / den / g.MM, 2)


def _display_point(ray: tuple[float, float, float, float], t: float) -> list[float] | None:
    """``ray`` at ``t`` mm rounded to 0.01 mm as ``_mm`` rounds the exact point, or None
    when a coordinate lies within 1e-6 mm of a rounding boundary. (``t`` comes from a
    slab entered at a slope above 1e-3, so it is off by under 1e-9 mm, and elsewhere
    the float point and the exact one round alike.)"""
    x, y = ray[0] + t * ray[2], ray[1] + t * ray[3]
    fx, fy = (x * 100) % 1, (y * 100) % 1
    if abs(fx - 0.5) < 1e-4 or abs(fy - 0.5) < 1e-4:
        return None
    return [round(x, 2), round(y, 2)]


def trace_cards(
    st: ConflictState,
    uids: list[int],
    placed: list[Shape],
    rects: list[g.Rect],
    circles: list[Any] | None,
    frames: list[tuple[float, ...]],
    axes: Axes | None = None,
    alive: list[int] | None = None,
    out: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One shot record per laser of each card of ``uids`` in turn (a step's firing
    cards: one call, so the set-up is paid once per step): where it goes and what it
    meets first among the cards on the table (all by card number). The cards no longer
    there are marked ``DEAD`` in ``circles`` or false in ``alive``; ``axes`` is
    ``_axes`` of every card's circle, made once per table (from ``circles`` when not
    given). The records are appended to ``out`` (a new list if None)."""
    if out is None:
        out = []
    mm = g.MM
    nearest_card = g.nearest_card
    exit_mm = st.game.shapes.exit_mm  # where a shot that meets no card ends
    if axes is None:
        assert circles is not None, "trace_cards needs circles or axes"
        axes = _axes(circles)
    reach, band, (xs, by_x), (ys, by_y), (ss, by_s), (ds, by_d) = axes
    for uid in uids:
        shape = placed[uid]
        skip = uid
        rays = shape.rays
        origins = shape.origins_mm
        for k, (p, d, strength, kind) in enumerate(shape.lasers):
            ray = rays[k]
            # only the cards in the band a ray along an axis or a diagonal sweeps, else
            # those not wholly behind the ray's start along its main axis
            px, py, ux, uy = ray
            if uy == 0.0:
                ahead = by_y[bisect_left(ys, py - band) : bisect_right(ys, py + band)]
            elif ux == 0.0:
                ahead = by_x[bisect_left(xs, px - band) : bisect_right(xs, px + band)]
            elif ux == uy:
                v = px - py
                ahead = by_d[bisect_left(ds, v - reach) : bisect_right(ds, v + reach)]
            elif ux == -uy:
                v = px + py
                ahead = by_s[bisect_left(ss, v - reach) : bisect_right(ss, v + reach)]
            elif abs(ux) >= abs(uy):
                if ux > 0:
                    ahead = by_x[bisect_left(xs, px - reach) :]
                else:
                    ahead = by_x[: bisect_right(xs, px + reach)]
            elif uy > 0:
                ahead = by_y[bisect_left(ys, py - reach) :]
            else:
                ahead = by_y[: bisect_right(ys, py + reach)]
            near = nearest_card(ray, skip, ahead, frames, alive)
            to: list[float] | None = None
            blocked = False
            if near is None:
                to = list(exit_mm(p, d))
                target = None
            else:
                target, edge, t_mm, slope = near
                shields = None
                if target >= 0:
                    shields = placed[target].shields
                    if slope > 1e-3 and not (shields and kind != "piercing"):
                        # no shield to test: the rounded point from floats, unless it lies
                        # too near a rounding boundary to be sure (``_display_point``,
                        # inlined: this runs for most shots)
                        x = (px + t_mm * ux) * 100
                        y = (py + t_mm * uy) * 100
                        if -1e-4 < x % 1 - 0.5 < 1e-4 or -1e-4 < y % 1 - 0.5 < 1e-4:
                            to = None
                        else:
                            # round(v, 2), the fast way: v * 100 is off by under 1e-10
                            # and at least 1e-4 from a rounding tie, so it rounds to the
                            # same integer, and int / 100 is the double nearest n / 100
                            to = [round(x) / 100, round(y) / 100]
                if to is None:  # the exact point: shields, or floats too close to call
                    if target >= 0:
                        rect = rects[target]
                        t = g.ray_segment(p, d, rect[edge], rect[(edge + 1) % 4])
                    else:
                        t = None
                    if t is None:
                        if circles is None:  # every card by number, as first_hit_exact wants
                            assert alive is not None, "trace_cards needs circles or alive"
                            circles = [n if alive[n[0]] else DEAD for n in sorted(by_x)]
                        hit = g.first_hit_exact(p, d, rects, skip, circles)
                        if hit is None:  # "too close to call" was a graze: no card met
                            target, to = None, list(exit_mm(p, d))
                        else:
                            target, t = hit
                            shields = placed[target].shields
                    if t is not None:
                        q = x, y, den = g.point_at(p, d, t)
                        if shields and kind != "piercing":
                            blocked = any(g.on_segment(q, a, b) for a, b in shields)
            if to is None:
                to = [round(x / den / mm, 2), round(y / den / mm, 2)]  # as _mm
            out.append(
                {
                    "from_card": uid,
                    "from": list(origins[k]),
                    "laser": k,
                    "target": target,
                    "to": to,
                    "blocked": blocked,
                    "strength": strength,
                    "laser_kind": kind,
                }
            )
    return out


def fire_step(st: ConflictState) -> list[Event]:
    """Resolve the next initiative step; the caller ends the battle when none is left."""
    initiative, firing, present = step_cards(st)
    placed, rects, circles, frames, axes, alive = _table_geometry(st)
    shots: list[dict[str, Any]] = []
    trace_cards(st, firing, placed, rects, circles, frames, axes, alive, shots)
    return apply_shots(st, initiative, firing, present, shots)


DEAD = (-1, 0.0, 0.0, -1.0)  # a bounding circle no ray comes near (cards off the table)

#: spatial pruning for ``trace_cards``: a reach and a band (mm), then every card's circle
#: sorted by centre x, by centre y, by x + y and by x - y (each: the sorted keys, the
#: circles)
Axes = tuple[Any, ...]


def _axes(circles: list[Any]) -> Axes:
    """Spatial pruning for ``trace_cards``, made once per table (cards never move).

    ``nearest_card`` keeps a card when the ray passes within its radius r of the
    centre, not wholly behind the start. So for a ray along an axis the centre lies
    within r of the start across it (the band); along a diagonal, x - y (or x + y)
    lies within r * sqrt(2) of the start's; and otherwise the centre lies at most
    r * (|ux| + |uy|) <= r * sqrt(2) behind the start along the ray's main axis.
    Bisections on the sorted keys drop the other cards (most of them) before
    ``nearest_card``; ``reach`` and ``band`` hold a 1 mm margin over those bounds."""
    r = max((c[3] for c in circles), default=0.0)
    out: list[Any] = [1.5 * r + 1.0, r + 1.0]
    for axis in (1, 2):  # (sorting the circles by a field is quickest)
        by = sorted(circles, key=itemgetter(axis))
        out.append((list(map(itemgetter(axis), by)), by))
    xs = list(map(itemgetter(1), circles))
    ys = list(map(itemgetter(2), circles))
    for keys in (list(map(add, xs, ys)), list(map(sub, xs, ys))):
        order = sorted(range(len(keys)), key=keys.__getitem__)
        out.append((list(map(keys.__getitem__, order)), list(map(circles.__getitem__, order))))
    return tuple(out)


def _table_geometry(st: ConflictState) -> tuple[Any, ...]:
    """Shapes, rectangles, float frames and the spatial pruning (``_axes``) of every
    card, by card number. Cards never move, so this is built once per table and shared
    by clones; only the alive flags are made per step."""
    cards = st.cards
    cache = st._step_cache
    if cache is None or cache[0] != len(cards):
        shape_of = st.game.shapes.shape
        upkeep = _roles(st)[4]
        placed = [shape_of(c[C_SHIP], c[C_X], c[C_Y], c[C_ANGLE]) for c in cards]
        near = [(i, *s.near) for i, s in enumerate(placed)]
        cache = st._step_cache = (
            len(cards),
            placed,
            [s.rect for s in placed],
            [s.frame for s in placed],
            near,
            _axes(near),
            # cards with upkeep after a step (see ``_roles``), by card number
            [u for u, c in enumerate(cards) if upkeep[c[C_SHIP]]],
        )
    _n, placed, rects, frames, _near, axes, _upkeep = cache
    alive = [c[C_ALIVE] for c in cards]
    return placed, rects, None, frames, axes, alive  # (trace_cards makes circles if needed)


def step_cards(st: ConflictState) -> tuple[int, list[int], list[int]]:
    """The next step's initiative, its firing cards and the cards on the table (one
    pass: this runs every step of every simulated battle)."""
    armed = _roles(st)[3]
    best = -1
    firing: list[int] = []
    present: list[int] = []
    for u, c in enumerate(st.cards):
        if not c[C_ALIVE]:
            continue
        present.append(u)
        if c[C_FIRED]:
            continue
        base = armed[c[C_SHIP]]
        if base < 0:
            continue
        initiative = base + 2 * c[C_DELAYS]
        if best < 0 or initiative < best:
            best, firing = initiative, [u]
        elif initiative == best:
            firing.append(u)
    assert best >= 0, "fire_step with nobody left to fire"
    return best, firing, present


Roles = tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...]]
_ROLES: dict[int, tuple[Any, Roles]] = {}


def _roles(st: ConflictState) -> Roles:
    """Per card design, read every step: the hull of a ship or Flagship (-1 for cards
    that cannot be destroyed), whether it is a Cargo source, its regeneration, its
    printed initiative (-1 for cards without lasers), whether it has upkeep after the
    step (a Cargo source that may empty, or regeneration)."""
    ships = st.game.content.ships
    entry = _ROLES.get(id(ships))
    if entry is None or entry[0] is not ships:  # (holding ``ships`` keeps its id unique)
        roles = (
            tuple(s.hull if s.role in ("ship", "flagship") else -1 for s in ships),
            tuple(s.role in ("cargo", "meteor") for s in ships),
            tuple(s.regenerate for s in ships),
            tuple(s.initiative if s.lasers else -1 for s in ships),
            tuple(bool(s.regenerate) or s.role in ("cargo", "meteor") for s in ships),
        )
        entry = _ROLES[id(ships)] = (ships, roles)
    return entry[1]


def apply_shots(
    st: ConflictState,
    initiative: int,
    firing: list[int],
    present: list[int],
    shots: list[dict[str, Any]],
) -> list[Event]:
    """Everything a step does once its lasers are traced (``shots``: from_card, laser,
    from, target, to, blocked, strength, kind, in firing order). Shared with the
    benchmark's geometric reference so both resolve the same rules."""
    ships = st.game.content.ships
    cards = st.cards
    st.step += 1
    st.initiative = initiative
    events: list[Event] = [
        Event("initiative", {"step": st.step, "initiative": initiative, "firing": firing})
    ]

    # --- effects, all at once ------------------------------------------------------
    mortal, source, regenerate, _armed, upkeep = _roles(st)
    dealt = st.dealt
    cargo_hits: dict[int, list[dict[str, Any]]] = {}
    delayed: list[int] = []  # targets an ion laser delayed
    for shot in shots:
        target = shot["target"]
        if target is None:
            shot["result"] = "miss"
            continue
        if shot["blocked"]:
            shot["result"] = "shield"
            continue
        tc = cards[target]
        design = tc[C_SHIP]
        tcard = ships[design]
        kind, strength = shot["laser_kind"], shot["strength"]
        if kind == "ion":
            if (
                tcard.lasers
                and not tc[C_FIRED]
                and target not in firing  # (a few cards: a list is quicker than a set)
                and not tcard.ion_proof
                and tcard.role in ("ship", "flagship")
            ):
                tc[C_DELAYS] += 1
                delayed.append(target)
                shot["result"] = "delay"
            else:
                shot["result"] = "ion_no_effect"
            continue
        amount = 1 if kind == "piercing" else strength
        if source[design]:  # a Cargo ship or Meteor
            cargo_hits.setdefault(target, []).append(shot)
            shot["result"] = "cargo"
            continue
        if strength in tcard.immune_to:
            shot["result"] = "immune"
            continue
        shooter = shot["from_card"]
        owner = cards[shooter][C_OWNER]
        tc[C_DAMAGE] = tc[C_DAMAGE] + (owner,) * amount
        dealt[owner] += amount
        shot["result"] = "damage"
        shot["damage"] = amount

    moves: list[dict[str, Any]] = []
    for target in sorted(cargo_hits):
        hits = cargo_hits[target]
        tc = cards[target]
        strengths = [1 if h["laser_kind"] == "piercing" else h["strength"] for h in hits]
        ships_firing = len({h["from_card"] for h in hits})
        taken, lost = distribute(tc[C_CUBES], strengths, ships_firing)
        tc[C_CUBES] -= sum(taken) + lost
        st.vaporised += lost
        if lost:
            moves.append({"from_card": target, "to_card": None, "cubes": lost, "why": "shortage"})
        for h, n in zip(hits, taken):
            h["cubes"] = n
            if not n:
                continue
            thief = cards[h["from_card"]]
            if tc[C_OWNER] == thief[C_OWNER]:
                st.vaporised += n
                moves.append({"from_card": target, "to_card": None, "cubes": n, "why": "own"})
            else:
                thief[C_CUBES] += n
                moves.append(
                    {"from_card": target, "to_card": h["from_card"], "cubes": n, "why": "stolen"}
                )

    events += public_events("laser", shots)
    for u in sorted(set(delayed)):
        events.append(Event("delay", {"card": u, "delays": cards[u][C_DELAYS]}))
    for m in moves:
        events.append(Event("cubes", m))

    # --- destruction ----------------------------------------------------------------
    destroyed = []
    for u in present:
        c = cards[u]
        if c[C_DAMAGE]:  # (an undamaged card survives: every mortal hull is 1 or more)
            hull = mortal[c[C_SHIP]]
            if hull >= 0 and len(c[C_DAMAGE]) >= hull:
                destroyed.append(u)
    dead = set(destroyed)
    stolen_goods = bool(destroyed) and "stolen_goods" in st.game.options["variants"]
    for u in destroyed:
        c = cards[u]
        c[C_ALIVE] = 0
        pile = st.kill_pile_for(c)
        if pile >= 0:
            st.kills[pile].append(u)
        for seat in c[C_DAMAGE]:
            st.returned[seat] += 1
        events.append(Event("destroyed", {"card": u, "kill_pile": pile if pile >= 0 else None}))
        if c[C_CUBES]:
            n, c[C_CUBES] = c[C_CUBES], 0
            # every ship whose laser hit it this step, damage or not (a shield, an ion,
            # an immune hull): the rulebook calls a shot that does no damage a hit too
            hitters = {shot["from_card"] for shot in shots if shot["target"] == u}
            if stolen_goods and len(hitters) == 1 and next(iter(hitters)) not in dead:
                heir = next(iter(hitters))
                cards[heir][C_CUBES] += n
                events.append(
                    Event(
                        "cubes", {"from_card": u, "to_card": heir, "cubes": n, "why": "final_blow"}
                    )
                )
            else:
                st.vaporised += n
                events.append(
                    Event(
                        "cubes", {"from_card": u, "to_card": None, "cubes": n, "why": "destroyed"}
                    )
                )
    # emptied Cargo sources leave, then regeneration (one pass, events in that order)
    regenerated = []
    cache = st._step_cache
    if cache is not None and cache[0] == len(cards):
        tending = cache[6]  # the table's cards with upkeep: a few of those present
    else:
        tending = [u for u in present if upkeep[cards[u][C_SHIP]]]
    for u in tending:
        c = cards[u]
        if not c[C_ALIVE]:
            continue
        ship = c[C_SHIP]
        if c[C_CUBES] == 0 and source[ship]:
            c[C_ALIVE] = 0
            events.append(Event("depleted", {"card": u}))
            continue
        regen = regenerate[ship]
        if regen and c[C_DAMAGE]:
            n = min(regen, len(c[C_DAMAGE]))
            for seat in c[C_DAMAGE][-n:]:
                st.returned[seat] += 1
            c[C_DAMAGE] = c[C_DAMAGE][:-n]
            regenerated.append(Event("regenerated", {"card": u, "removed": n}))
    for u in firing:
        cards[u][C_FIRED] = 1
    events += regenerated
    st.last_shots = shots
    return events
