"""The chances over the match as a PNG (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def draw(analysis: dict[str, Any], path: str | Path) -> None:
    """One line per seat analysed: its chance from its own view at each point where it
    was measured, the result at the end; blunders and mistakes marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4), dpi=100)
    for seat in analysis["seats"]:
        xs = [p[0] for p in seat["chances"]]
        ys = [p[1] for p in seat["chances"]]
        (line,) = ax.plot(xs, ys, label=seat["name"], linewidth=1.5)
        marks = [
            d
            for d in analysis["decisions"]
            if d["seat"] == seat["seat"] and d.get("grade") in ("mistake", "blunder")
        ]
        ax.scatter(
            [d["step"] for d in marks],
            [d["after"] for d in marks],
            color=line.get_color(),
            marker="x",
            s=40,
            zorder=3,
        )
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("step")
    ax.set_ylabel("win chance")
    ax.set_title(f"{analysis['title']} (seed {analysis['seed']}): chances; x = mistake or blunder")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
