"""Stellarion in the terminal: the Observatory, discards, Outpost, Voyages, Theories and
the Glaucous Sun drawn with rich, and legal actions named by the cards they use."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

GALAXY_STYLE = {"alpha": "white", "beta": "magenta", "gamma": "blue", "delta": "dark_orange"}
GALAXY_SIGN = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}
PHASE_HELP = {
    "main": "Launch, Coordinate (or Traverse), or a free action.",
    "thrusters": "Reversible thrusters: put one of the used Ships at the bottom of its deck?",
    "power": "Use the Coordinate power step by step, or forfeit it.",
    "stars_look": "Stars: choose which seen card goes face up on top, which to the bottom.",
    "traverse": "Traverse: take your Voyage cards one by one.",
    "end": "End of turn: reveal a face-down top card.",
}
EXPANSIONS = ("black_holes", "theories", "mirrors", "glaucous_sun")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--expansions",
        default="",
        help=f"comma-separated, any of {', '.join(EXPANSIONS)} (or 'all')",
    )
    parser.add_argument("--stars", type=int, help="Shooting Star tokens (solo 0-4, default 1)")


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    text = (getattr(args, "expansions", "") or "").strip()
    if text:
        options["expansions"] = (
            list(EXPANSIONS) if text == "all" else [e.strip() for e in text.split(",") if e.strip()]
        )
    if getattr(args, "stars", None) is not None:
        options["shooting_stars"] = args.stars
    return options


def face_text(face: str | None) -> Text:
    """A card face as coloured text: 'γ Planet', 'Black Hole', 'Mirror'."""
    if face is None:
        return Text("▒ face down", style="dim")
    if face == "blackhole":
        return Text("● Black Hole", style="bold grey50")
    if face == "mirror":
        return Text("◇ Mirror", style="bold cyan")
    galaxy, _, kind = face.partition(".")
    return Text(
        f"{GALAXY_SIGN.get(galaxy, galaxy)} {kind.capitalize()}", style=GALAXY_STYLE.get(galaxy, "")
    )


def _plain(face: str | None) -> str:
    return face_text(face).plain


def _deck_table(decks: list[dict[str, Any]]) -> Table:
    table = Table(title="Observatory", header_style="bold", expand=False)
    for col in ("deck", "top card", "cards", "known", "discard pile"):
        table.add_column(col)
    for d in decks:
        top = face_text(d["top"]) if d["face_up"] else face_text(None)
        if d["count"] == 0:
            top = Text("— exhausted —", style="red")
        known = []
        if len(d["known_top"]) > (1 if d["face_up"] else 0):
            known.append("top: " + ", ".join(_plain(f) for f in d["known_top"]))
        if d["known_bottom"]:
            known.append("bottom: " + ", ".join(_plain(f) for f in d["known_bottom"]))
        discards = ", ".join(_plain(f) for f in d["discards"][-6:])
        if len(d["discards"]) > 6:
            discards = f"… {len(d['discards']) - 6} more, " + discards
        table.add_row(d["name"].capitalize(), top, str(d["count"]), "; ".join(known), discards)
    return table


def _voyages(view: dict[str, Any]) -> Table:
    vo = view["voyages"]
    table = Table(title="Voyages", header_style="bold")
    if vo["mode"] == "columns":
        table.add_column("left column (top → bottom)")
        table.add_column("right column (top → bottom)")
        cols = vo["columns"]
        rows = max((len(c) for c in cols), default=0)
        for i in range(rows):
            cells = []
            for c in cols:
                if i < len(c):
                    v = c[i]
                    style = "bold green" if v in vo["accessible"] else "dim"
                    cells.append(Text(f"{v} ({vo['galaxy'][v]})", style=style))
                else:
                    cells.append(Text(""))
            table.add_row(*cells)
    else:
        for c in vo["columns"]:
            table.add_column(vo["galaxy"][c[0]].capitalize() if c else "—")
        table.add_row(*[Text(", ".join(c) or "taken", style="green") for c in vo["columns"]])
    return table


def render(view: dict[str, Any], seat: int | None) -> Panel:
    parts: list[Any] = [_deck_table(view["decks"])]
    outpost = ", ".join(_plain(o["card"]) for o in view["outpost"]) or "empty"
    line = Text.assemble(
        ("Outpost: ", "bold"),
        outpost,
        ("   Shooting Stars: ", "bold"),
        str(view["shooting_stars"]),
    )
    parts.append(line)
    parts.append(_voyages(view))
    for i, pile in enumerate(view["victory"]):
        who = "Victory pile" if view["players"] == 1 else f"Player {i + 1} victory pile"
        parts.append(Text.assemble((f"{who}: ", "bold"), ", ".join(pile) or "empty"))
    th = view.get("theories")
    if th is not None:
        top = (
            f"{th['top']} (needs 3 {th['top_type']} in the Observatory)"
            if th["top"]
            else "all proven"
        )
        parts.append(Text.assemble(("Theories: ", "bold"), f"{top}; {th['left']} left"))
    bt = view.get("breakthrough")
    if bt is not None:
        parts.append(Text.assemble(("Breakthrough: ", "bold"), f"{bt['name']} ({bt['type']})"))
    sun = view.get("sun")
    if sun is not None:
        track = []
        for space in range(sun["start"], sun["final"] + 1):
            if space == sun["position"]:
                track.append("☀")
            elif space in sun["meteors_on_board"]:
                track.append("✶")
            elif space == sun["final"]:
                track.append("✖")
            else:
                track.append("·")
        parts.append(
            Text.assemble(
                ("Glaucous Sun: ", "bold"),
                "".join(track),
                f"  space {sun['position']}/{sun['final']}, Meteors held: {sun['meteors_held']}",
            )
        )
    pending = view.get("pending")
    if pending:
        parts.append(Text(_pending_text(pending), style="yellow"))
    phase = view.get("phase", "")
    if view.get("outcome") in ("won", "lost"):
        style = "bold green" if view["outcome"] == "won" else "bold red"
        parts.append(Text(f"The game is {view['outcome']}. {view.get('reason', '')}", style=style))
    elif phase in PHASE_HELP:
        parts.append(Text(PHASE_HELP[phase], style="italic"))
    title = f"Stellarion — turn {view['turns']}"
    if view["players"] == 2 and seat is not None:
        title += f" — Player {seat + 1}"
    return Panel(Group(*parts), title=title)


def _allows(p: dict[str, Any]) -> str:
    """What the power still allows: searches or looks left, or the cards its one use
    moves (Nebula, Planet: 1, or up to 2 for the major; RULINGS 37)."""
    n, most = p.get("uses_left"), "up to 2 cards" if p.get("major") else "1 card"
    power = p.get("power")
    if power == "ship" and n is not None:
        return f", {n} search{'' if n == 1 else 'es'} left"
    if power == "stars" and n is not None:
        return f", {n} look{'' if n == 1 else 's'} left"
    if power == "nebula":
        return f", take back {most} from one discard pile"
    if power == "planet":
        return f", move {most} to the Outpost"
    return ""


def _pending_text(p: dict[str, Any]) -> str:
    if p.get("kind") == "traverse":
        return f"Traverse: {p.get('takes_left')} Voyage card(s) still to take."
    if p.get("kind") == "coordinate":
        size = "major" if p.get("major") else "minor"
        text = f"{size.capitalize()} {str(p.get('power', '')).capitalize()} power"
        text += _allows(p)
        if p.get("cards"):
            text += ": seen " + ", ".join(_plain(str(c)) for c in p["cards"])
        return text + "."
    return str(p)
