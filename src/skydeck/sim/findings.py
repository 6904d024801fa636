"""The numbers of a balance report, computed from a run folder's tables.

Win rates count *points* (1 for a sole win, 0.5 for a shared one; in co-operative and
solo games the team's result), so they add up to one per match that has a winner.

Fair share. A seat is compared only with seats of the same agent spec in the same
setting and the same mix of agents: its fair share is the mean points of those seats.
In a mirror (one agent) that is the match's points divided equally among the seats
(1 / players, less where a match ends with nobody winning, Stellium's unbroken ties).
With a mix of agents it keeps the seating out of the seat test: in ``heuristic,random``
at three players the rotation seats H R H and R H R, so Player 2 is the lone heuristic
in half its matches and a lone random in the others; it is measured against those
lone seats (nothing to compare: never an imbalance), and Players 1 and 3 against each
other.

Independent units. Matches that replay one deal (the same seed: every setting of a
grid, every seating of a rotation) are not independent: Stellar Expedition deals the
powers by deal and seat, so a grid replays the same (deal, seat, powers) many times.
Every rate's variance is therefore estimated clustered by deal (the cluster-robust
sandwich variance of a mean, CR0: the sum over deals of the squared deviations of their
points), and its interval and test use the *effective* number of seats, seats / design
effect (the clustered variance over the binomial one, never below 1; independent
matches keep all their seats, a deal replayed k times alike counts once): a Wilson 95%
interval (:func:`skydeck.sim.stats.wilson`) on that many seats and a two-sided test
against the fair share (normal approximation).

The summary corrects for every test it makes (Holm-Bonferroni, family-wise 5%): with
twenty tests one would pass at 5% by chance alone.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from skydeck.sim.stats import wilson

ALPHA = 0.05
#: Options that hand out factions by seat (Conflict's races, Expedition's factions).
FACTION_KEYS = ("races", "factions")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass(frozen=True)
class Rate:
    """A group's win rate: ``points`` of ``n`` seats; ``fair`` its fair share (None
    where none applies: co-op, solo, agents of different strength)."""

    label: str
    n: int
    points: float
    fair: float | None = None
    #: Independent seats the rate is worth: ``n`` / design effect (None: ``n``).
    effective: float | None = None
    #: Distinct deals (seeds) among its seats (0: not counted).
    deals: int = 0

    @property
    def rate(self) -> float:
        return self.points / self.n if self.n else 0.0

    @property
    def n_eff(self) -> float:
        return float(self.n) if self.effective is None else min(float(self.n), self.effective)

    @property
    def interval(self) -> tuple[float, float]:
        if not self.n:
            return wilson(0, 0)
        return wilson(self.rate * self.n_eff, self.n_eff)

    @property
    def p(self) -> float | None:
        """Two-sided p-value of the rate against the fair share (normal approximation
        of the binomial on the effective seats; None without a fair share or data)."""
        if self.fair is None or self.n == 0 or not 0 < self.fair < 1:
            return None
        sd = math.sqrt(self.fair * (1 - self.fair) / self.n_eff)
        return math.erfc(abs(self.rate - self.fair) / sd / math.sqrt(2))


@dataclass(frozen=True)
class Impact:
    """A card's or component's impact: the rate of seats that used it against the
    rate of seats that did not, and the two-proportion test's p-value."""

    component: str
    used: Rate
    unused: Rate

    @property
    def difference(self) -> float:
        return self.used.rate - self.unused.rate

    @property
    def p(self) -> float:
        n1, n2 = self.used.n, self.unused.n
        if not n1 or not n2:
            return 1.0
        pooled = (self.used.points + self.unused.points) / (n1 + n2)
        sd = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        if sd == 0:
            return 1.0
        return math.erfc(abs(self.difference) / sd / math.sqrt(2))


@dataclass
class Run:
    """A run folder's manifest and finished rows."""

    folder: Path
    manifest: dict[str, Any]
    matches: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    usage: list[dict[str, Any]]
    failed: list[dict[str, Any]] = field(default_factory=list)
    #: Matches the run's plan (or the pooled runs' plans) asked for; None: unknown.
    planned: int | None = None

    @property
    def missing(self) -> int:
        """Planned matches not in the folder (an interrupted or unfinished run)."""
        if self.planned is None:
            return 0
        return max(0, self.planned - len(self.matches) - len(self.failed))

    @property
    def game(self) -> str:
        return str(self.manifest.get("game"))

    @cached_property
    def competitive(self) -> bool:
        """Points can be compared with a fair share: more than one seat and not every
        seat sharing one result (co-op)."""
        for m in self.matches:
            mine = [s["points"] for s in self.seats_of(m["match_id"])]
            if len(mine) > 1 and len(set(mine)) > 1:
                return True
        return False

    def seats_of(self, match_id: int) -> list[dict[str, Any]]:
        return self._by_match.get(match_id, [])

    def __post_init__(self) -> None:
        self._by_match: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for s in self.seats:
            self._by_match[s["match_id"]].append(s)


def load_run(folder: Path) -> Run:
    """ValueError naming what is wrong when ``folder`` is no finished simulate run."""
    if not folder.exists():
        raise ValueError(f"{folder} does not exist")
    if not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a skydeck simulate run folder")
    manifest_path = folder / "run.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{folder} is not a skydeck simulate run (no run.json)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{folder}: run.json is unreadable ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "skydeck-simulate":
        raise ValueError(f"{folder}: run.json is not a skydeck simulate run's")
    rows: dict[str, list[dict[str, Any]]] = {}
    for name in ("matches", "seats", "actions", "usage"):
        parts = sorted((folder / name).glob("part-*.parquet"))
        rows[name] = [r for p in parts for r in pq.read_table(p).to_pylist()]
    if not rows["matches"]:
        raise ValueError(f"{folder} holds no finished matches yet")
    ok = [m for m in rows["matches"] if m["status"] == "ok"]
    failed = [m for m in rows["matches"] if m["status"] != "ok"]
    if not ok:
        first = failed[0]
        raise ValueError(
            f"{folder}: all {len(failed)} matches failed; the first (seed {first['seed']}, "
            f"{first['label']}): {first['error']}"
        )
    return Run(
        folder, manifest, ok, rows["seats"], rows["actions"], rows["usage"], failed,
        planned_matches(manifest),
    )  # fmt: skip


def planned_matches(manifest: dict[str, Any]) -> int | None:
    """Settings x games of the run's plan (None when run.json does not say)."""
    games = manifest.get("plan", {}).get("games")
    settings = manifest.get("settings")
    if not isinstance(games, int) or not isinstance(settings, list):
        return None
    return games * len(settings)


def pool_runs(runs: Sequence[Run]) -> Run:
    """Several runs of one game as one: a long study made in pieces (different seeds,
    more games, new settings). Match ids are renumbered so they stay unique; settings
    are merged by label. ValueError when the runs are of different games or replay
    the same deal twice (the same setting, seed and seating: counted twice, it would
    narrow every interval without new evidence)."""
    if not runs:
        raise ValueError("no run to report on")
    if len(runs) == 1:
        return runs[0]
    games = sorted({r.game for r in runs})
    if len(games) > 1:
        raise ValueError(f"runs of different games cannot be pooled: {', '.join(games)}")
    seen: dict[tuple[Any, ...], Path] = {}
    offset = 0
    matches: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    tables: dict[str, list[dict[str, Any]]] = {"seats": [], "actions": [], "usage": []}
    labels: dict[str, dict[str, Any]] = {}
    for run in runs:
        ids = [m["match_id"] for m in run.matches + run.failed]
        for m in run.matches:
            seating = tuple(
                s["agent"] for s in sorted(run.seats_of(m["match_id"]), key=lambda s: s["seat"])
            )
            key = (m["label"], m["seed"], seating)
            if key in seen:
                raise ValueError(
                    f"{run.folder} and {seen[key]} both hold the match of setting "
                    f"{m['label']!r}, seed {m['seed']}, seats {', '.join(seating)}: pool "
                    "runs made with different --seed ranges"
                )
            seen[key] = run.folder
        for into, rows in (
            (matches, run.matches),
            (failed, run.failed),
            (tables["seats"], run.seats),
            (tables["actions"], run.actions),
            (tables["usage"], run.usage),
        ):
            into += [{**r, "match_id": r["match_id"] + offset} for r in rows]
        for setting in run.manifest.get("settings", []):
            labels.setdefault(setting.get("label", ""), setting)
        offset += max(ids, default=-1) + 1
    manifest = dict(runs[0].manifest)
    plans = [r.manifest.get("plan", {}) for r in runs]
    agents = list(dict.fromkeys(a for p in plans for a in p.get("agents", [])))
    manifest["plan"] = {**plans[0], "agents": agents, "seed": [p.get("seed") for p in plans]}
    manifest["settings"] = list(labels.values())
    manifest["pooled"] = [str(r.folder) for r in runs]
    planned = [r.planned for r in runs]
    total = None if None in planned else sum(p for p in planned if p is not None)
    return Run(
        runs[0].folder,
        manifest,
        matches,
        tables["seats"],
        tables["actions"],
        tables["usage"],
        failed,
        total,
    )


def rates(
    run: Run, key: Callable[[dict[str, Any]], Iterable[str]], fair: bool = True
) -> list[Rate]:
    """Win rates of the seats grouped by ``key`` (a seat may fall in several groups),
    each with its fair share (the module's docstring: same agent, setting and mix of
    agents) and its effective number of seats (clustered by deal)."""
    matches = {m["match_id"]: m for m in run.matches}
    seats = [s for s in run.seats if s["match_id"] in matches]
    expected = _fair_shares(run, seats) if fair and run.competitive else None
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in seats:
        for label in key(s):
            groups[label].append(s)
    out = []
    for label, members in groups.items():
        n = len(members)
        points = sum(s["points"] for s in members)
        share = None
        if expected is not None:
            share = sum(expected[s["match_id"], s["seat"]] for s in members) / n
        effective, deals = _effective(members, matches)
        out.append(Rate(label, n, points, share, effective, deals))
    return out


def deal_of(match: dict[str, Any]) -> Any:
    """The deal a match plays: its seed (one per match where the table has none)."""
    return match.get("seed", ("match", match["match_id"]))


def _fair_shares(run: Run, seats: list[dict[str, Any]]) -> dict[tuple[int, int], float]:
    """Each seat's fair share: the mean points of the seats of its agent spec in
    matches of its setting with the same mix of agents."""
    labels = {m["match_id"]: m.get("label", "") for m in run.matches}
    mix: dict[int, tuple[str, ...]] = {}
    for match_id, mine in run._by_match.items():
        mix[match_id] = tuple(sorted(s["agent"] for s in mine))
    total: Counter[tuple[Any, ...]] = Counter()
    count: Counter[tuple[Any, ...]] = Counter()

    def stratum(s: dict[str, Any]) -> tuple[Any, ...]:
        return labels[s["match_id"]], mix[s["match_id"]], s["agent"]

    for s in seats:
        total[stratum(s)] += s["points"]
        count[stratum(s)] += 1
    return {(s["match_id"], s["seat"]): total[stratum(s)] / count[stratum(s)] for s in seats}


def _effective(
    members: list[dict[str, Any]], matches: dict[int, dict[str, Any]]
) -> tuple[float, int]:
    """(effective seats, distinct deals) of a group: ``n`` over the design effect of
    clustering by deal (CR0 variance of the mean over the binomial one, at least 1)."""
    n = len(members)
    points: Counter[Any] = Counter()
    sizes: Counter[Any] = Counter()
    for s in members:
        deal = deal_of(matches[s["match_id"]])
        points[deal] += s["points"]
        sizes[deal] += 1
    deals = len(sizes)
    rate = sum(points.values()) / n
    binomial = rate * (1 - rate) / n
    if deals < 2 or binomial <= 0:
        return (float(n) if deals >= 2 or n == 1 else 1.0), deals
    spread = sum((points[g] - rate * sizes[g]) ** 2 for g in sizes)
    clustered = spread / (n * n)
    return n / max(1.0, clustered / binomial), deals


def by_seat(run: Run) -> list[Rate]:
    return sorted(rates(run, lambda s: [f"Player {s['seat'] + 1}"]), key=lambda r: r.label)


def by_order(run: Run) -> list[Rate]:
    out = rates(run, lambda s: [] if s["order"] is None else [ORDINALS[s["order"]]])
    return sorted(out, key=lambda r: ORDINALS.index(r.label))


def by_agent(run: Run) -> list[Rate]:
    # Agents of unequal strength have no fair share: their rates are compared, not tested.
    return sorted(rates(run, lambda s: [s["agent"]], fair=False), key=lambda r: r.label)


def by_faction(run: Run) -> list[Rate]:
    return sorted(rates(run, lambda s: [s["faction"]] if s["faction"] else []), key=_label)


def by_power(run: Run) -> list[Rate]:
    return sorted(rates(run, lambda s: list(s["powers"] or [])), key=_label)


def by_setting(run: Run) -> list[Rate]:
    """Each setting's seats, as "label, Player k (faction)"."""
    labels = {m["match_id"]: m["label"] for m in run.matches}

    def key(s: dict[str, Any]) -> list[str]:
        side = f" ({s['faction']})" if s["faction"] else ""
        return [f"{labels.get(s['match_id'], '?')}: Player {s['seat'] + 1}{side}"]

    return sorted(rates(run, key), key=_label)


def by_setting_order(run: Run) -> list[Rate]:
    """Each setting's places in the turn order, as "label: first" (games with one)."""
    labels = {m["match_id"]: m["label"] for m in run.matches}

    def key(s: dict[str, Any]) -> list[str]:
        if s["order"] is None:
            return []
        return [f"{labels.get(s['match_id'], '?')}: {ORDINALS[s['order']]}"]

    out = rates(run, key)
    return sorted(out, key=lambda r: (r.label.rsplit(": ", 1)[0], _place(r.label)))


def _place(label: str) -> int:
    word = label.rsplit(": ", 1)[-1]
    return ORDINALS.index(word) if word in ORDINALS else len(ORDINALS)


def by_drone_rank(run: Run) -> list[Rate]:
    """Solo Stellar Expedition: the player's win rate against each drone rank."""
    rank = {}
    for m in run.matches:
        value = json.loads(m["options"]).get("solo_rank")
        if value:
            rank[m["match_id"]] = value
    ladder = ["commander", "captain", "admiral"]
    out = rates(run, lambda s: [rank[s["match_id"]]] if s["match_id"] in rank else [], False)
    return sorted(out, key=lambda r: ladder.index(r.label) if r.label in ladder else 9)


def context(label: str) -> str:
    """A setting's label less its faction assignment: ``races=[vak,hexai] scale=war``
    -> ``scale=war`` (both seatings of a pair share it)."""
    parts = [p for p in label.split(" ") if p.partition("=")[0] not in FACTION_KEYS]
    return " ".join(p for p in parts if p != "default")


def by_matchup(run: Run) -> list[Rate]:
    """Two-player matches of two different factions, both seatings pooled: the rate of
    the alphabetically first faction of the pair, per context (the setting less its
    faction assignment: Conflict's scale), as "scale=war: hexai vs vak". One seat per
    match, so ``n`` counts matches; mirror pairs (vak vs vak) are left out."""
    labels = {m["match_id"]: m.get("label", "") for m in run.matches}
    pair: dict[int, tuple[str, str]] = {}
    for match_id, mine in run._by_match.items():
        sides = [s["faction"] for s in mine]
        if len(mine) == 2 and all(sides) and sides[0] != sides[1]:
            pair[match_id] = (min(sides), max(sides))

    def key(s: dict[str, Any]) -> list[str]:
        both = pair.get(s["match_id"])
        if both is None or s["faction"] != both[0]:
            return []
        where = context(labels.get(s["match_id"], ""))
        return [f"{where}: {both[0]} vs {both[1]}" if where else f"{both[0]} vs {both[1]}"]

    return sorted(rates(run, key), key=_label)


def _label(r: Rate) -> str:
    return r.label


def card_impact(run: Run, min_seats: int = 10) -> list[Impact]:
    """Every component used by at least ``min_seats`` seats and left unused by as many,
    sorted by the strength of the evidence (p-value). Where seats have factions, a
    component is compared only among seats of the factions that used it (a Vak seat
    never buys a Wiss ship: its loss says nothing about that ship)."""
    if not run.competitive:
        return []
    ok = {m["match_id"] for m in run.matches}
    used_by: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for u in run.usage:
        if u["match_id"] in ok:
            used_by[u["component"]].add((u["match_id"], u["seat"]))
    seats = {(s["match_id"], s["seat"]): s for s in run.seats if s["match_id"] in ok}
    out = []
    for comp, who in used_by.items():
        sides = {seats[k]["faction"] for k in who if k in seats}
        pool = [s for s in seats.values() if s["faction"] in sides]
        used = [s for s in pool if (s["match_id"], s["seat"]) in who]
        n_unused = len(pool) - len(used)
        if len(used) < min_seats or n_unused < min_seats:
            continue
        pts = sum(s["points"] for s in used)
        rest = sum(s["points"] for s in pool) - pts
        out.append(Impact(comp, Rate("used", len(used), pts), Rate("not used", n_unused, rest)))
    return sorted(out, key=lambda i: (i.p, i.component))


def action_frequencies(run: Run) -> list[tuple[str, float]]:
    """Mean times each action kind is taken per match, most frequent first."""
    ok = {m["match_id"] for m in run.matches}
    counts: Counter[str] = Counter()
    for a in run.actions:
        if a["match_id"] in ok:
            counts[a["kind"]] += a["count"]
    return [(k, c / len(ok)) for k, c in counts.most_common()]


@dataclass(frozen=True)
class Finding:
    text: str
    p: float


def holm(ps: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which of the p-values are significant at family-wise level ``alpha``
    (Holm-Bonferroni: the k-th smallest against alpha / (m - k), stopping at the first
    that fails; never less powerful than Bonferroni, alpha / m for all)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    keep = [False] * len(ps)
    for k, i in enumerate(order):
        if ps[i] >= alpha / (len(ps) - k):
            break
        keep[i] = True
    return keep


def imbalances(groups: dict[str, list[Rate]]) -> tuple[list[Finding], int]:
    """Rates off their fair share beyond chance, Holm-Bonferroni-corrected over every
    test made here; returns the findings and the number of tests."""
    tested = [(title, r) for title, rs in groups.items() for r in rs if r.p is not None]
    m = len(tested)
    found = []
    significant = holm([r.p for _, r in tested if r.p is not None])
    for (title, r), keep in zip(tested, significant, strict=True):
        assert r.p is not None and r.fair is not None
        if keep:
            lo, hi = r.interval
            way = "more" if r.rate > r.fair else "less"
            found.append(
                Finding(
                    f"{title}: {r.label} wins {r.rate:.1%} of {r.n} seats{_worth(r)} "
                    f"(95% CI {lo:.1%}-{hi:.1%}), {abs(r.rate - r.fair) * 100:.1f} points "
                    f"{way} than its fair share of {r.fair:.1%} (p = {r.p:.2g}).",
                    r.p,
                )
            )
    return sorted(found, key=lambda f: f.p), m


def _worth(r: Rate) -> str:
    """ ", worth 48 independent seats" where replayed deals shrink a sample."""
    if r.n_eff < r.n - 0.5:
        return f", worth {r.n_eff:.0f} independent ones"
    return ""
