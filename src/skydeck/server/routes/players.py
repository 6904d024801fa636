"""Players over HTTP: a profile, a player's matches, the signed-in person's matches,
and the leaderboard of a game. Anybody may read them (a profile shows no secret)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from skydeck.server import players
from skydeck.server.accounts import Account
from skydeck.server.people import People
from skydeck.server.ratings import cooperative
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep, signed_in

router = APIRouter()


async def _player(people: People, name: str) -> Account:
    account = await run_in_threadpool(players.by_name, people.engine, name)
    if account is None:
        raise HTTPException(404, f"no player named {name!r}")
    return account


@router.get("/api/players/{name}")
async def profile(name: str, people: PeopleDep) -> dict[str, Any]:
    account = await _player(people, name)
    return await run_in_threadpool(players.profile, people.engine, account)


async def _matches(people: People, account: Account, game: str | None, result: str | None,
                   status: str | None, page: int, per_page: int) -> dict[str, Any]:
    try:
        return await run_in_threadpool(
            players.player_matches, people.engine, account, game, result, status, page, per_page
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None


@router.get("/api/players/{name}/matches")
async def player_matches(name: str, people: PeopleDep, game: str | None = None,
                         result: str | None = None, status: str | None = None, page: int = 1,
                         per_page: int = 20) -> dict[str, Any]:
    account = await _player(people, name)
    return await _matches(people, account, game, result, status, page, per_page)


@router.get("/api/me/matches")
async def my_matches(request: Request, people: PeopleDep, settings: SettingsDep,
                     game: str | None = None, result: str | None = None,
                     status: str | None = None, page: int = 1,
                     per_page: int = 20) -> dict[str, Any]:
    """The signed-in person's matches: each opens from any browser (the session stands
    in for the seat's token)."""
    session = await signed_in(request, people, settings, change=False)
    return await _matches(people, session.account, game, result, status, page, per_page)


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, people: PeopleDep, hub: HubDep, limit: int = 50,
                      provisional: bool = False) -> dict[str, Any]:
    if game not in hub.list_games():
        raise HTTPException(404, f"unknown game {game!r}; known games: {hub.list_games()}")
    if cooperative(game):
        raise HTTPException(404, f"{game} is co-operative: it has no ratings (see a profile)")
    try:
        rows = await run_in_threadpool(players.leaderboard, people.engine, game, limit,
                                       provisional)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"game": game, "players": rows}
