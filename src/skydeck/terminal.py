"""Generic terminal play for any game: a board, numbered legal actions, help, undo.

A game's optional ``terminal.py`` supplies ``render(view, seat)`` for a proper board;
without one we show the view as a readable tree. Input is read line by line, so the
same loop serves people and scripted tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table

from skydeck.core import Action, Game, IllegalAction, filter_events, player_name, player_names
from skydeck.core.record import Match
from skydeck.registry import game_module

HELP = """Type the number of an action to play it.
  help        this text
  undo        take back your last action (not past a reveal or a random draw)
  log         the events so far
  save FILE   write the match record (JSON) to FILE
  quit        leave the game
You may also type an action's notation directly (e.g. as shown in brackets)."""


def game_terminal(game: str | Game) -> ModuleType | None:
    """The game's own terminal module (``render``, ``label`` ...), or None."""
    return game_module(game, "terminal")


def render_view(game: Game, view: dict[str, Any], seat: int | None) -> Any:
    module = game_terminal(game)
    if module is not None and hasattr(module, "render"):
        return module.render(view, seat)
    who = "spectator" if seat is None else player_name(seat)
    return Panel(Pretty(view), title=f"{game.title} — {who}")


def action_label(game: Game, action: Action, view: dict[str, Any]) -> str:
    """The menu's line: the game's one description of the move (``Game.describe``),
    given the seat's view so that it names what the seat sees (the real cards)."""
    return game.describe(action, view)


def action_table(game: Game, actions: list[Action], view: dict[str, Any]) -> Table:
    """The legal actions, numbered. A game whose terminal offers ``shown_actions(view,
    actions)`` (indices) shows only that shortlist; every number stays playable."""
    module = game_terminal(game)
    shown: list[int] = list(range(len(actions)))
    if module is not None and hasattr(module, "shown_actions"):
        picked = module.shown_actions(view, actions)
        if picked:
            shown = [i for i in picked if 0 <= i < len(actions)]
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("#", justify="right", style="cyan")
    table.add_column("action")
    table.add_column("notation", style="dim")
    for i in shown:
        table.add_row(str(i + 1), action_label(game, actions[i], view), str(actions[i]))
    hidden = len(actions) - len(shown)
    if hidden > 0:
        table.add_row(
            "…", f"{hidden} more legal actions: any number 1-{len(actions)} or a typed action", ""
        )
    return table


AgentFn = Callable[[dict[str, Any], list[Action], int], Action]


def play(
    game: Game,
    seed: int,
    lines: Iterator[str],
    console: Console,
    ai: dict[int, AgentFn] | None = None,
) -> Match:
    """Run a match until it ends or the input says quit; return the match."""
    ai = ai or {}
    match = Match(game, seed)
    console.print(f"[bold]{game.title}[/bold] — seed {seed}. Type [cyan]help[/cyan] for commands.")
    shown = 0
    while not match.state.is_over:
        state = match.state
        seat = state.to_move[0]
        new_events = [e for batch in match.events[shown:] for e in batch]
        for ev in filter_events(new_events, seat):
            console.print(f"  [dim]• {event_text(match, ev)}[/dim]")
        shown = len(match.events)
        actions = state.legal_actions(seat)
        if seat in ai:
            action = ai[seat](state.view(seat), actions, seat)
            console.print(f"[magenta]{player_name(seat)} (AI)[/magenta]: {game.describe(action)}")
            match.play(seat, action)
            continue
        view = state.view(seat)
        console.print(render_view(game, view, seat))
        console.print(f"[bold]{player_name(seat)} to play[/bold]")
        console.print(action_table(game, actions, view))
        while True:
            try:
                line = next(lines).strip()
            except StopIteration:
                console.print("[yellow]Input ended; leaving the game.[/yellow]")
                return match
            if not line:
                continue
            cmd, _, arg = line.partition(" ")
            if cmd in ("quit", "exit", "q"):
                console.print("Leaving the game.")
                return match
            if cmd in ("help", "?", "h"):
                console.print(HELP)
                continue
            if cmd == "log":
                for batch in match.events:
                    for ev in filter_events(batch, seat):
                        console.print(f"  • {event_text(match, ev)}")
                continue
            if cmd == "save":
                if not arg:
                    console.print("[red]save needs a file name[/red]")
                    continue
                match.record.save(arg.strip())
                console.print(f"Saved the match record to {arg.strip()}")
                continue
            if cmd == "undo":
                try:
                    entry = match.undo()
                except IllegalAction as exc:
                    console.print(f"[red]{exc}[/red]")
                    continue
                shown = len(match.events)
                console.print(f"Took back: {game.describe(entry.action)}")
                break
            try:
                if line.isdigit():
                    n = int(line)
                    if not 1 <= n <= len(actions):
                        console.print(f"[red]Choose a number from 1 to {len(actions)}.[/red]")
                        continue
                    action = actions[n - 1]
                else:
                    action = game.parse_action(line)
                match.play(seat, action)
            except IllegalAction as exc:
                console.print(f"[red]{exc}[/red] (type help for commands)")
                continue
            break
    _end_screen(match, console)
    return match


def event_text(match: Match, ev: dict[str, Any]) -> str:
    """One event in the game's own sentence (``Game.describe_event``: the words of the
    web log and ``skydeck replay``), seats named Player 1..N."""
    names = [player_name(s) for s in range(match.game.players)]
    return match.game.describe_event(ev, names, match.state)


def _end_screen(match: Match, console: Console) -> None:
    state = match.state
    new_events = [e for batch in match.events for e in batch][-5:]
    for ev in filter_events(new_events, None):
        console.print(f"  [dim]• {event_text(match, ev)}[/dim]")
    console.print(render_view(match.game, state.view(None), None))
    table = Table(title="Game over", header_style="bold")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("result")
    for seat, score in enumerate(state.scores):
        table.add_row(player_name(seat), f"{score:g}", "WIN" if seat in state.winners else "loss")
    console.print(table)
    if state.winners:
        console.print(f"[bold green]Won by {player_names(state.winners)}[/bold green]")
    elif len(state.scores) == 1:  # a solo game has a loser, not "nobody"
        console.print(f"[bold red]{player_name(0)} lost.[/bold red]")
    else:
        console.print("[bold red]Nobody won this time.[/bold red]")
    console.print(f"{len(match.record.entries)} actions played.")
