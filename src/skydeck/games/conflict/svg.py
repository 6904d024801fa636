"""Pictures of the table, drawn from a view, for people who would rather look than read.

Each card shows its name, initiative (with Delay tokens), hull boxes filled by the
damage tokens (in the colour of the seat that dealt them), Cargo cubes and VP; shields
glow on the card edges that carry them. A battle step adds its lasers, each traced from
the firing card to what it met, with the result marked where it landed (damage, shield,
Cargo taken, Delay, immune, or out of the table); cards that step destroyed or emptied
stay as dashed ghosts so every laser ends on something.

``battle_pictures(record)`` replays a match record: one picture of the table as
deployed, then one per initiative step. ``render_record(record, out)`` writes them as
``table-00.svg``, ``table-01.svg`` ... (or PNG through resvg when ``out`` ends in .png).
Plain string building: the SVG needs no dependency.

    skydeck render conflict MATCH.json --out table.png
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from skydeck.core.record import MatchRecord

OWNER_FILL = ["#dbeeff", "#ffe1dc", "#ddf5d6", "#efe0fb"]
OWNER_STROKE = ["#1565c0", "#c62828", "#2e7d32", "#7b1fa2"]
OWNER_NAME = ["blue", "red", "green", "purple"]
METEOR_FILL, METEOR_STROKE = "#eadfcb", "#7a5c3a"
LASER_COLOUR = {1: "#d05ce3", 2: "#ff5252", 3: "#69f0ae"}
KIND_COLOUR = {"ion": "#40c4ff", "piercing": "#ffab40"}
LASER_WIDTH = {1: 1.3, 2: 2.2, 3: 3.2}
SHIELD = "#00e5ff"
CUBE = "#ffc107"
TABLE = "#0b1426"
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
MARGIN = 14  # mm around the table
TOP = 34  # mm of caption above it
BOTTOM = 30  # mm of legend below it
PIXELS_PER_MM = 1.6
RESULT_TEXT = {
    "shield": "shield",
    "immune": "immune",
    "ion_no_effect": "no effect",
}


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    fill: str = "#111",
    anchor: str = "middle",
    weight: str = "normal",
    extra: str = "",
) -> str:
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}"{extra}>{escape(text)}</text>'
    )


def _halo(x: float, y: float, text: str, size: float, fill: str) -> str:
    """Text readable on the dark table and over cards: a dark outline under it."""
    return _text(
        x,
        y,
        text,
        size,
        fill,
        weight="bold",
        extra=' stroke="#000" stroke-width="1.6" paint-order="stroke" stroke-linejoin="round"',
    )


class _Canvas:
    """Table millimetres (y up) to SVG user units (y down, margins added)."""

    def __init__(self, width: float, height: float) -> None:
        self.w, self.h = width, height

    def x(self, x: float) -> float:
        return x + MARGIN

    def y(self, y: float) -> float:
        return self.h - y + MARGIN + TOP

    def pt(self, x: float, y: float) -> str:
        return f"{_f(self.x(x))},{_f(self.y(y))}"


def _card(cv: _Canvas, c: dict[str, Any], ghost: str | None, firing: bool) -> list[str]:
    """One card, drawn in its own frame (nose up before turning), text never upside
    down. ``ghost``: why the card left the table in this step (drawn dashed)."""
    owner = c["owner"]
    fill = METEOR_FILL if owner is None else OWNER_FILL[owner % 4]
    stroke = METEOR_STROKE if owner is None else OWNER_STROKE[owner % 4]
    angle = c["angle"] % 360
    flip = 90 < angle < 270  # turn the writing round so it reads upright
    out = [
        f'<g class="card" data-card="{c["card"]}" transform="translate({cv.pt(c["x"], c["y"])}) '
        f'rotate({-angle})"' + (' opacity="0.45"' if ghost else "") + ">"
    ]
    dash = ' stroke-dasharray="4 3"' if ghost else ""
    if firing:
        out.append(
            '<rect x="-35" y="-47.5" width="70" height="95" rx="6" fill="none" '
            'stroke="#fff176" stroke-width="2.5" opacity="0.8" />'
        )
    out.append(
        f'<rect x="-31.5" y="-44" width="63" height="88" rx="3" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1.6"{dash} />'
    )
    # the nose: a header band with a notch pointing the way the card faces
    out.append(
        '<path d="M-31.5,-30 V-41 Q-31.5,-44 -28.5,-44 H28.5 Q31.5,-44 31.5,-41 V-30 Z" '
        f'fill="{stroke}" />'
    )
    out.append(f'<path d="M-6,-44 L0,-50 L6,-44 Z" fill="{stroke}" />')
    rot = ' transform="rotate(180 0 {y})"'

    def words(y: float, text: str, size: float, fill: str = "#111", weight: str = "normal") -> str:
        extra = rot.format(y=_f(y - size * 0.35)) if flip else ""
        if len(text) * size * 0.6 > 58:
            extra += ' textLength="58" lengthAdjust="spacingAndGlyphs"'
        return _text(0, y, text, size, fill, weight=weight, extra=extra)

    out.append(words(-34.5, c["name"], 8, "#fff", "bold"))
    if c["role"] in ("ship", "flagship"):
        # initiative in a ring; Delay tokens beside it
        delayed = c["delays"] > 0
        out.append(
            '<circle cx="0" cy="-13" r="10" fill="#fff" '
            f'stroke="{"#0277bd" if delayed else stroke}" '
            f'stroke-width="{2.5 if delayed else 1.5}" />'
        )
        out.append(words(-8.5, str(c["initiative"]), 13, "#111", "bold"))
        if delayed:
            out.append(words(4, f"delay +{2 * c['delays']}", 6.5, "#0277bd", "bold"))
        out.extend(_hull(c, 12, flip))
        label = f"{c['vp']:g} VP" + ("  · fired" if c["fired"] else "")
        if c["role"] == "flagship":
            label = "flagship · " + label
        out.append(words(38, label, 6, "#333"))
    else:
        out.append(words(-8, "cargo" if c["role"] == "cargo" else "meteor", 6.5, "#555"))
        out.append(words(37, f"{c['vp']:g} VP" if c["vp"] else "", 6, "#333"))
    if c["cubes"]:
        out.extend(_cubes(c["cubes"], 22 if c["role"] in ("ship", "flagship") else 4))
    if ghost:
        out.append(
            '<path d="M-24,-26 L24,26 M24,-26 L-24,26" stroke="#ff1744" stroke-width="4" '
            'stroke-linecap="round" opacity="0.9" />'
        )
    out.append("</g>")
    if ghost:
        out.append(_halo(cv.x(c["x"]), cv.y(c["y"]) + 3, ghost.upper(), 9, "#ff8a80"))
    return out


def _hull(c: dict[str, Any], y: float, flip: bool = False) -> list[str]:
    """Hull boxes, filled left to right by damage tokens in the dealer's colour."""
    hull, damage = c["hull"], c["damage"]
    size, gap = 7.0, 1.5
    n = max(hull, 1)
    x0 = -(n * size + (n - 1) * gap) / 2
    out = []
    for i in range(hull):
        x = x0 + i * (size + gap)
        fill = OWNER_STROKE[damage[i] % 4] if i < len(damage) else "#fff"
        out.append(
            f'<rect x="{_f(x)}" y="{_f(y - size / 2)}" width="{_f(size)}" height="{_f(size)}" '
            f'rx="1" fill="{fill}" stroke="#333" stroke-width="0.7" />'
        )
    if len(damage) > hull:
        ty = y + size + 3.5
        turn = f' transform="rotate(180 0 {_f(ty - 2)})"' if flip else ""
        out.append(_text(0, ty, f"+{len(damage) - hull} over", 5.5, "#b71c1c", extra=turn))
    return out


def _cubes(n: int, y: float) -> list[str]:
    """Cargo cubes as little gold squares, five to a row."""
    out = []
    size, gap = 5.0, 1.6
    rows = [min(5, n - r) for r in range(0, n, 5)]
    for r, count in enumerate(rows[:3]):
        x0 = -(count * size + (count - 1) * gap) / 2
        for i in range(count):
            out.append(
                f'<rect x="{_f(x0 + i * (size + gap))}" y="{_f(y + r * (size + gap))}" '
                f'width="{size}" height="{size}" fill="{CUBE}" stroke="#7a5200" '
                'stroke-width="0.6" />'
            )
    if n > 15:
        out.append(_text(0, y + 3 * (size + gap) + 4, f"{n} cubes", 5.5, "#7a5200"))
    return out


def _shot(cv: _Canvas, s: dict[str, Any], index: int) -> tuple[list[str], list[str]]:
    """A laser's beam (drawn under the marks) and the mark where it landed."""
    colour = KIND_COLOUR.get(s["laser_kind"], LASER_COLOUR.get(s["strength"], "#fff"))
    width = LASER_WIDTH.get(s["strength"], 1.3)
    (x0, y0), (x1, y1) = s["from"], s["to"]
    result = s.get("result", "")
    a, b = cv.pt(x0, y0).split(","), cv.pt(x1, y1).split(",")
    dash = ' stroke-dasharray="6 4"' if result == "miss" else ""
    beam = [
        f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{colour}" '
        f'stroke-width="{_f(width * 3)}" opacity="0.25" stroke-linecap="round" />',
        f'<line class="laser" data-result="{result}" data-from="{s["from_card"]}" '
        f'x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{colour}" '
        f'stroke-width="{_f(width)}" stroke-linecap="round"{dash} />',
    ]
    mx, my = cv.x(x1), cv.y(y1)
    marks: list[str] = []
    if result == "miss":
        return beam, marks
    if result == "damage":
        marks.append(_burst(mx, my, "#ffeb3b", "#e65100"))
        label, fill = f"-{s.get('damage', s['strength'])}", "#ffeb3b"
    elif result == "shield":
        marks.append(
            f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="4.5" fill="none" stroke="{SHIELD}" '
            'stroke-width="2" />'
        )
        label, fill = "shield", SHIELD
    elif result == "cargo":
        marks.append(
            f'<rect x="{_f(mx - 3.5)}" y="{_f(my - 3.5)}" width="7" height="7" fill="{CUBE}" '
            'stroke="#000" stroke-width="0.8" />'
        )
        label, fill = f"+{s.get('cubes', 0)} cube" + ("s" if s.get("cubes", 0) != 1 else ""), CUBE
    elif result == "delay":
        marks.append(
            f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="4" fill="{KIND_COLOUR["ion"]}" '
            'stroke="#000" stroke-width="0.8" />'
        )
        label, fill = "delay +2", KIND_COLOUR["ion"]
    else:
        marks.append(
            f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="3.5" fill="#9e9e9e" stroke="#000" '
            'stroke-width="0.8" />'
        )
        label, fill = RESULT_TEXT.get(result, result), "#e0e0e0"
    # labels alternate above and below the hit point so neighbours overlap less
    dy = -7.5 if index % 2 == 0 else 12.5
    marks.append(_halo(mx, my + dy, label, 8, fill))
    return beam, marks


def _burst(x: float, y: float, fill: str, stroke: str) -> str:
    pts = []
    for k in range(16):
        r = 6.5 if k % 2 == 0 else 3.0
        a = math.pi * k / 8
        pts.append(f"{_f(x + r * math.cos(a))},{_f(y + r * math.sin(a))}")
    return (
        f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="{stroke}" stroke-width="0.8" />'
    )


def render_svg(
    view: dict[str, Any],
    title: str | None = None,
    before: dict[str, Any] | None = None,
    firing: list[int] | None = None,
) -> str:
    """The table of ``view`` (any seat's or a spectator's) as an SVG document.

    ``before``: the view before the step shown, so the cards the step removed stay as
    ghosts; ``firing``: the cards that fired in it (outlined)."""
    w, h = view["table"]["width"], view["table"]["height"]
    cv = _Canvas(w, h)
    total_w, total_h = w + 2 * MARGIN, h + 2 * MARGIN + TOP + BOTTOM
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(total_w * PIXELS_PER_MM)}" '
        f'height="{_f(total_h * PIXELS_PER_MM)}" viewBox="0 0 {total_w} {total_h}" '
        f'font-family="{FONT}">',
        f'<rect width="{total_w}" height="{total_h}" fill="#f4f1ea" />',
        f'<rect x="{MARGIN}" y="{MARGIN + TOP}" width="{w}" height="{h}" rx="4" fill="{TABLE}" />',
    ]
    out.extend(_stars(cv, w, h))
    gone: dict[int, str] = {}
    if before is not None:
        for c0, c1 in zip(before["cards"], view["cards"]):
            if c0["on_table"] and not c1["on_table"]:
                gone[c1["card"]] = "destroyed" if c1["role"] in ("ship", "flagship") else "emptied"
    fired_now = set(firing or ())
    shields = []
    for c in view["cards"]:
        if not c["on_table"] and c["card"] not in gone:
            continue
        out.extend(_card(cv, c, gone.get(c["card"]), c["card"] in fired_now))
        for sx1, sy1, sx2, sy2 in c["shields"]:
            shields.append(
                f'<line class="shield" x1="{_f(cv.x(sx1))}" y1="{_f(cv.y(sy1))}" '
                f'x2="{_f(cv.x(sx2))}" y2="{_f(cv.y(sy2))}" stroke="{SHIELD}" '
                'stroke-width="3" stroke-linecap="round" opacity="0.9" />'
            )
    out.extend(shields)
    beams, marks = [], []
    for i, s in enumerate(view["battle"]["shots"]):
        beam, mark = _shot(cv, s, i)
        beams.extend(beam)
        marks.extend(mark)
    out.extend(beams)
    out.extend(marks)
    out.extend(_caption(view, title, firing))
    out.extend(_legend(total_w, total_h))
    out.append("</svg>")
    return "\n".join(out)


def _stars(cv: _Canvas, w: float, h: float) -> list[str]:
    """A fixed sprinkle of faint stars (deterministic: same picture every time)."""
    out = []
    v = 12345
    for _ in range(70):
        v = (v * 1103515245 + 12345) % 2**31
        x = v % int(w)
        v = (v * 1103515245 + 12345) % 2**31
        y = v % int(h)
        out.append(
            f'<circle cx="{_f(cv.x(x))}" cy="{_f(cv.y(y))}" r="0.7" fill="#ffffff" '
            'opacity="0.35" />'
        )
    return out


def _caption(view: dict[str, Any], title: str | None, firing: list[int] | None) -> list[str]:
    cards = view["cards"]
    head = title or f"{view['phase']}"
    out = [_text(MARGIN, 15, head, 11, "#111", "start", "bold")]
    if firing:
        names = ", ".join(cards[u]["name"] for u in firing)
        out.append(_text(MARGIN, 27, f"firing: {names}", 7.5, "#333", "start"))
    scores = []
    for i, s in enumerate(view["seats"]):
        scores.append(f"Player {i + 1} {s['race']} ({OWNER_NAME[i % 4]}): {s['score']:g} VP")
    x = MARGIN + view["table"]["width"]
    out.append(_text(x, 15, "   ·   ".join(scores), 8.5, "#111", "end", "bold"))
    cubes = view["cubes"]
    winners = view.get("winners") or []
    extra = f"cubes vaporised: {cubes['vaporised']}"
    if view["phase"] == "over" and winners:
        extra = "won by seat " + ", ".join(str(s + 1) for s in winners) + "   ·   " + extra
    out.append(_text(x, 27, extra, 7.5, "#333", "end"))
    return out


def _legend_line(x: float, y: float, length: float, stroke: str, label: str) -> list[str]:
    """A legend entry drawn as a line ``length`` long (``stroke``: its attributes) and
    its label just after it."""
    return [
        f'<line x1="{_f(x)}" y1="{_f(y - 1)}" x2="{_f(x + length)}" y2="{_f(y - 1)}" {stroke} />',
        _text(x + (length + 3), y + 1.5, label, 7, "#eee", "start"),
    ]


def _legend(total_w: float, total_h: float) -> list[str]:
    """What the colours and marks mean, along the bottom."""
    y = total_h - BOTTOM / 2 + 2
    out = []
    x = MARGIN + 6.0
    items: list[tuple[str, str]] = [
        (LASER_COLOUR[1], "laser 1"),
        (LASER_COLOUR[2], "laser 2"),
        (LASER_COLOUR[3], "laser 3"),
        (KIND_COLOUR["ion"], "ion"),
        (KIND_COLOUR["piercing"], "piercing"),
    ]
    out.append(
        f'<rect x="{MARGIN}" y="{_f(y - 9)}" width="{total_w - 2 * MARGIN}" height="16" '
        f'rx="3" fill="{TABLE}" />'
    )
    for colour, name in items:
        out += _legend_line(x, y, 18, f'stroke="{colour}" stroke-width="2.4"', name)
        x += 24 + len(name) * 4.3
    x += 6
    out.append(_burst(x + 3, y - 1, "#ffeb3b", "#e65100"))
    out.append(_text(x + 11, y + 1.5, "damage", 7, "#eee", "start"))
    x += 44
    out += _legend_line(x, y, 14, f'stroke="{SHIELD}" stroke-width="3"', "shield")
    x += 44
    out.append(f'<rect x="{_f(x)}" y="{_f(y - 4)}" width="6" height="6" fill="{CUBE}" />')
    out.append(_text(x + 9, y + 1.5, "cargo cube", 7, "#eee", "start"))
    x += 56
    missed = 'stroke="#ccc" stroke-width="1.6" stroke-dasharray="6 4"'
    out += _legend_line(x, y, 18, missed, "missed (left the table)")
    x += 112
    out.append(_text(x, y + 1.5, "hull boxes fill with the dealer's colour", 7, "#eee", "start"))
    return out


def battle_pictures(record: MatchRecord) -> list[tuple[str, str]]:
    """(label, svg): the table as deployed, then one after every initiative step."""
    pictures: list[tuple[str, str]] = []
    previous: dict[str, Any] | None = None
    for state, entry, events in record.replay():
        view = state.view(None)
        if entry is not None and view["phase"] in ("battle", "over"):
            if entry.action.kind == "fire":
                firing = next(
                    (list(e.data["firing"]) for e in events if e.kind == "initiative"), []
                )
                battle = view["battle"]
                label = f"Step {battle['step']}: initiative {battle['initiative']}"
                pictures.append((label, render_svg(view, label, previous, firing)))
            elif not pictures:
                label = "Deployed: the table before the battle"
                pictures.append((label, render_svg(view, label)))
        previous = view
    if not pictures:  # the match ended (or stopped) before any battle
        view = record.final_state().view(None)
        pictures.append((f"The table ({view['phase']})", render_svg(view)))
    return pictures


def to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture (resvg, with the system's fonts for the card text)."""
    import resvg_py

    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, sans_serif_family="DejaVu Sans", font_family="DejaVu Sans"
        )
    )


def render_record(record: MatchRecord, out: Path) -> list[Path]:
    """Write ``out``'s stem + ``-00``, ``-01`` ... (one picture per step, the deployed
    table first) beside ``out``, as SVG or, when ``out`` ends in .png, as PNG."""
    if record.game != "conflict":
        raise ValueError(f"a {record.game} match is not a Stellar Conflict match")
    png = out.suffix.lower() == ".png"
    paths = []
    for i, (_label, svg) in enumerate(battle_pictures(record)):
        path = out.with_name(f"{out.stem}-{i:02d}{out.suffix}")
        if png:
            path.write_bytes(to_png(svg))
        else:
            path.write_text(svg)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw a Stellar Conflict match, step by step")
    parser.add_argument("record", help="a match record (JSON)")
    parser.add_argument("--out", default="table.svg", help="table.svg or table.png")
    args = parser.parse_args(argv)
    record = MatchRecord.load(args.record)
    if record.game != "conflict":
        parser.error(f"{args.record} is a {record.game} match, not conflict")
    paths = render_record(record, Path(args.out))
    print(f"wrote {len(paths)} pictures: {paths[0].name} ... {paths[-1].name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
