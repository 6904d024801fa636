"""A rematch over HTTP: ``POST /api/matches/ID/rematch`` by one of a finished match's
signed-in players makes it (or, asked again by anyone of them, answers with it)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from skydeck.server.guard import Refused
from skydeck.server.messages import ProtocolError
from skydeck.server.rematch import rotated
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep, signed_in
from skydeck.server.routes.matches import get_room

router = APIRouter()


def _answer(new_id: str, status: int) -> JSONResponse:
    return JSONResponse({"match_id": new_id, "link": f"/m/{new_id}"}, status_code=status)


@router.post("/api/matches/{match_id}/rematch")
async def rematch(match_id: str, request: Request, hub: HubDep, people: PeopleDep,
                  settings: SettingsDep) -> JSONResponse:
    session = await signed_in(request, people, settings, change=True)
    room = get_room(hub, match_id)
    if room.status == "live":
        raise HTTPException(409, "the match is still being played: a rematch comes after its end")
    held = await run_in_threadpool(people.holders.of_match, room.id)
    if session.account.id not in held.values():
        raise HTTPException(403, "only the match's signed-in players may ask for its rematch")
    humans = [i for i, s in enumerate(room.seats) if s.get("kind") == "human"]
    if any(i not in held for i in humans):
        raise HTTPException(
            409, "a rematch needs every person of the match signed in (a guest's seat is "
            "only its link): start a new match in the lobby instead"
        )
    state, made = await run_in_threadpool(people.rematches.claim, room.id)
    if state == "made" and made:
        return _answer(made, 200)
    if state == "making":
        raise HTTPException(409, "the rematch is being made right now: ask again in a moment")
    names: dict[int, str] = {}
    for account_id in set(held.values()):
        account = await run_in_threadpool(people.accounts.by_id, account_id)
        if account is not None:
            names[account_id] = account.name
    seats, new_held = rotated(room.seats, held, names)
    spec: dict[str, Any] = {"game": room.game.id, "options": dict(room.game.options),
                            "seats": seats}
    for key in ("rated", "move_seconds", "private"):
        if room.settings.get(key) is not None:
            spec[key] = room.settings[key]
    try:
        new, _tokens = await hub.create_async(spec, None)
        await run_in_threadpool(people.holders.hold_many, new.id, new.game.id,
                                dict(new.game.options), bool(spec.get("rated")), new_held)
    except (ValueError, Refused, ProtocolError) as exc:
        await run_in_threadpool(people.rematches.failed, room.id)
        raise HTTPException(409, f"the rematch could not be made: {exc}") from None
    await run_in_threadpool(people.rematches.made, room.id, new.id)
    return _answer(new.id, 201)
