"""Open tables over HTTP: open one (``POST /api/tables``), list the lobby's
(``GET /api/tables``), read one (``GET /api/tables/ID``, private ones too: the ID is the
invitation), take a seat (``POST /api/tables/ID/seats``: the match starts when every
seat is taken) or leave it (``DELETE``; the host leaving closes the table)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from skydeck.server.guard import Refused
from skydeck.server.hub import Hub
from skydeck.server.messages import ProtocolError
from skydeck.server.people import People
from skydeck.server.ratings import cooperative
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep, json_body, signed_in
from skydeck.server.routes.queue import requested_options
from skydeck.server.tables import CLOSED, Table, TableTaken

router = APIRouter()


def _names(people: People, table: Table) -> list[str | None]:
    out: list[str | None] = []
    for account_id in table.seats:
        account = people.accounts.by_id(account_id) if account_id is not None else None
        out.append(account.name if account is not None else None)
    return out


def _json(people: People, table: Table) -> dict[str, Any]:
    names = _names(people, table)
    status = ("closed" if table.match_id == CLOSED else
              "started" if table.match_id else "open")
    host = people.accounts.by_id(table.host)
    return {
        "id": table.id, "game": table.game, "players": len(table.seats),
        "options": table.options, "host": host.name if host else None,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
        "rated": bool(table.settings.get("rated")),
        "move_seconds": table.settings.get("move_seconds"),
        "private": bool(table.settings.get("private")), "status": status,
        "match_id": table.match_id if status == "started" else None,
        "link": f"/m/{table.match_id}" if status == "started" else None,
        "invite": f"/?table={table.id}", "created": table.created,
    }


async def _table(people: People, table_id: str) -> Table:
    table = await run_in_threadpool(people.tables.get, table_id) if len(table_id) <= 40 else None
    if table is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return table


def _settings(body: dict[str, Any], game: str) -> dict[str, Any]:
    rated = body.get("rated", not cooperative(game))
    if not isinstance(rated, bool):
        raise HTTPException(400, "'rated' must be true or false")
    if rated and cooperative(game):
        raise HTTPException(400, f"{game} is co-operative: its matches are not rated")
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise HTTPException(400, "'private' must be true or false (true: only its link finds it)")
    out: dict[str, Any] = {"rated": rated, "private": private}
    if body.get("move_seconds") is not None:
        out["move_seconds"] = body["move_seconds"]
    return out


def _spec(table: Table, names: list[str | None]) -> dict[str, Any]:
    return {"game": table.game, "options": table.options,
            "seats": [{"kind": "human", "name": n or ""} for n in names], **table.settings}


@router.post("/api/tables", status_code=201)
async def open_table(request: Request, hub: HubDep, people: PeopleDep,
                     settings: SettingsDep) -> dict[str, Any]:
    session = await signed_in(request, people, settings, change=True)
    body = await json_body(request, settings)
    game, options = requested_options(hub, body)
    table_settings = _settings(body, game)
    names: list[str | None] = [session.account.name] * int(options["players"])
    try:  # the match this table will start must be one the hub accepts
        hub.validate({"game": game, "options": options, "seats":
                      [{"kind": "human", "name": n} for n in names], **table_settings})
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    try:
        table = await run_in_threadpool(people.tables.open, session.account.id, game, options,
                                        table_settings)
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    return await run_in_threadpool(_json, people, table)


@router.get("/api/tables")
async def list_tables(people: PeopleDep) -> list[dict[str, Any]]:
    tables = await run_in_threadpool(people.tables.listed)
    return [await run_in_threadpool(_json, people, t) for t in tables]


@router.get("/api/tables/{table_id}")
async def one_table(table_id: str, people: PeopleDep) -> dict[str, Any]:
    return await run_in_threadpool(_json, people, await _table(people, table_id))


async def _start(hub: Hub, people: People, table: Table, seat: int) -> Table:
    """The full table's match: created, its seats held, its id written on the table."""
    names = await run_in_threadpool(_names, people, table)
    try:
        room, _tokens = await hub.create_async(_spec(table, names), None)
        await run_in_threadpool(
            people.holders.hold_many, room.id, table.game, dict(room.game.options),
            bool(table.settings.get("rated")),
            {i: a for i, a in enumerate(table.seats) if a is not None},
        )
    except (ValueError, Refused, ProtocolError) as exc:
        await run_in_threadpool(people.tables.reopen, table, seat)
        raise HTTPException(409, f"the match could not start: {exc}") from None
    await run_in_threadpool(people.tables.started, table.id, room.id)
    started = await run_in_threadpool(people.tables.get, table.id)
    assert started is not None
    return started


@router.post("/api/tables/{table_id}/seats")
async def take_seat(table_id: str, request: Request, hub: HubDep, people: PeopleDep,
                    settings: SettingsDep) -> dict[str, Any]:
    session = await signed_in(request, people, settings, change=True)
    body = await json_body(request, settings)
    table = await _table(people, table_id)
    if table.match_id == CLOSED:
        raise HTTPException(409, "the table was closed by its host")
    try:
        after = await run_in_threadpool(people.tables.take, table, session.account.id,
                                        body.get("seat"))
    except TableTaken as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    if after.full:
        after = await _start(hub, people, after, after.seats.index(session.account.id))
    return await run_in_threadpool(_json, people, after)


@router.delete("/api/tables/{table_id}/seats")
async def leave_seat(table_id: str, request: Request, people: PeopleDep,
                     settings: SettingsDep) -> dict[str, Any]:
    session = await signed_in(request, people, settings, change=True)
    table = await _table(people, table_id)
    if table.match_id is not None:
        raise HTTPException(409, "the table's match has started (or the table was closed)")
    try:
        await run_in_threadpool(people.tables.leave, table, session.account.id)
    except TableTaken as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"left": True}
