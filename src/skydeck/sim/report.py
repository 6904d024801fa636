"""A tournament report as a rich table."""

from __future__ import annotations

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from skydeck.sim.tournament import Report


def show(table: Table, console: Console | None = None) -> None:
    """Print a table whole. Piped into a file or another program, rich assumes 80
    columns and cuts cells short ("Elo" and the intervals become "…"); a table printed
    there gets the width it needs instead, so every value is there to read or parse."""
    console = console or Console()
    if not console.is_terminal:
        wide = console.options.update_width(10_000)
        needed = Measurement.get(console, wide, table).maximum
        if needed > console.width:
            console = Console(
                file=console.file, width=needed, color_system=None, force_terminal=False
            )
    console.print(table)


def render(report: Report) -> Table:
    setup = report.setup
    opts = ", ".join(f"{k}={v}" for k, v in setup.options.items() if k != "players")
    title = (
        f"{setup.game} ({report.players} player{'s' * (report.players != 1)}"
        f"{', ' + opts if opts else ''}): {len(report.matches)} games, seed {setup.seed}"
    )
    table = Table(title=title, header_style="bold")
    for col in (
        "agent",
        "seats",
        "wins",
        "draws",
        "win rate",
        "95% CI",
        "Elo",
        "mean score",
        "CPU/move",
        "CPU max",
    ):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for st in report.standings:
        lo, hi = st.interval
        table.add_row(
            st.agent,
            str(st.seats),
            str(st.wins),
            str(st.draws),
            f"{st.rate:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            "-" if st.elo is None else f"{st.elo:.0f}",
            f"{st.score_total / st.seats:.2f}" if st.seats else "-",
            f"{st.cpu_seconds / st.decisions * 1000:.1f} ms" if st.decisions else "-",
            f"{st.cpu_longest:.2f} s",
        )
    return table
