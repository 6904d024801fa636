"""Terminal drawing of a Stellium view (rich), and the game's command-line options."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

LETTER = {"planet": "P", "comet": "C", "star": "S", "supernova": "N"}
STYLE = {
    "planet": "bold green",
    "comet": "bold blue",
    "star": "bold yellow",
    "supernova": "bold magenta",
    "green": "green",
    "blue": "blue",
    "yellow": "yellow",
    "pink": "magenta",
}
BODY_OF_COLOUR = {"green": "planet", "blue": "comet", "yellow": "star", "pink": "supernova"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--first-game", action="store_true", help="a first game: the target is 5 lower"
    )


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    return {"first_game": True} if getattr(args, "first_game", False) else {}


def board_text(view: dict[str, Any]) -> Text:
    """The Universe as drawn on the table: every other column of each row is a hole of
    the triangular lattice, so each Galaxy shows as a seven-hole flower. Bodies as
    coloured capitals, empty coloured holes as the colour's initial (g b y p; after a
    body standing on one: Sy), Galaxy centres in brackets, Black Holes as @ (a body in
    one: <P>)."""
    u = view["universe"]
    spaces = set(u["spaces"])
    holes = set(u["black_holes"])
    centres = {g["centre"] for g in u["galaxies"]}
    board, colours = view["board"], view["colours"]
    out = Text()
    out.append("     " + "".join(f" {c} " for c in u["columns"]) + "\n", style="dim")
    for r in range(u["height"]):
        out.append(f"  {r + 1:>2} ", style="dim")
        for col in u["columns"]:
            name = f"{col}{r + 1}"
            body = board.get(name)
            if name not in spaces:  # Outer Belt, fragment, or between lattice points
                out.append("   ")
            elif body:
                if name in holes:
                    left, right = "<", ">"
                elif name in centres:
                    left, right = "(", ")"
                else:  # a body on a coloured hole: the hole's initial after it
                    left, right = " ", colours[name][0] if name in colours else " "
                out.append(left, style="dim")
                out.append(LETTER[body], style=STYLE[body])
                out.append(right, style=STYLE.get(colours.get(name, ""), "dim"))
            elif name in holes:
                out.append(" @ ", style="bright_black")
            else:
                mark = colours[name][0] if name in colours else "."
                text = f"({mark})" if name in centres else f" {mark} "
                out.append(text, style=STYLE.get(colours.get(name, ""), "dim"))
        out.append("\n")
    out.append(
        "  P Planet  C Comet  S Star  N Supernova   @ Black Hole  (.) centre"
        "  g b y p empty green/blue/yellow/pink hole\n",
        style="dim",
    )
    return out


def card_text(card: dict[str, Any]) -> Text:
    colour = card["colour"]
    t = Text()
    t.append(f"{card['id']} ", style="bold")
    t.append(card["name"], style=STYLE[colour])
    t.append(f"  {card['points']}★")
    if "shape" in card:
        t.append("  " + " / ".join(card["shape"]), style="dim")
    elif card["kind"] == "across":
        a, b = card["bodies"]
        t.append(f"  {LETTER[a]}{LETTER[b]} neighbours in two Galaxies", style="dim")
    elif card["kind"] == "centres":
        t.append(f"  {card['count']} x {LETTER[BODY_OF_COLOUR[colour]]} on centres", style="dim")
    else:
        t.append(
            f"  {card['count']} x {LETTER[BODY_OF_COLOUR[colour]]} on {colour} holes", style="dim"
        )
    return t


def render(view: dict[str, Any], seat: int | None) -> Group:
    cards = view["cards"]
    head = Text()
    turn = f"turn of Player {view['turn'] + 1}"
    head.append(f"Stellium — {turn}, step: {view['phase']}", style="bold")
    if view["final_round"]:
        head.append("  FINAL ROUND", style="bold red")
    head.append(f"   target {view['target']}★, Reserve {view['reserve']}")
    bag = Text("Bag: ")
    for body, n in view["bag"].items():
        bag.append(f"{LETTER[body]}x{n} ", style=STYLE[body])
    if view["drawn"]:
        bag.append(f"  in hand: {view['drawn']}", style=STYLE[view["drawn"]])
    if view["refill"]:
        r = view["refill"]
        order = ", ".join(f"Player {x + 1}" for x in r["order"])
        bag.append(f"  refilling {r['galaxy']}: {r['bodies']} ({order})")
    if view["phase"] == "effect" and view["placed"]:
        note = " (a token must replace it)" if view["must_use_token"] else ""
        bag.append(f"  effect pending for the body on {view['placed']}{note}")
    if view["keep"]:
        bag.append(f"  keep one of {', '.join(view['keep'])}; the rest go back to the bag")
    players = Table(box=None, header_style="bold")
    for col in ("seat", "score", "missions ★", "tokens", "Missions in hand", "completed"):
        players.add_column(col)
    for s in range(view["players"]):
        tokens = Text()
        for c in view["tokens"][s]:
            tokens.append("●", style=STYLE[c])
        hand = Text("\n").join(card_text(cards[c]) for c in view["hands"][s]) or Text("-")
        name = f"{s + 1}" + (" (you)" if s == seat else "") + (" ◀" if s == view["turn"] else "")
        players.add_row(
            name,
            str(view["scores"][s]),
            str(view["mission_points"][s]),
            tokens,
            hand,
            " ".join(view["completed"][s]) or "-",
        )
    available = Text("Available Missions:\n", style="bold")
    available.append(Text("\n").join(card_text(cards[c]) for c in view["available"]))
    parts: list[Any] = [head, board_text(view), bag, players, available]
    if view["is_over"]:
        winners = ", ".join(str(w + 1) for w in view["winners"]) or "nobody"
        parts.append(Text(f"Game over. Winner: {winners}", style="bold"))
    return Group(*parts)
