"""``skydeck report DIR``: one self-contained HTML page and a PNG per plot.

Why matplotlib and not Altair: the report must also give plain PNG files (for docs and
for people who never open the HTML), and matplotlib draws PNGs by itself, offline, with
no browser or JavaScript; Altair would need vl-convert for PNGs and a Vega script (from
a CDN, or bundled at ~1 MB) for the page to stay interactive. The plots are embedded
in the HTML as base64 PNGs, so the page is one file that opens anywhere.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from skydeck.sim import findings as fx
from skydeck.sim.findings import ALPHA, Impact, Rate, Run

DPI = 80
TOP_CARDS = 20


def _figure(rows: int = 1, height: float = 3.2) -> Figure:
    return Figure(figsize=(7.0, max(height, 0.32 * rows + 1.2)), dpi=DPI, layout="constrained")


def _rates_plot(title: str, rates: Sequence[Rate]) -> Figure:
    """Horizontal bars of win rates with their 95% intervals and the fair share."""
    fig = _figure(len(rates))
    ax = fig.add_subplot()
    labels = [r.label for r in rates][::-1]
    values = [r.rate for r in rates][::-1]
    lo = [r.rate - r.interval[0] for r in rates][::-1]
    hi = [r.interval[1] - r.rate for r in rates][::-1]
    ax.barh(labels, values, xerr=[lo, hi], color="#4c78a8", ecolor="#333", capsize=3)
    fairs = {round(r.fair, 4) for r in rates if r.fair is not None}
    for fair in fairs:
        ax.axvline(fair, color="#e45756", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% interval)" + ("; dashed: fair share" if fairs else ""))
    ax.set_title(title)
    return fig


BAND = (0.45, 0.55)


def _matchup_plot(rates: Sequence[Rate]) -> Figure:
    """Pair x context (Conflict: race pair x scale): each pair's rate, both seatings
    pooled, with its 95% interval, against the 45-55% band."""
    pairs = sorted({r.label.rsplit(": ", 1)[-1] for r in rates})
    contexts = sorted({r.label.rsplit(": ", 1)[0] if ": " in r.label else "" for r in rates})
    fig = _figure(len(pairs) * max(1, len(contexts)) // 2 + len(pairs))
    ax = fig.add_subplot()
    ax.axvspan(*BAND, color="#54a24b", alpha=0.18, label="45-55%")
    ax.axvline(0.5, color="#888", linewidth=0.8)
    step = 0.6 / max(1, len(contexts))
    colours = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#b279a2", "#9d755d"]
    for c, where in enumerate(contexts):
        ys, xs, lo, hi = [], [], [], []
        for r in rates:
            here = r.label.rsplit(": ", 1)[0] if ": " in r.label else ""
            if here != where:
                continue
            a, b = r.interval
            ys.append(
                pairs.index(r.label.rsplit(": ", 1)[-1]) + (c - (len(contexts) - 1) / 2) * step
            )
            xs.append(r.rate)
            lo.append(r.rate - a)
            hi.append(b - r.rate)
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=2, markersize=4,
                    color=colours[c % len(colours)], label=where or "all")  # fmt: skip
    ax.set_yticks(range(len(pairs)), pairs)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the first-named side, both seatings pooled (95% interval)")
    ax.set_title("Win rate by pair (and setting), band 45-55%")
    ax.legend(fontsize="small", loc="lower right")
    return fig


def _impact_plot(impacts: Sequence[Impact]) -> Figure:
    fig = _figure(len(impacts) * 2)
    ax = fig.add_subplot()
    for i, imp in enumerate(impacts[::-1]):
        for dy, rate, colour in ((0.15, imp.used, "#4c78a8"), (-0.15, imp.unused, "#bab0ac")):
            lo, hi = rate.interval
            ax.errorbar(
                rate.rate, i + dy, xerr=[[rate.rate - lo], [hi - rate.rate]], fmt="o",
                color=colour, capsize=2, markersize=4,
            )  # fmt: skip
    ax.set_yticks(range(len(impacts)), [imp.component for imp in impacts[::-1]])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of seats that used it (blue) / did not (grey), 95% intervals")
    ax.set_title("Card and component impact (strongest evidence first)")
    return fig


def _hist_plot(title: str, xlabel: str, series: dict[str, list[float]]) -> Figure:
    fig = _figure()
    ax = fig.add_subplot()
    values = [v for vs in series.values() for v in vs]
    bins = min(30, max(5, len(set(values))))
    for name, vs in series.items():
        ax.hist(vs, bins=bins, alpha=0.55, label=name)
    if len(series) > 1:
        ax.legend(fontsize="small")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("matches")
    return fig


def _bars_plot(title: str, items: list[tuple[str, float]], xlabel: str) -> Figure:
    fig = _figure(len(items))
    ax = fig.add_subplot()
    ax.barh([k for k, _ in items][::-1], [v for _, v in items][::-1], color="#72b7b2")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    return fig


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


COLUMNS = ("group", "seats", "deals", "independent", "win rate", "95% CI", "fair", "p")


def _cells(r: Rate) -> list[str]:
    lo, hi = r.interval
    return [
        r.label,
        str(r.n),
        str(r.deals) if r.deals else "-",
        f"{r.n_eff:.0f}",
        f"{r.rate:.1%}",
        f"{lo:.1%} - {hi:.1%}",
        "-" if r.fair is None else f"{r.fair:.1%}",
        "-" if r.p is None else f"{r.p:.2g}",
    ]


def _rate_table(rates: Sequence[Rate]) -> str:
    head = "<tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr>"
    body = [
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _cells(r)) + "</tr>" for r in rates
    ]
    return f"<table>{head}{''.join(body)}</table>"


#: What a section's rates leave out, said under its table.
NOTES = {
    "win_by_faction": "Pooled over every setting, opponent and seat: a race or faction can "
    "show 50% here while single pairs are far off (in a round robin its wins against one "
    "rival offset its losses to another). Read the pair table for each matchup.",
    "win_by_matchup": "Each pair's seatings pooled (both ways round), one row per setting "
    "less its faction assignment (Conflict: the scale); the rate is the first-named "
    "side's. Mirror pairs are left out. Band 45-55% in the plot.",
}


def _independence_note(run: Run) -> str:
    """Said under the header when matches replay deals (every setting, every seating)."""
    deals = len({fx.deal_of(m) for m in run.matches})
    if deals >= len(run.matches):
        return ""
    return (
        f"The {len(run.matches)} matches replay {deals} deals (every setting and seating "
        "of a rotation plays the same seeds), so matches are not independent: intervals "
        "and tests count the independent seats (clustered by deal; column "
        "'independent'), not the seats."
    )


def _impact_table(impacts: Sequence[Impact], tests: int) -> str:
    rows = []
    for imp in impacts:
        mark = " *" if imp.p < ALPHA / max(1, tests) else ""
        rows.append(
            f"<tr><td>{html.escape(imp.component)}{mark}</td><td>{imp.used.n}</td>"
            f"<td>{imp.used.rate:.1%}</td><td>{imp.unused.rate:.1%}</td>"
            f"<td>{imp.difference * 100:+.1f}</td><td>{imp.p:.2g}</td></tr>"
        )
    head = (
        "<tr><th>component</th><th>seats using it</th><th>win rate used</th>"
        "<th>not used</th><th>difference (points)</th><th>p</th></tr>"
    )
    return f"<table>{head}{''.join(rows)}</table>"


CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;
padding:.2rem .5rem;text-align:right}td:first-child,th:first-child{text-align:left}
.warn{background:#fff4e5;border-left:4px solid #f58518;padding:.5rem 1rem}
img{max-width:100%}"""


def rate_sections(run: Run) -> list[tuple[str, str, list[Rate]]]:
    """(plot name, title, rates) of every win-rate grouping this run has data for."""
    # Where the turn order is the seat (Expedition's Player 1 always leads round 1),
    # the order plots would repeat the seat plots.
    own_order = any(s["order"] is not None and s["order"] != s["seat"] for s in run.seats)
    sections = [
        ("win_by_seat", "Win rate by seat position", fx.by_seat(run)),
        ("win_by_order", "Win rate by place in the turn order", fx.by_order(run)),
        ("win_by_agent", "Win rate by agent", fx.by_agent(run)),
        ("win_by_faction", "Win rate by faction or race", fx.by_faction(run)),
        ("win_by_matchup", "Win rate by pair, both seatings pooled", fx.by_matchup(run)),
        ("win_by_power", "Win rate by player power", fx.by_power(run)),
        ("win_by_drone_rank", "Solo win rate by drone rank", fx.by_drone_rank(run)),
    ]
    if len(run.manifest.get("settings", [])) > 1:
        sections.append(("win_by_setting", "Win rate by setting and seat", fx.by_setting(run)))
        if own_order:
            title = "Win rate by setting and turn order"
            sections.append(("win_by_setting_order", title, fx.by_setting_order(run)))
    return [
        (name, title, rates)
        for name, title, rates in sections
        if rates
        and not (name == "win_by_agent" and len(rates) < 2)
        and not (name == "win_by_order" and not own_order)
    ]


def markdown(run: Run) -> str:
    """The report's tables and findings as Markdown (for docs; no plots)."""
    sections = rate_sections(run)
    found, tests = fx.imbalances({title: rates for _, title, rates in sections})
    pooled = run.manifest.get("pooled")
    source = f" (pooled from {', '.join(pooled)})" if pooled else ""
    lines = [f"{len(run.matches)} finished matches{source}, {len(run.failed)} failed."]
    if run.missing:
        lines.append(_missing(run))
    independence = _independence_note(run)
    if independence:
        lines.append(independence)
    lines.append("")
    if run.competitive:
        lines.append(
            f"Off their fair share beyond chance (Holm-Bonferroni over {tests} tests, "
            "family-wise 5%): " + (" ".join(f.text for f in found) if found else "none.")
        )
    for name, title, rates in sections:
        lines += ["", f"{title}:", "", "| " + " | ".join(COLUMNS) + " |"]
        lines.append("| --- |" + " ---: |" * (len(COLUMNS) - 1))
        lines += ["| " + " | ".join(_cells(r)) + " |" for r in rates]
        if name in NOTES:
            lines += ["", NOTES[name]]
    if run.failed:
        lines += ["", f"Failed matches ({len(run.failed)}, left out of every table above):", ""]
        lines += ["| match | setting | seed | error |", "| ---: | --- | ---: | --- |"]
        for m in run.failed:
            error = str(m["error"]).replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {m['match_id']} | {m['label']} | {m['seed']} | {error} |")
    return "\n".join(lines) + "\n"


def _missing(run: Run) -> str:
    return (
        f"Incomplete: {run.planned} matches were planned and {run.missing} are not in the "
        "folder (an interrupted run: `skydeck simulate ... --resume` plays them)."
    )


def build(run: Run) -> tuple[str, dict[str, bytes]]:
    """The HTML page and its PNGs (file stem -> bytes)."""
    pngs: dict[str, bytes] = {}
    parts: list[str] = []

    def plot(name: str, fig: Figure, caption: str) -> None:
        data = _png(fig)
        pngs[name] = data
        src = "data:image/png;base64," + base64.b64encode(data).decode()
        parts.append(f"<figure><img alt='{html.escape(caption)}' src='{src}'></figure>")

    groups: dict[str, list[Rate]] = {}
    sections = rate_sections(run)
    body_sections: list[str] = []
    for name, title, rates in sections:
        groups[title] = rates
        parts.clear()
        figure = _matchup_plot(rates) if name == "win_by_matchup" else _rates_plot(title, rates)
        plot(name, figure, title)
        note = f"<p class='warn'>{html.escape(NOTES[name])}</p>" if name in NOTES else ""
        body_sections.append(f"<h2>{title}</h2>{''.join(parts)}{_rate_table(rates)}{note}")

    parts.clear()
    scores: dict[str, list[float]] = {}
    for s in run.seats:
        scores.setdefault(f"Player {s['seat'] + 1}", []).append(s["score"])
    plot("scores", _hist_plot("Score distribution", "score", dict(sorted(scores.items()))), "")
    lengths = [float(m["length"]) for m in run.matches]
    plot("length", _hist_plot("Game length", "actions per match", {"all": lengths}), "")
    freq = fx.action_frequencies(run)
    if freq:
        plot("actions", _bars_plot("Action frequencies", freq[:30], "mean per match"), "")
    body_sections.append(f"<h2>Scores, length and actions</h2>{''.join(parts)}")

    impacts = fx.card_impact(run)
    if impacts:
        parts.clear()
        shown = impacts[:TOP_CARDS]
        plot("card_impact", _impact_plot(shown), "card impact")
        m = len(impacts)
        mixed = (
            " This run mixes agents, so a card's impact mostly tells which agent uses it: "
            "study cards in a mirror run (one agent spec)."
            if len({s["agent"] for s in run.seats}) > 1
            else ""
        )
        body_sections.append(
            "<h2>Card and component impact</h2>"
            f"<p class='warn'><b>Multiple comparisons:</b> {m} components were tested; at the "
            f"5% level about {m * ALPHA:.1f} would look significant by chance alone. Only "
            f"p &lt; {ALPHA / m:.2g} (Bonferroni, marked *) counts. A difference is a "
            "correlation: a card may be used more by seats that were winning anyway."
            f"{mixed}</p>"
            f"{''.join(parts)}{_impact_table(shown, m)}"
        )
    if run.failed:
        rows = "".join(
            f"<tr><td>{m['match_id']}</td><td>{html.escape(m['label'])}</td><td>{m['seed']}</td>"
            f"<td>{html.escape(str(m['error']))}</td></tr>"
            for m in run.failed[:20]
        )
        more = f" ({run.missing} planned matches are not in the folder)" if run.missing else ""
        body_sections.append(
            f"<h2>Failed matches</h2><p class='warn'>{len(run.failed)} matches failed and are "
            "left out of every figure above (the first 20 below; all are in matches/ with "
            f"status 'failed'){more}.</p><table><tr><th>match</th><th>setting</th><th>seed</th>"
            f"<th>error</th></tr>{rows}</table>"
        )
    summary = _summary(run, groups)
    head = _header(run)
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Skydeck report: "
        f"{html.escape(run.game)}</title><style>{CSS}</style></head><body>{head}{summary}"
        f"{''.join(body_sections)}</body></html>"
    )
    return page, pngs


def _header(run: Run) -> str:
    plan = run.manifest.get("plan", {})
    failed = f", {len(run.failed)} failed" if run.failed else ""
    missing = f"<p class='warn'>{html.escape(_missing(run))}</p>" if run.missing else ""
    independence = _independence_note(run)
    if independence:
        missing += f"<p>{html.escape(independence)}</p>"
    settings = run.manifest.get("settings", [])
    pooled = run.manifest.get("pooled")
    runs = f" pooled from {len(pooled)} runs ({html.escape(', '.join(pooled))})" if pooled else ""
    return (
        f"<h1>Skydeck report: {html.escape(run.game)}</h1><p>{len(run.matches)} finished "
        f"matches{failed}{runs}; agents {html.escape(', '.join(plan.get('agents', [])))}; "
        f"{len(settings)} setting(s); seed {plan.get('seed')}. Win rates count 1 for a sole "
        "win and 0.5 for a shared one; intervals are Wilson 95% on the independent seats "
        f"(clustered by deal).</p>{missing}"
    )


def _summary(run: Run, groups: dict[str, list[Rate]]) -> str:
    found, tests = fx.imbalances(groups)
    if not run.competitive:
        text = (
            "<p>Every seat shares one result here (a co-operative or solo game), so no seat, "
            "faction or power is tested against a fair share; the rates are shown as "
            "measured.</p>"
        )
    elif not found:
        text = (
            f"<p>No significant imbalance: none of {tests} rates is off its fair share "
            f"beyond chance (Holm-Bonferroni over {tests} tests, family-wise {ALPHA:.0%}).</p>"
        )
    else:
        items = "".join(f"<li>{html.escape(f.text)}</li>" for f in found)
        text = (
            f"<p>{len(found)} of {tests} rates are off their fair share beyond chance "
            f"(Holm-Bonferroni over every test in this summary, family-wise {ALPHA:.0%}):</p>"
            f"<ul>{items}</ul>"
        )
    note = (
        "<p class='warn'>Agents of different strength have no fair share, so rates by agent "
        "are not tested; with a mix of agents, a seat, faction or power is tested only "
        "against seats of the same agent in the same setting and mix of agents (a lone "
        "agent in its match has nothing to be compared with).</p>"
        if len({s["agent"] for s in run.seats}) > 1
        else ""
    )
    return f"<h2>Summary</h2>{text}{note}"


def write_report(folder: Path | Sequence[Path], out: Path | None = None) -> tuple[Path, list[Path]]:
    """Write ``out`` (default DIR/report.html, of the first DIR), ``<stem>-<plot>.png`` and
    the tables as ``<stem>.md`` beside it. Several folders are pooled into one report
    (``findings.pool_runs``)."""
    folders = [folder] if isinstance(folder, Path) else list(folder)
    run = fx.pool_runs([fx.load_run(f) for f in folders])
    folder = folders[0]
    page, pngs = build(run)
    out = out or folder / "report.html"
    if out.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"--out must end in .html, got {out.name}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page)
    out.with_suffix(".md").write_text(markdown(run))
    paths = []
    for name, data in pngs.items():
        path = out.with_name(f"{out.stem}-{name}.png")
        path.write_bytes(data)
        paths.append(path)
    return out, paths
