"""Terminal drawing of a Stellar Conflict view (rich), and its command-line options.

The table is drawn as a character map (one character = 10 x 20 mm); each card shows as
its number's last character in its owner's colour, the last step's lasers as dots with
the point they reached marked. Below it: seats, cards and the last shots.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skydeck.core import Action

COLOURS = ["bold cyan", "bold red", "bold green", "bold magenta"]
NEUTRAL = "bold yellow"
CELL_W, CELL_H = 10.0, 20.0
SYMBOL = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scale", choices=["dispute", "conflict", "war"], default=None)
    parser.add_argument("--races", default=None, help="comma-separated, one per seat")
    parser.add_argument("--variants", default=None, help="comma-separated: meteor,stolen_goods")
    parser.add_argument("--meteors", type=int, default=None)
    parser.add_argument("--deployment", choices=["timed", "light_speed"], default=None)


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("scale", "meteors", "deployment"):
        value = getattr(args, name, None)
        if value is not None:
            out[name] = value
    for name in ("races", "variants"):
        value = getattr(args, name, None)
        if value:
            out[name] = [v.strip() for v in str(value).split(",") if v.strip()]
    return out


def _inside(px: float, py: float, corners: list[list[float]]) -> bool:
    sign = 0
    for i in range(4):
        ax, ay = corners[i]
        bx, by = corners[(i + 1) % 4]
        cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        s = 1 if cross > 0 else -1 if cross < 0 else 0
        if s and sign and s != sign:
            return False
        sign = sign or s
    return True


def table_map(view: dict[str, Any]) -> Text:
    w, h = view["table"]["width"], view["table"]["height"]
    cols, rows = int(w // CELL_W), int(h // CELL_H)
    grid: list[list[tuple[str, str]]] = [[(".", "dim")] * cols for _ in range(rows)]

    def put(x: float, y: float, ch: str, style: str) -> None:
        c, r = int(x // CELL_W), rows - 1 - int(y // CELL_H)
        if 0 <= c < cols and 0 <= r < rows:
            grid[r][c] = (ch, style)

    for shot in view["battle"]["shots"]:
        (x0, y0), (x1, y1) = shot["from"], shot["to"]
        n = int(max(abs(x1 - x0) / CELL_W, abs(y1 - y0) / CELL_H)) + 1
        for k in range(n + 1):
            put(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n, "·", "yellow")
    for card in view["cards"]:
        if not card["on_table"]:
            continue
        owner = card["owner"]
        style = NEUTRAL if owner is None else COLOURS[owner % len(COLOURS)]
        ch = SYMBOL[card["card"] % len(SYMBOL)]
        for r in range(rows):
            for c in range(cols):
                px, py = (c + 0.5) * CELL_W, (rows - 1 - r + 0.5) * CELL_H
                if _inside(px, py, card["corners"]):
                    grid[r][c] = (ch, style)
    for shot in view["battle"]["shots"]:
        mark = {"shield": "#", "miss": " "}.get(shot.get("result", ""), "*")
        if mark.strip():
            put(shot["to"][0], shot["to"][1], mark, "bold white")
    out = Text()
    for row in grid:
        for ch, style in row:
            out.append(ch, style=style)
        out.append("\n")
    return out


def _status(card: dict[str, Any]) -> str:
    if card["on_table"]:
        return "fired" if card["fired"] else ""
    return "destroyed" if card["role"] in ("ship", "flagship") else "emptied"


def render(view: dict[str, Any], seat: int | None) -> Group:
    head = Text()
    head.append(f"Stellar Conflict — {view['scale']} ({view['credits']} credits), ", style="bold")
    head.append(f"phase: {view['phase']}")
    if view["phase"] == "battle":
        head.append(f", next initiative: {view['battle']['next']}")
    seats = Table(header_style="bold", box=None, title="Seats")
    for col in ("seat", "race", "status", "deck", "hand", "fleet", "score"):
        seats.add_column(col)
    ships = view["ships"]
    for i, s in enumerate(view["seats"]):
        status = "done" if s["done"] else "ready" if s["ready"] else "choosing"
        hand = ships[s["hand"]]["name"] if s["hand"] else ("(card)" if s["holding"] else "")
        fleet = ", ".join(ships[f]["name"] for f in s["fleet"]) if s["fleet"] is not None else "?"
        if s["credits_left"] is not None and view["phase"] == "preparation":
            fleet += f"  [{s['credits_left']} cr left]"
        seats.add_row(
            Text(str(i + 1), style=COLOURS[i % 4]),
            s["race"],
            status,
            str(s["deck"]),
            hand,
            fleet,
            f"{s['score']:g}",
        )
    cards = Table(header_style="bold", box=None, title="Cards")
    for col in ("#", "ship", "owner", "at", "init", "hull/dmg", "cubes", "delay", ""):
        cards.add_column(col)
    for c in view["cards"]:
        owner = "meteor" if c["owner"] is None else str(c["owner"] + 1)
        cards.add_row(
            SYMBOL[c["card"] % len(SYMBOL)],
            c["name"],
            owner,
            f"({c['x']},{c['y']}) {c['angle']}°",
            str(c["initiative"]),
            f"{c['hull']}/{len(c['damage'])}",
            str(c["cubes"]),
            str(c["delays"]),
            _status(c),
        )
    parts: list[Any] = [head, table_map(view), seats]
    if view["cards"]:
        parts.append(cards)
    if view["battle"]["shots"]:
        shots = Text("Last step: ")
        for s in view["battle"]["shots"]:
            target = "-" if s["target"] is None else SYMBOL[s["target"] % len(SYMBOL)]
            shots.append(f"{SYMBOL[s['from_card'] % len(SYMBOL)]}->{target} {s['result']}; ")
        parts.append(shots)
    return Group(*parts)


def label(action: Action, view: dict[str, Any]) -> str:
    ships = view["ships"]
    if action.kind == "buy" and action.args and action.args[0] in ships:
        s = ships[str(action.args[0])]
        mark = {"ion": "i", "piercing": "p", "normal": ""}
        lasers = "+".join(f"{lz['strength']}{mark[lz['kind']]}" for lz in s["lasers"])
        return (
            f"{action.kind} {s['name']}: {s['cost']} cr, init {s['initiative']}, "
            f"hull {s['hull']}, {s['vp']} VP, lasers {lasers or '-'}"
        )
    if action.kind == "place" and len(action.args) == 3:
        seat = view["seat"]
        hand = view["seats"][seat]["hand"] if seat is not None else None
        name = ships[hand]["name"] if hand else "card"
        x, y, a = action.args
        return f"place {name} at ({x}, {y}) facing {a}°"
    if action.kind == "done":
        return "deploy no more cards"
    if action.kind == "fire":
        return f"fire: resolve initiative {view['battle']['next']}"
    return str(action)
