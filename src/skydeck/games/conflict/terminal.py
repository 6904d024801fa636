"""Terminal drawing of a Stellar Conflict view (rich), and its command-line options.

The table is drawn as a character map (one character = 10 x 20 mm, rulers every
100 mm); each card shows as its number's last character in its owner's colour, the last
step's lasers as dots with the point they reached marked. Below it: seats, cards and
the last shots. While a seat deploys, a short list of suggested placements (the
heuristic's best, with the number to type) saves reading the whole placement grid;
any ``place X Y ANGLE`` on the table may be typed instead.
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skydeck.core import Action
from skydeck.games.conflict.describe import ship_line

if TYPE_CHECKING:
    from skydeck.games.conflict.game import ConflictGame

COLOURS = ["bold cyan", "bold red", "bold green", "bold magenta"]
NEUTRAL = "bold yellow"
CELL_W, CELL_H = 10.0, 20.0
SYMBOL = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SUGGESTED = 6


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
    per_100 = int(100 // CELL_H)
    for r, row in enumerate(grid):
        top = (rows - r) * CELL_H  # table y of this row's upper edge
        ruler = f"{int(top):>4} " if (rows - r) % per_100 == 0 else "     "
        out.append(ruler, style="dim")
        for ch, style in row:
            out.append(ch, style=style)
        out.append("\n")
    ticks = [" "] * (cols + 6)
    for x in range(0, int(w) + 1, 100):
        label = str(x)
        c = int(x // CELL_W)
        for k, ch in enumerate(label):
            if c + k < len(ticks):
                ticks[c + k] = ch
    out.append("     " + "".join(ticks).rstrip() + "  (x mm; y mm on the left)\n", style="dim")
    return out


@lru_cache(maxsize=8)
def _game(players: int, scale: str, races: tuple[str, ...], variants: tuple[str, ...]) -> Any:
    # The game's own class, not the registry: a game imports only core and itself.
    from skydeck.games.conflict.game import ConflictGame

    return ConflictGame(players=players, scale=scale, races=list(races), variants=list(variants))


def game_for(view: dict[str, Any]) -> ConflictGame:
    """A game with the view's table and cards (the geometry is the same for all)."""
    return _game(
        len(view["seats"]),
        view["scale"],
        tuple(s["race"] for s in view["seats"]),
        tuple(view["variants"]),
    )


def suggestions(
    view: dict[str, Any], seat: int, count: int = SUGGESTED
) -> list[tuple[int, Action, str]]:
    """The heuristic's best placements for the card in ``seat``'s hand, as (number in
    the legal-action list, action, what its lasers would hit first). Empty when the seat
    holds no card or the view is not its own (the answer is remembered for the last
    few tables, as the terminal asks twice per prompt)."""
    if view["phase"] not in ("deployment", "last_card") or view["seat"] != seat:
        return []
    hand = view["seats"][seat]["hand"]
    if hand is None:
        return []
    key = (
        seat,
        hand,
        count,
        view["scale"],
        tuple(view["variants"]),
        tuple(s["race"] for s in view["seats"]),
        tuple(
            (c["ship"], c["owner"], c["x"], c["y"], c["angle"], c["cubes"], c["fired"])
            for c in view["cards"]
            if c["on_table"]
        ),
    )
    if key not in _SUGGESTED:
        if len(_SUGGESTED) > 64:
            _SUGGESTED.clear()
        _SUGGESTED[key] = _suggest(view, seat, hand, count)
    return _SUGGESTED[key]


_SUGGESTED: dict[tuple[Any, ...], list[tuple[int, Action, str]]] = {}


def _suggest(
    view: dict[str, Any], seat: int, hand: str, count: int
) -> list[tuple[int, Action, str]]:
    from skydeck.games.conflict import geometry as g
    from skydeck.games.conflict.ai.heuristic import HeuristicAgent, _Context

    game = game_for(view)
    base = HeuristicAgent(game).table_state(view)
    free = game.shapes.free_grid([(c[2], c[3], c[4]) for c in base.cards])
    ctx = _Context(game, base, seat, game.content.by_id[hand])
    # best first, a few different spots: turning a card without lasers changes nothing
    per_spot = 2 if ctx.card.lasers else 1
    ranked: list[int] = []
    used: dict[tuple[int, int], int] = {}
    for i in sorted(range(len(free)), key=lambda i: (-ctx.quick(*free[i]), i)):
        spot = free[i][:2]
        if used.get(spot, 0) < per_spot:
            used[spot] = used.get(spot, 0) + 1
            ranked.append(i)
            if len(ranked) == count:
                break
    names = [cv["name"] for cv in view["cards"] if cv["on_table"]]
    out = []
    for i in ranked:
        x, y, a = free[i]
        shape = game.shapes.shape(ctx.hand, x, y, a)
        hits = []
        for p, d, _strength, _kind in shape.lasers:
            hit = g.first_hit(p, d, ctx.rects, -1, ctx.circles)
            hits.append("nothing" if hit is None else names[hit[0]])
        what = "lasers hit " + ", ".join(hits) if hits else "no lasers"
        out.append((i + 1, game.shapes.place_action[free[i]], what))
    return out


def _suggestion_text(view: dict[str, Any], seat: int) -> Text | None:
    rows = suggestions(view, seat)
    if not rows:
        return None
    hand = view["seats"][seat]["hand"]
    out = Text()
    ship = view["ships"][hand]
    lasers = [(lz["strength"], lz["kind"]) for lz in ship["lasers"]]
    line = ship_line(
        ship["name"], ship["cost"], ship["initiative"], ship["hull"], ship["vp"], lasers
    )
    out.append(f"Your card: {line}\n", style="bold")
    out.append(
        "Suggested placements (type the number, or any 'place X Y ANGLE' in whole mm and "
        "degrees: x 0-900 left to right, y 0-600 bottom to top, angle 0 = nose up, "
        "90 = left, 180 = down, 270 = right):\n"
    )
    for number, action, why in rows:
        out.append(f"  {number:>4}  ", style="cyan")
        out.append(f"{action}", style="bold")
        out.append(f"  — {why}\n")
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
    if view["phase"] == "deployment" and view.get("cards_in_time"):
        # no clock at a terminal: the time model's alarm (RULINGS 15)
        count = view["cards_in_time"]
        head.append(f", {view['seconds']} s on the clock: time for {count} cards each")
    seats = Table(header_style="bold", box=None, title="Seats")
    for col in ("seat", "race", "status", "deck", "hand", "fleet", "score"):
        seats.add_column(col)
    ships = view["ships"]
    for i, s in enumerate(view["seats"]):
        status = "done" if s["done"] else "ready" if s["ready"] else "choosing"
        hand = ships[s["hand"]]["name"] if s["hand"] else ("(card)" if s["holding"] else "")
        if s.get("frozen"):
            x, y, a = s["frozen"]
            hand += f" frozen at ({x}, {y}) {a}°"
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
    if seat is not None:
        hint = _suggestion_text(view, seat)
        if hint is not None:
            parts.append(hint)
    if view["battle"]["shots"]:
        shots = Text("Last step: ")
        for s in view["battle"]["shots"]:
            target = "-" if s["target"] is None else SYMBOL[s["target"] % len(SYMBOL)]
            shots.append(f"{SYMBOL[s['from_card'] % len(SYMBOL)]}->{target} {s['result']}; ")
        parts.append(shots)
    return Group(*parts)


def shown_actions(view: dict[str, Any], actions: list[Action]) -> list[int] | None:
    """While deploying, list only the suggested placements and the other choices (the
    whole placement grid, ~300 rows, would bury the board); any number still plays."""
    places = [i for i, a in enumerate(actions) if a.kind == "place"]
    if len(places) <= SUGGESTED:
        return None
    seat = view["seat"]
    picked = {n - 1 for n, _a, _why in suggestions(view, seat)} if seat is not None else set()
    return [i for i, a in enumerate(actions) if a.kind != "place" or i in picked]
