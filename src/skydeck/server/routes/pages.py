"""The web pages: the lobby, a match, a replay, and their static ES modules (the
shared ones from ``web/static``, each game's own from its ``web`` folder)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from skydeck.core.game import Game

WEB = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter(include_in_schema=False)


@router.get("/")
def lobby_page() -> FileResponse:
    return FileResponse(WEB / "lobby.html")


@router.get("/m/{match_id}")
def match_page(match_id: str) -> FileResponse:
    return FileResponse(WEB / "match.html")


@router.get("/r/{match_id}")
def replay_page(match_id: str) -> FileResponse:
    return FileResponse(WEB / "replay.html")


@router.get("/p/{name}")
def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB / "profile.html")


def game_web(cls: type[Game]) -> Path | None:
    """The game's own web folder (``games/<id>/web``: its drawing, ``drawing.js``),
    beside its Game class; None when it has none (the page's generic drawing)."""
    folder = Path(sys.modules[cls.__module__].__file__ or "").parent / "web"
    return folder if folder.is_dir() else None


def drawing_url(cls: type[Game]) -> str | None:
    """Where the page loads the game's drawing from (``GET /api/games`` says it)."""
    folder = game_web(cls)
    if folder is None or not (folder / "drawing.js").exists():
        return None
    return f"/static/games/{cls.id}/drawing.js"


def mount_static(
    app: FastAPI, game_ids: Iterable[str], game_class: Callable[[str], type[Game]]
) -> None:
    for gid in game_ids:  # before /static, which would answer these paths first
        folder = game_web(game_class(gid))
        if folder is not None:
            app.mount(f"/static/games/{gid}", StaticFiles(directory=folder), name=f"game-{gid}")
    app.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")
