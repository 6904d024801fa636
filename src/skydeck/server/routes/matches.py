"""Matches over HTTP: lobby requests, the newest headers, one match's header, its
replay, its cards and, once over, its record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from skydeck.server.guard import Refused, client_address
from skydeck.server.hub import Hub
from skydeck.server.messages import ProtocolError, loads
from skydeck.server.replay import replay_steps
from skydeck.server.room import Room
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep, session_cookie, signed_in
from skydeck.server.seats import creator_key

router = APIRouter()


def _takes_a_seat(spec: dict[str, Any]) -> bool:
    seats = spec.get("seats")
    return isinstance(seats, list) and any(isinstance(s, dict) and "me" in s for s in seats)


@router.post("/api/matches")
async def create_match(
    request: Request, hub: HubDep, people: PeopleDep, settings: SettingsDep
) -> Response:
    # A page of another site may post text/plain without asking (no CORS preflight):
    # only JSON is taken, so no such form can create a match.
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(
            415, f"send the request as application/json (got {kind or 'no content type'!r})"
        )
    try:
        body = await request.body()  # at most Settings.max_body (``BodyLimit``)
    except ClientDisconnect:
        # The client left before its request arrived whole: nothing was created and
        # nobody is there to read an answer (nginx logs this as 499).
        return Response(status_code=499)
    try:
        spec = loads(body)
    except ValueError as exc:
        raise HTTPException(400, f"request is not valid JSON: {exc}") from None
    held: dict[int, int] = {}
    rated = False
    if isinstance(spec, dict) and (spec.get("rated") or _takes_a_seat(spec)):
        # Made by someone signed in: the cookie must come with its CSRF token.
        session = await signed_in(request, people, settings, change=True)
        try:
            spec, held, rated = await run_in_threadpool(people.prepare_match, spec, session.account)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
    try:
        room, tokens = await hub.create_async(
            spec, creator_key(client_address(request.scope))
        )
    except Refused as exc:
        raise HTTPException(429, exc.message, headers=exc.headers()) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    except ProtocolError as exc:  # the database refused or could not be reached
        raise HTTPException(503, exc.message) from None
    if held:
        await run_in_threadpool(people.hold_created, room, held, rated)
    links = {
        str(i): f"/m/{room.id}#t={token}" for i, token in enumerate(tokens) if token is not None
    }
    humans = [t for t in tokens if t is not None]
    out = {
        **room.header(),
        "tokens": tokens,
        "links": links,
        "hotseat_link": f"/m/{room.id}#t={','.join(humans)}" if humans else None,
        "watch_link": f"/m/{room.id}?watch=1",
    }
    return JSONResponse(out, status_code=201)

#: Newest matches the lobby lists; private ones (``"private": true``) are read past.
LISTED, READ_FOR_LISTED = 50, 200


@router.get("/api/matches")
def recent_matches(hub: HubDep) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in hub.storage.recent(READ_FOR_LISTED):
        if m.settings.get("private") or len(out) >= LISTED:
            continue
        out.append(
            {
                "id": m.id,
                "game": m.game,
                "status": m.status,
                "created": m.created,
                "seats": [
                    {"kind": s["kind"], "name": s["name"], "agent": s.get("agent")}
                    for s in m.seats
                ],
            }
        )
    return out


def get_room(hub: Hub, match_id: str) -> Room:
    """The room of a match, its moves committed; 404/409 otherwise. The endpoints that
    read a room are coroutines: a room is only ever touched on the event loop
    (``settle`` may wait there for the commit in flight)."""
    if len(match_id) > 40:
        raise HTTPException(404, "no such match")
    try:
        room = hub.room(match_id)
    except ValueError as exc:  # its game is no longer installed, or it does not replay
        raise HTTPException(409, f"match {match_id!r} cannot be loaded: {exc}") from None
    if room is None:
        raise HTTPException(404, f"no match {match_id!r}")
    hub.settle(room)  # what is read here must be committed already
    return room

@router.get("/api/matches/{match_id}")
async def match_info(match_id: str, response: Response, hub: HubDep) -> dict[str, Any]:
    room = get_room(hub, match_id)
    if hub.worker is not None:
        response.headers["X-Skydeck-Worker"] = hub.worker  # where the match lives now
    out = room.header()
    out["to_move"] = list(room.match.state.to_move) if room.status == "live" else []
    if room.match.state.is_over:
        out["scores"] = list(room.match.state.scores)
        out["winners"] = list(room.match.state.winners)
    return out

@router.get("/api/matches/{match_id}/replay")
async def replay(
    match_id: str,
    request: Request,
    hub: HubDep,
    people: PeopleDep,
    seat: str = "spectator",
    token: str = "",
) -> dict[str, Any]:
    room = get_room(hub, match_id)
    if seat == "everyone":
        if room.status == "live":
            raise HTTPException(403, "every seat's view is shown once the match is over")
        return replay_steps(room, None, everyone=True)
    if seat == "spectator":
        who: int | None = None
    else:
        try:
            who = int(seat)
        except ValueError:
            msg = f"seat must be a number, 'spectator' or 'everyone', got {seat!r}"
            raise HTTPException(400, msg) from None
        if not 0 <= who < len(room.seats):
            raise HTTPException(400, f"there is no seat {who}")
        if room.status == "live":
            try:
                mine = hub.claim(room, [token] if token else [])
            except ProtocolError as exc:
                raise HTTPException(403, exc.message) from None
            cookie = session_cookie(request)
            if who not in mine and cookie:  # signed in: the seats the account holds
                session = await run_in_threadpool(people.sessions.find, cookie)
                if session is not None:
                    held = await run_in_threadpool(people.holders.of_match, room.id)
                    mine = mine | {s for s, a in held.items() if a == session.account.id}
            if who not in mine:
                raise HTTPException(
                    403, "a live match is replayed only from your own seat (give its token)"
                )
    return replay_steps(room, who)

@router.get("/api/matches/{match_id}/cards")
async def cards(match_id: str, hub: HubDep) -> dict[str, Any]:
    """Every card face of the match's set-up in words (the same for every seat)."""
    return get_room(hub, match_id).game.card_texts()

@router.get("/api/matches/{match_id}/record")
async def record(match_id: str, hub: HubDep) -> dict[str, Any]:
    room = get_room(hub, match_id)
    if room.status == "live":
        raise HTTPException(403, "the full record is published once the match is over")
    return room.match.record.to_json()
