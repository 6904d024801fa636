"""The web pages: the lobby, a match, a replay, and their static ES modules (the
shared ones from ``web/static``, each game's own from its ``web`` folder)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from skydeck.core.game import Game
from skydeck.registry import game_folder

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


#: The page's parts a game may bring in its ``web`` folder, each an ES module: its
#: drawing (``drawing.js``), rules in short (``rules.js``), "How to play" steps
#: (``howto.js``) and seat panels (``panel.js``). A part it lacks is the page's generic one.
WEB_PARTS = ("drawing", "rules", "howto", "panel")


def game_web(cls: type[Game]) -> Path | None:
    """The game's own web folder (``web/`` in its package); None when it has none."""
    folder = game_folder(cls) / "web"
    return folder if folder.is_dir() else None


def web_parts(cls: type[Game]) -> dict[str, str]:
    """Where the page loads each part the game brings from (``GET /api/games`` says it,
    as ``web``): ``{"drawing": "/static/games/<id>/drawing.js", ...}``."""
    folder = game_web(cls)
    if folder is None:
        return {}
    return {
        part: f"/static/games/{cls.id}/{part}.js"
        for part in WEB_PARTS
        if (folder / f"{part}.js").exists()
    }


def mount_static(
    app: FastAPI, game_ids: Iterable[str], game_class: Callable[[str], type[Game]]
) -> None:
    for gid in game_ids:  # before /static, which would answer these paths first
        folder = game_web(game_class(gid))
        if folder is not None:
            app.mount(f"/static/games/{gid}", StaticFiles(directory=folder), name=f"game-{gid}")
    app.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")
