"""The web pages: the lobby, a match, a replay, and their static ES modules."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

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


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")
