"""Stellar Expedition in the terminal: the hex map with ships and Embassies, each
Dashboard, your hand and Expeditions, the Upgrade store and the pending decision."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from skydeck.games.expedition.board import grid
from skydeck.games.expedition.content import Content
from skydeck.games.expedition.modules_content import MODULES, content_for

COLOURS = {"unec": "blue", "tognath": "yellow", "maheri": "red", "edda": "green"}
ANOMALY_MARK = {"wormhole": "@", "mining": "m", "ghost": "g", "asteroid": "#", "hazard": "!"}


def default_content() -> Content:
    """Every component of the base game and all modules (base ids are the same in all)."""
    return content_for(frozenset(MODULES), True, True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--factions", default="", help="comma-separated faction per seat: unec,tognath,maheri,edda"
    )
    parser.add_argument(
        "--modules", default="", help="comma-separated optional modules: " + ",".join(MODULES)
    )
    parser.add_argument("--solo-rank", default="", help="solo game: commander, captain, admiral")


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    text = (getattr(args, "factions", "") or "").strip()
    if text:
        out["factions"] = [f.strip() for f in text.split(",") if f.strip()]
    mods = (getattr(args, "modules", "") or "").strip()
    if mods:
        out["modules"] = [m.strip() for m in mods.split(",") if m.strip()]
    rank = (getattr(args, "solo_rank", "") or "").strip()
    if rank:
        out["solo_rank"] = rank
    return out


def _colour(view: dict[str, Any], who: int) -> str:
    """A seat's colour, or the drone's (index = number of seats)."""
    if who < len(view["players"]):
        return COLOURS.get(view["players"][who]["faction"], "")
    drone = (view.get("modules") or {}).get("drone")
    return COLOURS.get(drone["faction"], "") if drone else ""


def _tile_short(tile: str) -> tuple[str, str]:
    c = default_content()
    if tile == "space_gate":
        return "GT", "bold white"
    if tile in c.location_index:
        loc = c.locations[c.location_index[tile]]
        lvl = "S" if loc.level == 0 else ["I", "II", "III", "IV", "V", "VI"][loc.level - 1]
        return f"{loc.type[:2]}{lvl}", ""
    kind = next(a.kind for a in c.anomalies if a.id == tile)
    return ANOMALY_MARK[kind] * 2, "magenta"


def render_map(view: dict[str, Any]) -> Text:
    """Offset rows of the axial grid, 8 characters a cell: the cell number (what
    ``move``/``place`` take), the tile's type and level or Anomaly mark (in the owner's
    colour once it has Embassies), and the digit of a seat whose ship is there."""
    radius = view["map"]["radius"]
    g = grid(radius)
    by_cell = {t["cell"]: t for t in view["map"]["tiles"]}
    ships: dict[int, list[int]] = {}
    for p in view["players"]:
        ships.setdefault(p["ship"], []).append(p["seat"])
    drone = (view.get("modules") or {}).get("drone")
    if drone:
        ships.setdefault(drone["ship"], []).append(len(view["players"]))
    out = Text()
    for r in range(-radius, radius + 1):
        out.append("    " * abs(r))
        for q in range(-radius, radius + 1):
            if (q, r) not in g.index:
                continue
            cell = g.index[(q, r)]
            t = by_cell.get(cell)
            if t is None:
                out.append(f"{cell:>2} .    ", style="dim")
                continue
            name, style = _tile_short(t["tile"])
            owner = view["map"]["owners"].get(t["tile"])
            if owner is not None:  # Embassies: the owner's colour, underlined
                style = "underline " + _colour(view, owner)
            seats = ships.get(cell, [])
            out.append(f"{cell:>2}", style="dim")
            out.append(f"{name:<4}", style=style)
            colour = _colour(view, seats[0]) if seats else ""
            marks = "".join("D" if s >= len(view["players"]) else str(s + 1) for s in seats)
            out.append((marks or " ")[:1], style="bold " + colour)
            out.append(" ")
        out.append("\n")
    return out


def _player_table(view: dict[str, Any], seat: int | None) -> Table:
    table = Table(title="Dashboards", header_style="bold", expand=False)
    for col in (
        "seat",
        "RM/Cr/Inf",
        "ship",
        "Embassies",
        "hand",
        "Transit/Sick/Solo",
        "slots",
        "Expeditions",
        "pts",
    ):
        table.add_column(col)
    for p in view["players"]:
        style = COLOURS.get(p["faction"], "")
        emb = ", ".join(f"{k}:{v}" for k, v in p["embassies"].items())
        hand = ", ".join(p["hand"]) if "hand" in p else f"{p['hand_count']} cards"
        slots = ", ".join(u or "-" for u in p["slots"]) + (
            f" [{p['damage']} dmg]" if p["damage"] else ""
        )
        exps = ", ".join(p["expeditions"])
        if p.get("secret"):
            exps += " | secret: " + ", ".join(p["secret"])
        elif p["secret_tiers"]:
            exps += " | secret " + "/".join(p["secret_tiers"])
        table.add_row(
            Text(f"{p['seat'] + 1} {p['faction']}", style=style),
            f"{p['rm']}/{p['crystal']}/{p['influence']}",
            str(p["ship"]),
            f"{emb} ({p['embassies_left']} left)",
            hand,
            f"{len(p['transit'])}/{len(p['sickbay'])}/{len(p['solo'])}",
            slots or "-",
            exps,
            str(p["points"]),
        )
    return table


def render(view: dict[str, Any], seat: int | None) -> Any:
    head = Text(
        f"Round {view['round']}/{view['rounds']}  phase: {view['phase']}  first player: "
        f"{view['first'] + 1}  to move: {', '.join(str(s + 1) for s in view['to_move'])}",
        style="bold",
    )
    store = Text("Upgrade store: " + ", ".join(u or "-" for u in view["store"]))
    decks = view["decks"]
    deck_line = Text(
        f"tiles {decks['locations']}  encounters {decks['encounters']}  upgrades "
        f"{decks['upgrades']}  expeditions {decks['expeditions']}  damage {decks['damage']}",
        style="dim",
    )
    parts: list[Any] = [
        head,
        Panel(render_map(view), title="Map"),
        _player_table(view, seat),
        store,
        deck_line,
    ]
    if view.get("modules"):
        parts.append(Text(_modules_text(view["modules"])))
    if view.get("pending"):
        parts.append(Text(describe_pending(view["pending"]), style="cyan"))
    if view.get("draft") and "pack" in view["draft"]:
        parts.append(Text("Draft pack: " + ", ".join(view["draft"]["pack"])))
    return Group(*parts)


def _modules_text(m: dict[str, Any]) -> str:
    bits = [f"modules: {', '.join(m['active']) or '-'}"]
    if m["objectives"]:
        bits.append("objectives: " + ", ".join(m["objectives"]))
    if m["events"]:
        bits.append("galactic events: " + ", ".join(m["events"]))
    d = m.get("drone")
    if d:
        nxt = [x["next"]["op"] if x["next"] else "-" for x in d["decks"]]
        bits.append(
            f"drone ({d['rank']}): ship {d['ship']}, {d['points']} pts, "
            f"{d['embassies_left']} cubes left, next actions {'/'.join(nxt)}"
        )
    return "  |  ".join(bits)


def _effects_text(effects: list[Any]) -> str:
    out = []
    for e in effects:
        d = e if isinstance(e, dict) else e.model_dump()
        args = ", ".join(f"{k} {v}" for k, v in d.items() if k != "op" and v not in (0, None))
        out.append(d["op"] + (f" ({args})" if args else ""))
    return "; ".join(out)


def _req_text(r: Any) -> str:
    bits = list(r.skills)
    bits += [f"level {lv}" for lv in r.levels]
    if r.level_sum:
        bits.append(f"levels sum {r.level_sum}")
    if r.location:
        bits.append(f"at a {r.location} Location")
    if r.embassies:
        bits.append(f"{r.embassies} Embassies on a {r.embassy_type} Location")
    return ", ".join(bits) or "nothing"


def describe_pending(p: dict[str, Any]) -> str:
    """The decision being waited for, in words (what a card needs and does)."""
    c = default_content()
    who = f"Player {p['seat'] + 1}"
    k = p["kind"]
    if k == "enc":
        e = c.encounters[c.encounter_index[p["encounter"]]]
        if e.chance:
            need = f"roll {e.chance.target}+ (-{e.chance.per_helper} per {e.chance.helper})"
        else:
            need = _req_text(e.requires)
        played = ", ".join(p["played"] + p["upgrades"]) or "nothing yet"
        return (
            f"{who}: Encounter {e.name} - needs {need}; on failure: {_effects_text(e.fail)}; "
            f"bonus: {_effects_text(e.bonus)}; played: {played}"
        )
    if k == "exp":
        x = c.expeditions[c.expedition_index[p["expedition"]]]
        played = ", ".join(p["played"] + p["upgrades"]) or "nothing yet"
        need = _req_text(x.requires)
        return f"{who}: Expedition {x.name} ({x.points} pt) - needs {need}; played: {played}"
    if k == "sensor":
        return f"{who}: Sensor dice {p['dice'][0]} + {p['dice'][1]}"
    if k == "react":
        return f"{who}: about to suffer {p['harm']} - react with a Solo mission or an Upgrade?"
    if k == "place":
        return f"{who}: place {', '.join(p['tiles'])}"
    if k == "choose":
        opts = " | ".join(_effects_text(list(o)) for o in p["options"])
        return f"{who}: choose one of {opts}"
    if k == "window":
        if p["during"] == "sensor":
            return f"{who}: use the special action now, or keep it for later this round?"
        return (
            f"{who}: Player {p['of'] + 1}'s Command phase begins - use an Upgrade ability "
            "or a special action now?"
        )
    return f"{who}: {k.replace('_', ' ')}"
