"""The clairvoyant Stellarion solver: could this deal have been won, knowing every card?

Once the deal is made, nothing in Stellarion is left to chance for someone who knows the
state: the shuffles of play (a Ship search, the Stars power, a Nebula retrieval) draw from
the state's own seeded Rng, so a clone reproduces them exactly. The solver therefore
searches the real engine (``clone`` + ``_do``, which also plays the forced end-of-turn
steps and the loss check) and a line it finds replays to a win through ``apply``.

The search, and why each piece is there::

    solve(state)
      for pass in L0 [P] B16 B64 B256 L1 B1024 L2 B4096 L3 L4 L6 L8 ... L-unlimited
        P: the planner (opt-in): lookahead deciding on the true state, one game
        Bw: beam(state, w)                            beam search, width w
          one level per action: every child of the w best positions, deduplicated,
          rated by the heuristic's evaluate(); the w best go on; a won child ends it
        Ln: dfs(state, n)                             limited discrepancy search (LDS)
          transposition table  key -> (budget, complete)
          children: one clone per legal action, minus dominated ones,
                    deduplicated by key, ordered by the heuristic's evaluate()
          the i-th child costs i discrepancies; a child above the budget is "cut";
          children 1, 2, ... are tried before child 0 (departures near the root first)
        a pass with no cut was exhaustive: the deal is proved unwinnable

- **Beam search** finds the long wins that LDS misses. With all four expansions a won
  line is 50-100 actions long and the heuristic's first choice is wrong at many of them,
  so a line within a few discrepancies of it rarely wins (LDS won 1 deal of 50 in 10,000
  positions); a beam keeps the ``w`` best positions at every depth, so many different
  lines stay alive at once (width 100 won 4 of deals 0-9, width 400 8 of 10, in 50,000
  and 200,000 positions). A beam cannot prove anything (it drops positions), so the LDS
  passes stay, interleaved with beams of growing width. The order was chosen on deals
  0-9 with all four expansions and 0-19 of the base game at 60,000 positions: beams
  16, 64 and 256 right after the heuristic's own line (LDS limit 0) and before the
  costly limit 1 won 4 of 10 (LDS alone: none of them at 40,000) and cost the base
  deals twice the positions of LDS alone (most are still won by the limit-0 line).
- **The planner pass** (``planner=True``, ``skydeck solve --planner``): after the
  heuristic's own line, one game of the ``lookahead`` player deciding on the true state
  (``ClairvoyantLookahead``: its deals are the truth). With all four expansions it wins
  179 of deals 0-499, 90 of them deals that LDS and the beams left unknown within 60,000
  positions, at about 63,000 anchor steps of CPU a deal
  (docs/journal/2026-12-03-stellarion-ai.md). Its work is bounded by
  ``seconds`` (checked before each decision), not counted in positions; it is
  deterministic, so a result is the same on any machine. Opt-in, so the table's
  figures (measured without it) keep their meaning.
- **Limited discrepancy search.** A plain depth-first search follows the heuristic's
  first choice to the bottom and then backtracks where it matters least (the last moves
  of a lost game). LDS explores every line that departs from the heuristic's order by at
  most ``limit`` ranks in total, for growing limits: a base deal is usually won at limit
  0 or 1 in well under a second. Within a pass the departures near the root are tried
  first (``top_first``: the heuristic's early choices decide most; 6 of 8 Black Holes
  deals won in 10,000 positions against 5 of 8 with the deepest departures first).
- **Transposition table.** The key (``position_key``) holds everything that decides the
  future: deck orders, face-up tops, discard piles and Outpost as multisets, columns,
  tokens, the Sun, the pending power and the Rng's state (a later shuffle depends on it).
  It leaves out what only informs players (known cards, the turn counter). An entry says
  "no win below with this many discrepancies left" and whether that search was complete
  (no child cut); a complete failure is final.
- **Dominance pruning.** (1) Proving a Theory is free and only moves the game forward,
  so when it is legal it is the only child. (2) Once no Meteor token is left on the
  Sun board, moving the Sun back further is never worse (a line from the higher Sun is
  copied from the lower one, forfeiting no more than it can), so only the longest
  forfeit is kept. While Meteors remain it is no dominance: a shorter forfeit can keep
  the Sun high enough to land on a Meteor later (test_solver.py has such a position).
  (3) Solo without Mirrors, trading Meteors at the end of a turn is never better than
  at the start of the next (it makes no new Launch possible there), so the end step
  only ends the turn. (4) Children with equal keys are one child; a
  child that loses at once is a leaf, not searched.
- **Move ordering** is the heuristic agent's ``evaluate`` (games/stellarion/ai/heuristic.py)
  applied to each child: with the whole state known it reads the true deck contents.
  The solver keeps the base game's weights (``agents.BASE``) in every set-up: the
  expansions' weights make the one-turn heuristic stronger but the beams weaker (all
  four expansions, deals 0-19, 60,000 positions: 0 won against 8 with ``BASE``), and
  the table in docs/journal/2026-12-03-stellarion-ai.md was measured with ``BASE``.
- **The line alone** (``line.finish``): the discrepancy-0 line played to the end
  without the table, for the honest ``pimc`` player (pimc.py), which plays it from each
  of its candidate moves in states dealt from its view; the pruning is there too
  (``line.candidates``), so both share it.

Cycles (a position repeating with the same Rng) are possible in principle; a position met
again on its own path counts as cut, so it can never take part in a proof.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from skydeck.core import Action
from skydeck.games.stellarion.ai.heuristic import BASE, HeuristicAgent, Weights, evaluate
from skydeck.games.stellarion.ai.line import candidates
from skydeck.games.stellarion.ai.lookahead import LookaheadAgent
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.legal import Key
from skydeck.games.stellarion.state import StellarionState

WON, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"
UNLIMITED = 1 << 30  # the last pass: every child, so a failure there is a proof
LIMITS = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256, UNLIMITED)
#: Beam widths run after the LDS pass of the limit they are keyed by (module doc).
BEAMS: dict[int, tuple[int, ...]] = {0: (16, 64, 256), 1: (1024,), 2: (4096,)}
ORDER_CACHE = 100_000  # positions whose child order is kept between passes
_SEP = 255  # card ints are below 256 (deck << 5 | face), Voyage ids below 32


def position_key(s: StellarionState) -> bytes:
    """Everything that decides the rest of the game, as bytes (see the module doc)."""
    b = bytearray()
    for deck in s.decks:
        b += bytes(deck)
        b.append(_SEP)
    b += bytes(s.up)
    for pile in s.discards:
        b += bytes(sorted(pile))
        b.append(_SEP)
    b += bytes(sorted(s.outpost))
    b.append(_SEP)
    for col in s.columns:
        b += bytes(col)
        b.append(_SEP)
    if s.game.players > 1:  # co-op: whose pile holds which Galaxies matters
        for pile in s.piles:
            b += bytes(sorted(pile))
            b.append(_SEP)
    b += bytes(s.meteors)
    b.append(_SEP)
    b += bytes(s.p_cards)
    b.append(_SEP)
    b += bytes(
        (
            s.stars,
            s.sun,
            s.held,
            s.turn,
            s.phase,
            s.p_type,
            int(s.p_major),
            s.p_left,
            int(s.p_started),
            s.p_deck + 1,
            s.p_take,
            len(s.theories),
        )
    )
    b += s.rng.state.to_bytes(8, "little")
    return bytes(b)


@dataclass
class Solution:
    """The answer for one position. ``line``: (seat, action) pairs from the position to
    the win (empty unless ``status == "won"``). ``nodes``: positions generated (one clone
    and one engine step each); ``limit``: the discrepancy limit of the last LDS pass;
    ``beam``: the width of the beam that found the line (0: an LDS pass found it);
    ``planner``: the planner pass found it."""

    status: str
    line: list[tuple[int, Action]] = field(default_factory=list)
    nodes: int = 0
    expanded: int = 0
    seconds: float = 0.0
    limit: int = 0
    beam: int = 0
    planner: bool = False

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "line": [{"seat": seat, "action": str(a)} for seat, a in self.line],
            "nodes": self.nodes,
            "expanded": self.expanded,
            "seconds": round(self.seconds, 3),
            "nodes_per_s": round(self.nodes_per_s),
            "limit": self.limit,
            "beam": self.beam,
            "planner": self.planner,
        }


class _OutOfBudget(Exception):
    pass


class _OnTheTruth:
    """Mixin for a heuristic-family agent: decide on ``truth``, the real state, instead
    of on deals from the view. Not a player (it sees every hidden card and every later
    shuffle): the solver's planner pass, and a measure of what information is worth."""

    truth: StellarionState | None = None
    sees_state = True  # one deal a decision (HeuristicAgent._on_deals): the truth

    def _deal(self, view: dict[str, Any]) -> StellarionState:
        if self.truth is None:
            raise ValueError("a clairvoyant agent needs the true state (truth) first")
        return self.truth.clone()


class ClairvoyantHeuristic(_OnTheTruth, HeuristicAgent):
    """The heuristic deciding on the true state (``_OnTheTruth``)."""

    name = "heuristic@clairvoyant"


class ClairvoyantLookahead(_OnTheTruth, LookaheadAgent):
    """``lookahead`` deciding on the true state (``_OnTheTruth``), without the endgame
    unless asked (``endgame=0``): the planner pass and the measurements of
    docs/journal/2026-12-03-stellarion-ai.md were made so, and on the truth the solver's own passes
    play
    the end of the game out anyway."""

    name = "lookahead@clairvoyant"

    def __init__(self, game: Any, seed: int = 0, **params: Any) -> None:
        params.setdefault("endgame", 0)
        super().__init__(game, seed=seed, **params)


Child = tuple[Action, Key, StellarionState | None]


class Solver:
    """Searches one position. ``seconds`` and ``max_nodes`` bound the work (either may be
    None); ``clock`` is injectable so tests can make time exact."""

    def __init__(
        self,
        state: StellarionState,
        seconds: float | None = 10.0,
        max_nodes: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        limits: tuple[int, ...] = LIMITS,
        top_first: bool = True,
        beams: dict[int, tuple[int, ...]] | None = None,
        weights: Weights = BASE,
        planner: bool = False,
    ) -> None:
        if state.is_over:
            raise ValueError("stellarion solver: the game is already over")
        self.root = state.clone()
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.clock = clock
        self.limits = limits
        self.top_first = top_first
        self.beams = BEAMS if beams is None else beams
        self.weights = weights
        self.planner = planner
        self.nodes = 0
        self.expanded = 0
        self.cuts = 0
        self.table: dict[bytes, tuple[int, bool]] = {}
        self.order: dict[bytes, list[tuple[Action, Key]]] = {}
        game = state.game
        self._defer_meteors = game.players == 1 and not game.mirrors
        self._sun = game.glaucous_sun
        self._deadline: float | None = None  # set by solve()

    # --- the search -----------------------------------------------------------------
    def solve(self) -> Solution:
        start = self.clock()
        self._deadline = None if self.seconds is None else start + self.seconds
        limit = beam = 0
        planned = False
        status = UNKNOWN
        line: list[tuple[int, Action]] = []
        try:
            for limit in self.limits:
                self.cuts = 0
                if self._dfs(self.root, limit, line):
                    status = WON
                    line.reverse()
                    break
                if self.cuts == 0:
                    status = UNWINNABLE
                    break
                if self.planner and limit == self.limits[0] and self._planner(line):
                    status, planned = WON, True
                    break
                for width in self.beams.get(limit, ()):
                    if self._beam(width, line):
                        status, beam = WON, width
                        break
                if beam:
                    break
        except _OutOfBudget:
            line = []
        elapsed = self.clock() - start
        return Solution(status, line, self.nodes, self.expanded, elapsed, limit, beam, planned)

    def _planner(self, line: list[tuple[int, Action]]) -> bool:
        """The planner pass (module doc): True, with its line in ``line``, if one game
        of ``ClairvoyantLookahead`` from the root wins."""
        s = self.root.clone()
        agent = ClairvoyantLookahead(s.game)
        played: list[tuple[int, Action]] = []
        while not s.is_over:
            if self._deadline is not None and self.clock() > self._deadline:
                raise _OutOfBudget
            seat = s.turn
            agent.truth = s
            action = agent.choose(s.view(seat), s.legal_actions(seat), seat)
            played.append((seat, action))
            s.apply(action, seat)
        if not s.winners:
            return False
        line[:] = played
        return True

    def _dfs(self, s: StellarionState, budget: int, line: list[tuple[int, Action]]) -> bool:
        key = position_key(s)
        seen = self.table.get(key)
        if seen is not None:
            if seen[1]:
                return False  # proved lost
            if seen[0] >= budget:
                self.cuts += 1  # searched already, but not to the end
                return False
        self.table[key] = (budget, False)  # on the path: a cycle back here is cut
        cuts = self.cuts
        self.expanded += 1
        kids = self._children(s, key)
        if len(kids) > budget + 1:
            self.cuts += 1
            kids = kids[: budget + 1]
        order: list[int] | range = range(len(kids))
        if self.top_first and kids and budget < UNLIMITED // 2:
            order = [*range(1, len(kids)), 0]  # spend discrepancies near the root first
        for rank in order:
            action, k, child = kids[rank]
            if child is None:
                child = self._step(s, action, k)
            seat = s.turn
            if child.outcome > 0:
                line.append((seat, action))
                return True
            if self._dfs(child, budget - rank, line):
                line.append((seat, action))
                return True
        self.table[key] = (budget, self.cuts == cuts)
        return False

    def _beam(self, width: int, line: list[tuple[int, Action]]) -> bool:
        """Beam search from the root (module doc): True, with the winning line in
        ``line``, if some level's child wins; False once every position died out. Each
        position carries its way back to the root (a linked list of moves), so nothing
        is copied per level; duplicates are merged within a level and with the last."""
        Link = tuple[tuple[int, Action], Any] | None
        level: list[tuple[StellarionState, Link]] = [(self.root, None)]
        last: set[bytes] = set()
        while level:
            # The ``width`` best children so far, worst on top (a bounded heap: no more
            # than ``width`` clones kept at once); equal values keep the earlier child.
            best: list[tuple[float, int, StellarionState, Link]] = []
            here: set[bytes] = set()
            n = 0
            for s, link in level:
                seat = s.turn
                for action, _k, child in self._live_children(s):
                    step: Link = ((seat, action), link)
                    if child.outcome > 0:
                        while step is not None:
                            line.append(step[0])
                            step = step[1]
                        line.reverse()
                        return True
                    ck = position_key(child)
                    if ck in here or ck in last:
                        continue
                    here.add(ck)
                    n -= 1
                    item = (evaluate(child, self.weights), n, child, step)
                    if len(best) < width:
                        heapq.heappush(best, item)
                    elif item[:2] > best[0][:2]:
                        heapq.heapreplace(best, item)
            best.sort(reverse=True)  # best first; equal values: the earlier child
            level = [(c, link) for _, _, c, link in best]
            last = here
        return False

    def _children(self, s: StellarionState, key: bytes) -> list[Child]:
        """Children in the heuristic's order, dominated and duplicate ones left out.
        The order is remembered per position, so a later pass only clones the children
        it visits (those come back as None)."""
        known = self.order.get(key)
        if known is not None:
            return [(action, k, None) for action, k in known]
        scored: list[tuple[float, int, Action, Key, StellarionState]] = []
        keys: set[bytes] = set()
        for i, (action, k, child) in enumerate(self._live_children(s)):
            if child.outcome > 0:  # a win needs no ordering
                scored = [(0.0, 0, action, k, child)]
                break
            ck = position_key(child)
            if ck in keys:
                continue
            keys.add(ck)
            scored.append((-evaluate(child, self.weights), i, action, k, child))
        scored.sort(key=lambda x: (x[0], x[1]))
        if len(self.order) < ORDER_CACHE:
            self.order[key] = [(a, k) for _, _, a, k, _ in scored]
        return [(a, k, c) for _, _, a, k, c in scored]

    def _live_children(self, s: StellarionState) -> Iterator[tuple[Action, Key, StellarionState]]:
        """Each candidate's child (one engine step), in the candidates' order, less the
        children that lose at once (leaves, never searched)."""
        for action, k in self._candidates(s):
            child = self._step(s, action, k)
            if child.outcome >= 0:
                yield action, k, child

    def _step(self, s: StellarionState, action: Action, k: Key) -> StellarionState:
        self.nodes += 1
        if self.nodes & 63 == 0:
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise _OutOfBudget
            if self._deadline is not None and self.clock() > self._deadline:
                raise _OutOfBudget
        child = s.clone()
        child._do(k, action, child.turn)
        return child

    def _candidates(self, s: StellarionState) -> list[tuple[Action, Key]]:
        """The legal actions minus the dominated ones (module doc, pruning 1-3)."""
        return candidates(s, self._defer_meteors, self._sun)


def solve_state(
    state: StellarionState, seconds: float | None = 10.0, max_nodes: int | None = None
) -> Solution:
    return Solver(state, seconds, max_nodes).solve()


def replay(game: StellarionGame, seed: int, line: list[tuple[int, Action]]) -> StellarionState:
    """Play a line from the deal through the public engine (``apply``), as a check."""
    s = game.new(seed)
    for seat, action in line:
        s.apply(action, seat)
    return s


def format_line(game: StellarionGame, line: list[tuple[int, Action]]) -> list[str]:
    """One action a line in the notation ``skydeck play`` reads; co-op lines name the
    player ("Player 2: launch ...")."""
    if game.players == 1:
        return [str(a) for _, a in line]
    return [f"Player {seat + 1}: {a}" for seat, a in line]


def run_command(
    options: dict[str, Any],
    seed: int,
    seconds: float | None,
    max_nodes: int | None,
    as_json: bool,
    out: Callable[[str], None] = print,
    planner: bool = False,
) -> int:
    """``skydeck solve stellarion``: print the status, then the winning line. Exit code
    0 for a result (won or unwinnable), 1 for unknown, 2 for bad options."""
    import json

    try:
        game = StellarionGame(**options)
    except ValueError as exc:
        out(f"error: {exc}")
        return 2
    result = Solver(game.new(seed), seconds, max_nodes, planner=planner).solve()
    if result.status == WON:  # the promise: the line wins through the public engine
        final = replay(game, seed, result.line)
        if not final.winners:
            raise AssertionError(f"seed {seed}: the solver's line does not win on replay")
    if as_json:
        out(
            json.dumps(
                {"game": "stellarion", "seed": seed, "options": game.options, **result.to_json()}
            )
        )
        return 0 if result.status != UNKNOWN else 1
    effort = (
        f"{result.nodes:,} positions in {result.seconds:.2f} s "
        f"({result.nodes_per_s:,.0f}/s), discrepancy limit {result.limit}"
        + (f", beam width {result.beam}" if result.beam else "")
        + (", found by the planner pass" if result.planner else "")
    )
    if result.status == WON:
        out(f"won: a winning line of {len(result.line)} actions ({effort})")
        for text in format_line(game, result.line):
            out(text)
    elif result.status == UNWINNABLE:
        out(f"unwinnable: every line searched, none wins ({effort})")
    else:
        out(f"unknown: the budget ran out before a win or a proof ({effort})")
    return 0 if result.status != UNKNOWN else 1


__all__ = [
    "ClairvoyantHeuristic",
    "ClairvoyantLookahead",
    "run_command",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "Solution",
    "Solver",
    "format_line",
    "position_key",
    "replay",
    "solve_state",
]
