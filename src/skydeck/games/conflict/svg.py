"""SVG pictures of the table, drawn from a view: cards with name, initiative and hull,
shields, damage and cargo, and the last step's lasers traced to what they met.

``battle_pictures(record)`` replays a match record and returns one picture for the
table as deployed and one per initiative step, for people who would rather look than
read. Plain string building: no dependency.

    python -m skydeck.games.conflict.svg MATCH.json --out table.svg
    (writes table.svg for the final table and table-01.svg ... one per step)
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from skydeck.core.record import MatchRecord

OWNER_FILL = ["#cfe8ff", "#ffd6d6", "#d8f5d0", "#f0d9ff"]
OWNER_STROKE = ["#1f6fb2", "#b22222", "#2e7d32", "#7b1fa2"]
METEOR_FILL, METEOR_STROKE = "#e8dcc8", "#7a6a50"
LASER_COLOUR = {1: "#9c27b0", 2: "#e53935", 3: "#43a047"}
KIND_COLOUR = {"ion": "#1e88e5", "piercing": "#fb8c00"}
LASER_WIDTH = {1: 1.2, 2: 2.2, 3: 3.4}
MARGIN = 20


def render_svg(view: dict[str, Any], title: str | None = None) -> str:
    w, h = view["table"]["width"], view["table"]["height"]

    def pt(x: float, y: float) -> str:
        return f"{x + MARGIN:.2f},{h - y + MARGIN:.2f}"

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2 * MARGIN}" '
        f'height="{h + 2 * MARGIN + 24}" viewBox="0 0 {w + 2 * MARGIN} {h + 2 * MARGIN + 24}" '
        'font-family="sans-serif">',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{w}" height="{h}" fill="#101828" />',
    ]
    for c in view["cards"]:
        if not c["on_table"]:
            continue
        owner = c["owner"]
        fill = METEOR_FILL if owner is None else OWNER_FILL[owner % 4]
        stroke = METEOR_STROKE if owner is None else OWNER_STROKE[owner % 4]
        poly = " ".join(pt(x, y) for x, y in c["corners"])
        out.append(
            f'<polygon class="card" data-card="{c["card"]}" points="{poly}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.5" />'
        )
        (x0, y0), (x1, y1) = c["corners"][3], c["corners"][2]  # the nose edge
        out.append(
            f'<line x1="{x0 + MARGIN:.2f}" y1="{h - y0 + MARGIN:.2f}" '
            f'x2="{x1 + MARGIN:.2f}" y2="{h - y1 + MARGIN:.2f}" stroke="{stroke}" '
            'stroke-width="4" opacity="0.5" />'
        )
        for sx1, sy1, sx2, sy2 in c["shields"]:
            out.append(
                f'<line class="shield" x1="{sx1 + MARGIN:.2f}" y1="{h - sy1 + MARGIN:.2f}" '
                f'x2="{sx2 + MARGIN:.2f}" y2="{h - sy2 + MARGIN:.2f}" stroke="#ff1744" '
                'stroke-width="4" />'
            )
        cx, cy = c["x"] + MARGIN, h - c["y"] + MARGIN
        lines = [c["name"]]
        if c["role"] in ("ship", "flagship"):
            lines.append(f"init {c['initiative']} hull {c['hull']} dmg {len(c['damage'])}")
        if c["cubes"] or c["role"] in ("cargo", "meteor"):
            lines.append(f"cubes {c['cubes']}")
        if c["delays"]:
            lines.append(f"delay {c['delays']}")
        for i, text in enumerate(lines):
            out.append(
                f'<text x="{cx:.1f}" y="{cy - 8 + 11 * i:.1f}" font-size="9" '
                f'text-anchor="middle" fill="#111">{escape(text)}</text>'
            )
    for s in view["battle"]["shots"]:
        colour = KIND_COLOUR.get(s["kind"], LASER_COLOUR.get(s["strength"], "#fff"))
        (x0, y0), (x1, y1) = s["from"], s["to"]
        out.append(
            f'<line class="laser" data-result="{s.get("result", "")}" '
            f'x1="{x0 + MARGIN:.2f}" y1="{h - y0 + MARGIN:.2f}" x2="{x1 + MARGIN:.2f}" '
            f'y2="{h - y1 + MARGIN:.2f}" stroke="{colour}" '
            f'stroke-width="{LASER_WIDTH.get(s["strength"], 1.2)}" />'
        )
        if s["target"] is not None:
            mark = "#ff1744" if s.get("result") == "shield" else "#ffeb3b"
            out.append(
                f'<circle cx="{x1 + MARGIN:.2f}" cy="{h - y1 + MARGIN:.2f}" r="3" fill="{mark}" />'
            )
    caption = title or (
        f"{view['phase']} — step {view['battle']['step']}"
        + (f", initiative {view['battle']['initiative']}" if view["battle"]["initiative"] else "")
        + "  scores " + " / ".join(f"{v:g}" for v in view["scores"])
    )  # fmt: skip
    out.append(
        f'<text x="{MARGIN}" y="{h + 2 * MARGIN + 12}" font-size="14" fill="#111">'
        f"{escape(caption)}</text>"
    )
    out.append("</svg>")
    return "\n".join(out)


def battle_pictures(record: MatchRecord) -> list[tuple[str, str]]:
    """(label, svg) for the deployed table and after every initiative step."""
    pictures: list[tuple[str, str]] = []
    for state, entry, _events in record.replay():
        view = state.view(None)
        if entry is None or view["phase"] not in ("battle", "over"):
            continue
        if entry.action.kind == "fire":
            label = f"step {view['battle']['step']}: initiative {view['battle']['initiative']}"
        elif pictures:
            continue
        else:
            label = "deployed"
        pictures.append((label, render_svg(view, label)))
    return pictures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw a Stellar Conflict match as SVG")
    parser.add_argument("record", help="a match record (JSON)")
    parser.add_argument("--out", default="table.svg")
    args = parser.parse_args(argv)
    record = MatchRecord.load(args.record)
    if record.game != "conflict":
        parser.error(f"{args.record} is a {record.game} match, not conflict")
    out = Path(args.out)
    pictures = battle_pictures(record)
    for i, (_label, svg) in enumerate(pictures):
        out.with_name(f"{out.stem}-{i:02d}{out.suffix}").write_text(svg)
    out.write_text(render_svg(record.final_state().view(None)))
    print(f"wrote {out} and {len(pictures)} step pictures beside it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
