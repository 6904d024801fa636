""""Play now" over HTTP: take a place in a queue (``POST /api/queue``), see it and
whether a match was made (``GET /api/queue``, the page's poll, which also pairs),
give it up (``DELETE``), or take the bot offered after a wait (``POST
/api/queue/bot``). Signed-in people only: the queue pairs by rating."""

from __future__ import annotations

import random
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from skydeck.server.accounts import bot_name
from skydeck.server.ai import available_specs
from skydeck.server.hub import Hub
from skydeck.server.matchmaking import Place
from skydeck.server.messages import ProtocolError
from skydeck.server.people import People
from skydeck.server.ratings import cooperative
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep, json_body, signed_in
from skydeck.server.sessions import Session
from skydeck.server.settings import Settings

router = APIRouter()

GUEST_REFUSED = (
    "Play now is for people signed in (it pairs people by their rating): sign up or sign "
    "in first, or start a match in the lobby and send its link"
)


async def _person(request: Request, people: People, settings: Settings,
                  change: bool) -> Session:
    try:
        return await signed_in(request, people, settings, change)
    except HTTPException as exc:
        if exc.status_code == 401:
            raise HTTPException(401, GUEST_REFUSED) from None
        raise


def _levels(game: str, settings: Settings) -> list[str]:
    """The AI levels a rated match may seat (as the lobby offers them)."""
    return [a for a in available_specs(game, settings.models) if not a.startswith("policy:")]


def requested_options(hub: Hub, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The queue a request names: (game, every option, players included); 400 naming
    what is wrong."""
    game = body.get("game")
    known = hub.list_games()
    if not isinstance(game, str) or game not in known:
        raise HTTPException(400, f"unknown game {game!r}; known games: {known}")
    cls = hub.game_class(game)
    counts = [n for n in cls.player_counts if n >= 2]
    players = body.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
        raise HTTPException(
            400, f"'players' must be one of {counts} for {game} (Play now pairs two people "
            f"or more), got {players!r}"
        )
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise HTTPException(400, "'options' must be an object (the game's options)")
    try:
        made = cls(**{**options, "players": players})
    except ValueError as exc:
        raise HTTPException(400, f"options: {exc}") from None
    return game, dict(made.options)


async def _start(hub: Hub, people: People, claim: str, game: str, options: dict[str, Any],
                 humans: list[int], bot: str | None) -> str:
    """The match of a claimed group (people in a random seat order, then bots at level
    ``bot``); its id, written on the places. The places wait again if it fails."""
    rated = not cooperative(game)
    order = list(humans)
    random.SystemRandom().shuffle(order)
    held: dict[int, int] = {}
    seats: list[dict[str, Any]] = []
    for account_id in order:
        account = await run_in_threadpool(people.accounts.by_id, account_id)
        held[len(seats)] = account_id
        seats.append({"kind": "human", "name": account.name if account else ""})
    while bot is not None and len(seats) < int(options["players"]):
        held[len(seats)] = (await run_in_threadpool(people.accounts.bot, bot)).id
        seats.append({"kind": "ai", "agent": bot, "name": bot_name(bot)})
    spec = {"game": game, "options": options, "seats": seats, "rated": rated}
    try:
        room, _tokens = await hub.create_async(spec, None)
        await run_in_threadpool(people.holders.hold_many, room.id, game, dict(room.game.options),
                                rated, held)
    except Exception:
        await run_in_threadpool(people.queue.release, claim)
        raise
    await run_in_threadpool(people.queue.matched, claim, room.id)
    return room.id


async def _pair(hub: Hub, people: People, place: Place) -> None:
    """Make every match its queue can make now (whichever worker this is)."""
    groups = await run_in_threadpool(people.queue.groups, place.game, place.players,
                                     place.setup)
    for claim, group in groups:
        await _start(hub, people, claim, place.game, place.options,
                     [p.account_id for p in group], None)


def _status(people: People, place: Place | None, settings: Settings) -> dict[str, Any]:
    if place is None:
        return {"status": "idle"}
    if place.match_id is not None:
        return {"status": "matched", "match_id": place.match_id,
                "link": f"/m/{place.match_id}", "game": place.game}
    waited = max(people.queue.clock() - place.joined, 0.0)
    return {
        "status": "waiting",
        "game": place.game,
        "players": place.players,
        "options": place.options,
        "rated": not cooperative(place.game),
        "rating": place.rating,
        "waited": round(waited, 1),
        "window": people.queue.window(waited),
        "bot_after": settings.queue_bot_after,
        "bot": people.queue.bot_offer(place, _levels(place.game, settings)),
    }


async def _answer(hub: Hub, people: People, settings: Settings, session: Session,
                  touch: bool) -> dict[str, Any]:
    place = await run_in_threadpool(people.queue.place, session.account.id, touch)
    if place is not None and place.match_id is None:
        try:
            await _pair(hub, people, place)
        except ProtocolError as exc:
            raise HTTPException(503, exc.message) from None
        place = await run_in_threadpool(people.queue.place, session.account.id)
    return await run_in_threadpool(_status, people, place, settings)


@router.post("/api/queue", status_code=201)
async def join_queue(request: Request, hub: HubDep, people: PeopleDep,
                     settings: SettingsDep) -> dict[str, Any]:
    session = await _person(request, people, settings, change=True)
    body = await json_body(request, settings)
    game, options = requested_options(hub, body)
    await run_in_threadpool(people.queue.join, session.account.id, game, options,
                            not cooperative(game))
    return await _answer(hub, people, settings, session, touch=False)


@router.get("/api/queue")
async def queue_status(request: Request, hub: HubDep, people: PeopleDep,
                       settings: SettingsDep) -> dict[str, Any]:
    session = await _person(request, people, settings, change=False)
    return await _answer(hub, people, settings, session, touch=True)


@router.delete("/api/queue")
async def leave_queue(request: Request, people: PeopleDep,
                      settings: SettingsDep) -> dict[str, Any]:
    session = await _person(request, people, settings, change=True)
    left = await run_in_threadpool(people.queue.leave, session.account.id)
    return {"left": left}


@router.post("/api/queue/bot", status_code=201)
async def take_the_bot(request: Request, hub: HubDep, people: PeopleDep,
                       settings: SettingsDep) -> dict[str, Any]:
    session = await _person(request, people, settings, change=True)
    me = session.account.id
    place = await run_in_threadpool(people.queue.place, me)
    if place is None:
        raise HTTPException(404, "you are not in a queue (POST /api/queue first)")
    if place.match_id is not None:
        raise HTTPException(409, f"a match was made for you already: /m/{place.match_id}")
    offer = await run_in_threadpool(people.queue.bot_offer, place,
                                    _levels(place.game, settings))
    if offer is None:
        waited = people.queue.clock() - place.joined
        raise HTTPException(
            409, f"a bot is offered after {settings.queue_bot_after:g} s in the queue; you "
            f"have waited {max(waited, 0):.0f} s"
        )
    claim = await run_in_threadpool(people.queue.claim_one, me)
    if claim is None:
        raise HTTPException(409, "you were paired meanwhile: GET /api/queue for the match")
    try:
        await _start(hub, people, claim, place.game, place.options, [me], offer["agent"])
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    except ProtocolError as exc:
        raise HTTPException(503, exc.message) from None
    return await _answer(hub, people, settings, session, touch=False)
