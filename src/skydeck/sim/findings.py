"""The numbers of a balance report, computed from a run folder's tables.

Win rates count *points* (1 for a sole win, 0.5 for a shared one; in co-operative and
solo games the team's result), so they add up to one per match that has a winner. Each
rate has a Wilson 95% interval (:func:`skydeck.sim.stats.wilson`) and, where a fair
share exists (competitive games), a two-sided test against it. A seat's fair share is
its match's points divided equally among the seats: 1 / players, less where a match
ends with nobody winning (Stellium's unbroken ties), so such matches bias no one. The
summary corrects for the number of tests it makes (Bonferroni): with twenty tests one
would pass at 5% by chance alone.
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
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass(frozen=True)
class Rate:
    """A group's win rate: ``points`` of ``n`` seats; ``fair`` its fair share (None
    where none applies: co-op, solo, agents of different strength)."""

    label: str
    n: int
    points: float
    fair: float | None = None

    @property
    def rate(self) -> float:
        return self.points / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.n)

    @property
    def p(self) -> float | None:
        """Two-sided p-value of the rate against the fair share (normal approximation
        of the binomial; None without a fair share or data)."""
        if self.fair is None or self.n == 0 or not 0 < self.fair < 1:
            return None
        sd = math.sqrt(self.n * self.fair * (1 - self.fair))
        return math.erfc(abs(self.points - self.n * self.fair) / sd / math.sqrt(2))


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
    return Run(folder, manifest, ok, rows["seats"], rows["actions"], rows["usage"], failed)


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
            seating = tuple(s["agent"] for s in sorted(run.seats_of(m["match_id"]),
                                                       key=lambda s: s["seat"]))
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
    return Run(runs[0].folder, manifest, matches, tables["seats"], tables["actions"],
               tables["usage"], failed)


def rates(
    run: Run, key: Callable[[dict[str, Any]], Iterable[str]], fair: bool = True
) -> list[Rate]:
    """Win rates of the seats grouped by ``key`` (a seat may fall in several groups)."""
    n: Counter[str] = Counter()
    points: Counter[str] = Counter()
    share: Counter[str] = Counter()
    players = {m["match_id"]: m["players"] for m in run.matches}
    handed: Counter[int] = Counter()  # points handed out in each match
    for s in run.seats:
        handed[s["match_id"]] += s["points"]
    competitive = fair and run.competitive
    for s in run.seats:
        if s["match_id"] not in players:
            continue
        for label in key(s):
            n[label] += 1
            points[label] += s["points"]
            share[label] += handed[s["match_id"]] / players[s["match_id"]]
    return [
        Rate(label, n[label], points[label], share[label] / n[label] if competitive else None)
        for label in n
    ]


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


def imbalances(groups: dict[str, list[Rate]]) -> tuple[list[Finding], int]:
    """Rates off their fair share beyond chance, Bonferroni-corrected over every test
    made here; returns the findings and the number of tests."""
    tested = [(title, r) for title, rs in groups.items() for r in rs if r.p is not None]
    m = len(tested)
    found = []
    for title, r in tested:
        assert r.p is not None and r.fair is not None
        if r.p < ALPHA / m:
            lo, hi = r.interval
            way = "more" if r.rate > r.fair else "less"
            found.append(
                Finding(
                    f"{title}: {r.label} wins {r.rate:.1%} of {r.n} seats (95% CI {lo:.1%}"
                    f"-{hi:.1%}), {abs(r.rate - r.fair) * 100:.1f} points {way} than its fair "
                    f"share of {r.fair:.1%} (p = {r.p:.2g}).",
                    r.p,
                )
            )
    return sorted(found, key=lambda f: f.p), m
