"""The server's parts as FastAPI dependencies, read from ``app.state`` (set once by
``create_app``): a route names what it needs and nothing reaches for a global."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from skydeck.server.hub import Hub
from skydeck.server.messages import loads
from skydeck.server.people import People
from skydeck.server.routes.websocket import origin_allowed
from skydeck.server.sessions import COOKIE, CSRF_HEADER, Session, csrf_ok
from skydeck.server.settings import Settings


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_people(request: Request) -> People:
    people: People = request.app.state.people
    return people


PeopleDep = Annotated[People, Depends(get_people)]


def session_cookie(request: Request) -> str | None:
    return request.cookies.get(COOKIE) or None


def same_origin(request: Request, settings: Settings) -> None:
    """403 when a browser sent the request from another site's page (its Origin)."""
    if not origin_allowed(
        request.headers.get("origin"), request.headers.get("host"), settings.allowed_origins
    ):
        raise HTTPException(403, "this request came from another site's page: refused")


async def json_body(request: Request, settings: Settings) -> dict[str, Any]:
    """A state change's JSON object: sent as application/json (which no form of another
    site can send without asking) from this site's pages; 400/403/415 naming the fault."""
    same_origin(request, settings)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(
            415, f"send the request as application/json (got {kind or 'no content type'!r})"
        )
    try:
        body = loads(await request.body())
    except ValueError as exc:
        raise HTTPException(400, f"request is not valid JSON: {exc}") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the request must be a JSON object")
    return body


async def signed_in(request: Request, people: People, settings: Settings, change: bool) -> Session:
    """The session of the request's cookie; 401 without one. ``change``: the request
    changes something, so it must carry the session's CSRF token (403 otherwise)."""
    token = session_cookie(request)
    session = await run_in_threadpool(people.sessions.find, token) if token else None
    if session is None:
        raise HTTPException(401, "you are not signed in (or your session has ended)")
    if change:
        same_origin(request, settings)
        if not csrf_ok(session.token, request.headers.get(CSRF_HEADER)):
            raise HTTPException(
                403, "this change needs the X-Skydeck-CSRF header of your session "
                "(GET /api/me gives it): refused"
            )
    return session
