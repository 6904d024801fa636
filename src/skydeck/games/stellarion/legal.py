"""Which actions are legal now: one generator per phase.

Each generator fills an ordered dict {Action: key}; the key is a small tuple of ints
that the effects module applies without parsing text again. Actions are memoised on the
game (by key) and shared by value (``action``), so a position's legal list costs a few
dict look-ups, not fresh objects.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from skydeck.core import Action
from skydeck.core.action import shared
from skydeck.games.stellarion.cards import (
    BLACK_HOLE,
    DECKS,
    FACE_NAMES,
    MIRROR,
    N_DECKS,
    OUTPOST_SOURCE,
    SOURCE_NAMES,
    STAR_SOURCE,
)

if TYPE_CHECKING:
    from skydeck.games.stellarion.state import StellarionState

Key = tuple[Any, ...]  # (code, *ints)

# phases
MAIN, THRUST, POWER, LOOK, TRAVERSE, END, OVER = range(7)
PHASE_NAMES = ("main", "thrusters", "power", "stars_look", "traverse", "end", "over")

# breakthrough effects, by the Type they upgrade
THRUSTERS, RADAR, AMPLIFIER, BIODOMES = range(4)


#: every action built, by value, shared by all games (``core.action.shared``): a game's
#: memo (by key, above) misses once per key, and the RL catalogue is built from the same
#: objects, so it maps a legal list by identity and an index decodes to the engine's own
#: action
action = shared


def _act(s: StellarionState, key: Key, kind: str, args: tuple) -> Action:
    memo = s.game.memo
    a = memo.get(key)
    if a is None:
        a = memo[key] = action(kind, args)
    return a


def voyage_allowed(s: StellarionState, seat: int, galaxy: int) -> bool:
    """Two-player co-op: a victory pile holds Voyages of at most two Galaxies."""
    if s.game.players == 1:
        return True
    vg = s.game.voyage_galaxy
    gals = {vg[v] for v in s.piles[seat]}
    return galaxy in gals or len(gals) < 2


def accessible(s: StellarionState) -> list[int]:
    """Voyages that may be taken: the uncovered card of each column (without Mirrors
    the columns are the four Galaxy stacks, whose cards are interchangeable)."""
    return [col[-1] for col in s.columns if col]


def observatory(s: StellarionState) -> list[tuple[int, int]]:
    """(source, face) of every face-up top card."""
    up, decks = s.up, s.decks
    return [(d, decks[d][-1] & 31) for d in range(N_DECKS) if up[d]]


def sources(s: StellarionState) -> list[tuple[int, int]]:
    """(source, face) of every card usable for a Launch or a Coordinate."""
    out = observatory(s)
    for c in s.outpost:
        f = c & 31
        out.append((OUTPOST_SOURCE + f, f))
    return out


def generate(s: StellarionState) -> dict[Action, Key]:
    phase = s.phase
    out: dict[Action, Key] = {}
    if phase == MAIN:
        main_actions(s, out)
        free_actions(s, out)
    elif phase == POWER:
        power_actions(s, out)
    elif phase == LOOK:
        look_actions(s, out)
    elif phase == THRUST:
        for c in s.p_cards:
            key = ("B", c)
            out[_act(s, key, "bottom", (DECKS[c >> 5], FACE_NAMES[c & 31]))] = key
        out[_act(s, ("BD",), "discard", ())] = ("BD",)
    elif phase == TRAVERSE:
        take_actions(s, out)
    elif phase == END:
        end_actions(s, out)
        free_actions(s, out)
    return out


#: Main-step tables a game keeps (``main_actions``); cleared when full.
MAIN_MEMO_MAX = 4_096
#: The memo judges itself over windows of this many look-ups: with fewer than one hit
#: in ``MEMO_MIN_HITS`` of them it stands aside for ``MEMO_REST`` calls, building each
#: table straight into the caller's (random play meets a table again 0.7% of the time
#: and paid 13% of its speed for the keys, the kept dicts and the collector's walks over
#: them; the heuristic meets one again 69% of the time, lookahead 80%).
MEMO_WINDOW = 512
MEMO_MIN_HITS = 8
MEMO_REST = 8 * MEMO_WINDOW


class MemoGate:
    """Whether ``main_actions`` keeps its tables now: look-ups and hits of the current
    window, and the calls left to build without the memo. Per game, so a search and a
    random simulation on different game objects each get what suits them."""

    __slots__ = ("calls", "hits", "rest")

    def __init__(self) -> None:
        self.calls = self.hits = self.rest = 0


def main_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    """Launch, Coordinate and Traverse (the actions whose absence loses the game).

    The table depends only on the usable cards, the uncovered Voyages, whether a
    Shooting Star is left and (co-op) which Galaxies each victory pile may still take,
    so it is kept per game under those (searches meet the same ones again and again:
    siblings share most of the Observatory), while that pays (``MemoGate``). The
    order is the one built, kept or not."""
    srcs = sources(s)
    srcs.sort()  # canonical order: Observatory decks, then Outpost cards by face
    tails = accessible(s)
    game = s.game
    gate = game.main_gate
    if gate.rest:
        gate.rest -= 1
        _main_table(s, srcs, tails, out)
        return
    piles: Any = None
    if game.players > 1:  # voyage_allowed reads the victory piles
        vg = game.voyage_galaxy
        piles = (s.turn, *(frozenset(vg[v] for v in pile) for pile in s.piles))
    memo_key = (*srcs, -1, *tails, s.stars > 0, piles)
    tables = game.main_tables
    table = tables.get(memo_key)
    if table is None:
        if len(tables) >= MAIN_MEMO_MAX:
            tables.clear()
        table = tables[memo_key] = {}
        _main_table(s, srcs, tails, table)
    else:
        gate.hits += 1
    gate.calls += 1
    if gate.calls >= MEMO_WINDOW:
        if gate.hits * MEMO_MIN_HITS < gate.calls:
            gate.rest = MEMO_REST
            tables.clear()  # nothing in it was worth keeping
        gate.calls = gate.hits = 0
    # Kept as a dict (never changed once built): a dict merged into another brings its
    # keys' stored hashes, where pairs would call each Action's hash (Python) again.
    out.update(table)


def _main_table(
    s: StellarionState, srcs: list[tuple[int, int]], tails: list[int], out: dict[Action, Key]
) -> None:
    """``main_actions`` built from nothing (``srcs`` sorted)."""
    game = s.game
    memo = game.memo
    key: Key
    by_face: list[list[int]] = [[] for _ in range(18)]
    for src, f in srcs:
        by_face[f].append(src)
    # Launch
    if tails:
        vg = game.voyage_galaxy
        stars = s.stars
        for g in range(4):
            targets = [v for v in tails if vg[v] == g]
            if not targets:
                continue
            base = g * 4
            opts = by_face[base : base + 4]
            missing = [t for t in range(4) if not opts[t]]
            if len(missing) > 1 or (missing and not stars):
                continue
            if not voyage_allowed(s, s.turn, g):
                continue
            combos: list[tuple[int, ...]] = []
            if not missing:
                combos.extend(product(*opts))
            if stars > 0:
                for t in missing or range(4):
                    slot = [*opts]
                    slot[t] = [STAR_SOURCE]
                    combos.extend(product(*slot))
            for v in targets:
                for combo in combos:
                    key = ("L", v, combo)
                    a = memo.get(key)
                    if a is None:
                        a = memo[key] = action(
                            "launch",
                            (game.voyage_ids[v], tuple(SOURCE_NAMES[x] for x in combo)),
                        )
                    out[a] = key
    # Coordinate: two cards of one Type, or a Mirror with any Celestial card
    mirrors = by_face[MIRROR]
    for t in range(4):
        group = sorted(by_face[t] + by_face[4 + t] + by_face[8 + t] + by_face[12 + t])
        for pair in combinations(group, 2):
            key = ("C", *pair)
            a = memo.get(key)
            if a is None:
                a = memo[key] = action("coordinate", (tuple(SOURCE_NAMES[x] for x in pair),))
            out[a] = key
        for m in mirrors:
            for x in group:
                key = ("C", m, x) if m < x else ("C", x, m)
                a = memo.get(key)
                if a is None:
                    names = (SOURCE_NAMES[key[1]], SOURCE_NAMES[key[2]])
                    a = memo[key] = action("coordinate", (names,))
                out[a] = key
    # Traverse
    if game.black_holes:
        holes = by_face[BLACK_HOLE]
        if len(holes) >= 4 and traverse_targets(s):
            for four in combinations(holes, 4):
                key = ("T", four)
                out[_act(s, key, "traverse", (tuple(DECKS[d] for d in four),))] = key


def traverse_targets(s: StellarionState) -> list[tuple[int, int]]:
    """(voyage, seat) pairs a Traverse may take now (a player may donate in co-op)."""
    vg = s.game.voyage_galaxy
    seats = range(s.game.players)
    return [(v, p) for v in accessible(s) for p in seats if voyage_allowed(s, p, vg[v])]


def free_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    """Proving a Theory and trading two Meteors for a Voyage: not actions, any time
    in one's turn outside a Coordinate (the Meteors by either co-op player)."""
    game = s.game
    if game.theories and s.theories:
        token = s.theories[-1]
        need_type = game.theory_type[token]
        count = 0
        for _src, f in observatory(s):
            if f < 16 and (f & 3) == need_type:
                count += 1
        if count >= game.theory_needs[token]:
            out[_act(s, ("P",), "prove", ())] = ("P",)
    if game.glaucous_sun and s.held >= 2:
        vg = game.voyage_galaxy
        for v in accessible(s):
            if voyage_allowed(s, s.turn, vg[v]):
                key = ("M", v)
                out[_act(s, key, "meteor", (game.voyage_ids[v],))] = key
        # co-op: the partner may spend the shared Meteors too, "whenever you choose",
        # for a Voyage of its own Galaxies (RULINGS 18); the team enters it in the turn
        for p in range(game.players):
            if p == s.turn:
                continue
            for v in accessible(s):
                if voyage_allowed(s, p, vg[v]):
                    pkey: Key = ("M", v, p)
                    out[_act(s, pkey, "meteor", (game.voyage_ids[v], p))] = pkey


def forfeit_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    game = s.game
    if not game.glaucous_sun:
        out[_act(s, ("F", 0), "forfeit", ())] = ("F", 0)
        return
    most = 8 if s.p_major else 4
    most = min(most, s.sun - game.sun_start)
    for n in range(most + 1):
        key = ("F", n)
        out[_act(s, ("Fs", n), "forfeit", (n,))] = key


def power_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    t = s.p_type
    decks = s.decks
    key: Key
    if t == 0:  # Ship: search a deck for a card
        for d in range(N_DECKS):
            if not decks[d] or (s.p_started and d == s.p_deck):
                continue
            for f in sorted({c & 31 for c in decks[d]}):
                key = ("SE", d, f)
                out[_act(s, key, "search", (DECKS[d], FACE_NAMES[f]))] = key
    elif t == 1:
        nebula_actions(s, out)
    elif t == 2:  # Stars: choose a deck to shuffle and look at
        for d in range(N_DECKS):
            if decks[d]:
                key = ("ST", d)
                out[_act(s, key, "stars", (DECKS[d],))] = key
    else:
        planet_actions(s, out)
    if s.p_started:
        out[_act(s, ("S",), "stop", ())] = ("S",)
    else:
        forfeit_actions(s, out)


def nebula_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    """One card from any discard pile (minor) or up to two from one pile (major);
    Black Holes and Mirrors can never be retrieved."""
    radar = s.breakthrough == RADAR
    for d in range(N_DECKS):
        counts: dict[int, int] = {}
        for c in s.discards[d]:
            f = c & 31
            if f < 16:
                counts[f] = counts.get(f, 0) + 1
        if not counts:
            continue
        faces = sorted(counts)
        picks: list[tuple[int, ...]] = [(f,) for f in faces]
        if s.p_major:
            for i, f in enumerate(faces):
                if counts[f] >= 2:
                    picks.append((f, f))
                for g in faces[i + 1 :]:
                    picks.append((f, g))
        for pick in picks:
            key = ("N", d, pick, 0)
            out[_act(s, key, "retrieve", (DECKS[d], tuple(FACE_NAMES[f] for f in pick)))] = key
        if radar:
            for pick in picks:
                orders = [pick] if pick[0] == pick[-1] else [pick, pick[::-1]]
                for order in orders:
                    key = ("N", d, order, 1)
                    names = tuple(FACE_NAMES[f] for f in order)
                    out[_act(s, key, "retrieve", (DECKS[d], names, "top"))] = key


def outpost_ok(s: StellarionState, faces: list[int]) -> bool:
    """Would the Outpost still be legal with these faces added?"""
    held = [c & 31 for c in s.outpost] + faces
    if len(set(held)) != len(held):
        return False
    if s.breakthrough == BIODOMES:
        return True
    return len({f >> 2 for f in held}) <= 1


def planet_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    cands = [(d, f) for d, f in observatory(s) if f < 16 and outpost_ok(s, [f])]
    picks: list[tuple[int, ...]] = [(d,) for d, _ in cands]
    if s.p_major:
        for (d1, f1), (d2, f2) in combinations(cands, 2):
            if outpost_ok(s, [f1, f2]):
                picks.append((d1, d2))
    for pick in picks:
        key = ("O", pick)
        out[_act(s, key, "outpost", (tuple(DECKS[d] for d in pick),))] = key


def look_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    """Stars: of the (up to) two cards looked at, which goes face up on top and which
    face down to the bottom; the Reflection amplifier also allows both on top or both
    at the bottom, in any order."""
    deck = s.decks[s.p_deck]
    a = deck[-1] & 31
    if len(deck) == 1:
        arrangements: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((a,), ())]
    else:
        b = deck[-2] & 31
        arrangements = [((a,), (b,)), ((b,), (a,))]
        if s.breakthrough == AMPLIFIER:
            arrangements += [((a, b), ()), ((b, a), ()), ((), (a, b)), ((), (b, a))]
    for top, bottom in arrangements:
        key = ("PL", top, bottom)
        args = (tuple(FACE_NAMES[f] for f in top), tuple(FACE_NAMES[f] for f in bottom))
        out[_act(s, key, "place", args)] = key


def take_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    game = s.game
    for v, p in traverse_targets(s):
        if game.players == 1:
            key = ("TK", v, 0)
            out[_act(s, key, "take", (game.voyage_ids[v],))] = key
        else:
            key = ("TK", v, p)
            out[_act(s, key, "take", (game.voyage_ids[v], p))] = key


def end_actions(s: StellarionState, out: dict[Action, Key]) -> None:
    if s.game.reveal_all:
        out[_act(s, ("E",), "end", ())] = ("E",)
        return
    any_down = False
    for d in range(N_DECKS):
        if s.decks[d] and not s.up[d]:
            any_down = True
            key = ("R", d)
            out[_act(s, key, "reveal", (DECKS[d],))] = key
    if not any_down:
        out[_act(s, ("E",), "end", ())] = ("E",)
