"""Accounts and sessions over HTTP: sign up, sign in and out (here or everywhere), the
signed-in person (``/api/me``), a new password, deleting the account, and the seats a
browser's saved links claim. PROTOCOL.md "Accounts" has the rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from skydeck.server.guard import Limiter, Refused, client_address
from skydeck.server.people import People, SignInError
from skydeck.server.routes.deps import (
    HubDep,
    PeopleDep,
    SettingsDep,
    json_body,
    session_cookie,
    signed_in,
)
from skydeck.server.sessions import COOKIE, Session, csrf_token
from skydeck.server.settings import Settings

router = APIRouter()


def _secure(request: Request, settings: Settings) -> bool:
    if settings.secure_cookies == "auto":
        return request.url.scheme == "https"
    return settings.secure_cookies == "always"


def _signed_in_answer(
    request: Request, settings: Settings, session: Session, status: int, **extra: Any
) -> JSONResponse:
    """The answer that signs a browser in: the cookie, and the page's CSRF token (never
    the session token itself in the body)."""
    body = {**session.account.public(), "csrf": csrf_token(session.token), **extra}
    response = JSONResponse(body, status_code=status)
    response.set_cookie(
        COOKIE,
        session.token,
        max_age=int(settings.session_days * 86400),
        httponly=True,
        samesite="lax",
        secure=_secure(request, settings),
        path="/",
    )
    return response


def _signed_out(status: int = 204, body: Any = None) -> Response:
    response: Response = (
        Response(status_code=status) if body is None else JSONResponse(body, status_code=status)
    )
    response.delete_cookie(COOKIE, path="/")
    return response


def _claims(people: People, session: Session, body: dict[str, Any]) -> list[dict[str, Any]]:
    if "claim" not in body:
        return []
    try:
        return people.holders.claim_tokens(
            session.account.id, body["claim"], session.account.name
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None


@router.post("/api/accounts")
async def sign_up(request: Request, people: PeopleDep, settings: SettingsDep) -> Response:
    body = await json_body(request, settings)
    limiter: Limiter = request.app.state.limiter
    try:
        limiter.hit("signin", client_address(request.scope))
    except Refused as exc:
        raise HTTPException(429, exc.message, headers=exc.headers()) from None

    def work() -> tuple[Session, list[dict[str, Any]]]:
        session = people.sign_up(body.get("name"), body.get("password"), session_cookie(request))
        return session, _claims(people, session, body)

    try:
        session, claimed = await run_in_threadpool(work)
    except ValueError as exc:
        status = 409 if "is taken" in str(exc) else 400
        raise HTTPException(status, str(exc)) from None
    people.rename_claimed(request.app.state.hub, claimed, session.account.name)
    return _signed_in_answer(request, settings, session, 201, claimed=claimed)


@router.post("/api/session")
async def sign_in(request: Request, people: PeopleDep, settings: SettingsDep) -> Response:
    body = await json_body(request, settings)
    address = client_address(request.scope)
    limiter: Limiter = request.app.state.limiter

    def work() -> tuple[Session, list[dict[str, Any]]]:
        limiter.hit("signin", address)
        session = people.sign_in(
            body.get("name"), body.get("password"), address, session_cookie(request)
        )
        return session, _claims(people, session, body)

    try:
        session, claimed = await run_in_threadpool(work)
    except Refused as exc:
        raise HTTPException(429, exc.message, headers=exc.headers()) from None
    except SignInError as exc:
        raise HTTPException(401, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    people.rename_claimed(request.app.state.hub, claimed, session.account.name)
    return _signed_in_answer(request, settings, session, 200, claimed=claimed)


@router.delete("/api/session")
async def sign_out(request: Request, people: PeopleDep, settings: SettingsDep) -> Response:
    session = await signed_in(request, people, settings, change=True)
    await run_in_threadpool(people.sessions.end, session.token)
    return _signed_out()


@router.delete("/api/me/sessions")
async def sign_out_everywhere(
    request: Request, people: PeopleDep, settings: SettingsDep
) -> Response:
    session = await signed_in(request, people, settings, change=True)
    ended = await run_in_threadpool(people.sessions.end_all, session.account.id)
    return _signed_out(200, {"ended": ended})


@router.get("/api/me")
async def me(request: Request, people: PeopleDep, settings: SettingsDep) -> dict[str, Any]:
    session = await signed_in(request, people, settings, change=False)
    return {**session.account.public(), "csrf": csrf_token(session.token)}


@router.post("/api/me/password")
async def change_password(request: Request, people: PeopleDep, settings: SettingsDep) -> Response:
    session = await signed_in(request, people, settings, change=True)
    body = await json_body(request, settings)
    try:
        fresh = await run_in_threadpool(
            people.change_password, session, body.get("password"), body.get("new_password")
        )
    except SignInError as exc:
        raise HTTPException(403, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return _signed_in_answer(request, settings, fresh, 200)


@router.delete("/api/me")
async def delete_account(
    request: Request, people: PeopleDep, settings: SettingsDep, hub: HubDep
) -> Response:
    session = await signed_in(request, people, settings, change=True)
    body = await json_body(request, settings)
    try:
        renamed = await run_in_threadpool(people.delete, session, body.get("password"))
    except SignInError as exc:
        raise HTTPException(403, str(exc)) from None
    people.rename_deleted(hub, renamed)
    return _signed_out()


@router.post("/api/me/seats")
async def claim_seats(request: Request, people: PeopleDep, settings: SettingsDep) -> dict[str, Any]:
    session = await signed_in(request, people, settings, change=True)
    body = await json_body(request, settings)
    claimed = await run_in_threadpool(_claims, people, session, {"claim": body.get("claim")})
    people.rename_claimed(request.app.state.hub, claimed, session.account.name)
    return {"claimed": claimed}
