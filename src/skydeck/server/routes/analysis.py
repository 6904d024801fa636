"""A finished match's after-the-game analysis over HTTP: ask for it, follow its
progress, read it (PROTOCOL.md, "Analysis"). The work itself is ``server.analyses``'s."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from skydeck.server.analyses import Analyses, TooManyAnalyses, public
from skydeck.server.room import Room
from skydeck.server.routes.deps import HubDep, SettingsDep, json_body
from skydeck.server.routes.matches import get_room

router = APIRouter()


def get_analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


AnalysesDep = Annotated[Analyses, Depends(get_analyses)]


def _finished(room: Room) -> None:
    """409 unless the match was played to its end (a live or abandoned match has no
    result to weigh its moves against, and a live one's hidden parts are still secret)."""
    if not room.match.state.is_over:
        why = "is still live" if room.status == "live" else f"ended {room.status} before its end"
        raise HTTPException(
            409, f"match {room.id!r} {why}: a match is analysed once it is played to its end"
        )


def _seat(room: Room, seat: str | None) -> int | None:
    if seat in (None, "", "everyone", "spectator"):
        return None
    try:
        who = int(seat)
    except ValueError:
        raise HTTPException(400, f"seat must be a number or 'everyone', got {seat!r}") from None
    if not 0 <= who < len(room.seats):
        raise HTTPException(400, f"there is no seat {who} (seats 0-{len(room.seats) - 1})")
    return who


@router.post("/api/matches/{match_id}/analysis")
async def start_analysis(
    match_id: str, request: Request, hub: HubDep, analyses: AnalysesDep, settings: SettingsDep
) -> JSONResponse:
    """Start the analysis (202) unless it runs already (202, the same one) or is done
    (200, the stored result)."""
    await json_body(request, settings)  # JSON from this site's pages only
    room = get_room(hub, match_id)
    _finished(room)
    record = room.match.record.to_json()
    try:
        row = await run_in_threadpool(analyses.start, room.id, record)
    except TooManyAnalyses as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": "60"}) from None
    out = public(row, room.id)
    return JSONResponse(out, status_code=200 if out["status"] == "done" else 202)


@router.get("/api/matches/{match_id}/analysis")
async def read_analysis(
    match_id: str, hub: HubDep, analyses: AnalysesDep, seat: str | None = None
) -> dict[str, Any]:
    """The analysis as stored: its status and progress, and its result once done
    (``seat``: that seat's part only). ``status`` is "none" before anyone asked."""
    room = get_room(hub, match_id)
    who = _seat(room, seat)
    row = await run_in_threadpool(analyses.get, room.id)
    return public(row, room.id, who)
