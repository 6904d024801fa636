"""The FastAPI application: lobby API, match WebSockets, replays and the web pages."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect

from skydeck.core import Game, player_name, player_names
from skydeck.core.registry import game_class, game_ids
from skydeck.server.ai import available_specs
from skydeck.server.compression import direct
from skydeck.server.guard import (
    BodyLimit,
    Limiter,
    MessageBucket,
    RateLimit,
    Refused,
    client_address,
)
from skydeck.server.hub import Hub
from skydeck.server.messages import ProtocolError, get_int, loads, parse
from skydeck.server.replay import replay_steps
from skydeck.server.room import Client, Room
from skydeck.server.seats import creator_key
from skydeck.server.settings import Settings
from skydeck.server.storage import Storage

log = logging.getLogger("skydeck.server")

WEB = Path(__file__).resolve().parent.parent / "web"
HELLO_SECONDS = 10.0
#: Close codes of a WebSocket refused for its client's limits (the page says why and
#: tries again later) and for a page of another site.
CLOSE_LIMITED = 4429
CLOSE_ORIGIN = 1008


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Whether a WebSocket handshake may come from a page at ``origin``: the server's
    own (the Origin's host and port are the Host it was sent to; the scheme may differ
    behind a TLS proxy) or one of ``allowed``. No Origin: not a browser (a bot, the
    bench), which still needs a seat's token to play."""
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    return bool(host) and urlsplit(origin).netloc == (host or "").lower()


def create_app(
    db_url: str | None = None,
    *,
    settings: Settings | None = None,
    storage: Storage | None = None,
    games: Callable[[str], type[Game]] = game_class,
    list_games: Callable[[], list[str]] = game_ids,
    clock_scale: float = 1.0,
    tune_gc: bool = False,
    worker: str | None = None,
    front: tuple[str, int] | None = None,
    **overrides: Any,
) -> FastAPI:
    """A Skydeck server. ``db_url``: any SQLAlchemy URL (default: the settings'
    ``database_url``, else a SQLite file under ./skydeck-data). ``settings``: every
    setting (``Settings()``: the environment's and the defaults); ``overrides``: fields
    of it changed here (``ai_delay=0``, ``clock_grace=...``, ``limits=False``).
    ``games``/``list_games`` let tests add games. ``tune_gc``: the process is this
    server's own (``skydeck serve``, the bench), so its garbage collector may be tuned
    for short pauses (see ``quiet_gc``). ``worker``/``front``: this server is one of
    several behind HAProxy at ``front`` (``skydeck serve --workers N``; see Hub)."""
    if settings is None:
        settings = Settings(**overrides)
    elif overrides:
        settings = Settings(**{**settings.model_dump(), **overrides})
    store = storage or Storage(db_url or settings.database_url)
    hub = Hub(
        store,
        games=games,
        list_games=list_games,
        clock_scale=clock_scale,
        worker=worker,
        front=front,
        settings=settings,
    )
    limiter = Limiter(settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if tune_gc:
            quiet_gc()
        yield
        await hub.stop()

    app = FastAPI(title="Skydeck", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.settings = settings
    app.state.limiter = limiter
    # The rate limit goes first (outermost): a client over it costs no body read.
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(RateLimit, limiter=limiter)

    # --- API -------------------------------------------------------------------------
    @app.get("/api/health")
    def health() -> dict[str, Any]:
        """HAProxy's health check: this worker answers (and which one it is)."""
        return {"ok": True, "worker": worker, "rooms": len(hub.rooms)}

    @app.get("/api/games")
    def list_all_games() -> list[dict[str, Any]]:
        out = []
        for gid in list_games():
            info = games(gid).describe_options()
            info["agents"] = available_specs(gid, settings.models)
            out.append(info)
        return out

    @app.post("/api/matches")
    async def create_match(request: Request) -> Response:
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

    @app.get("/api/matches")
    def recent_matches() -> list[dict[str, Any]]:
        out = []
        for m in store.recent():
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

    # The endpoints that read a room are coroutines: a room is only ever touched on the
    # event loop (``settle`` may wait there for the commit in flight).
    def get_room(match_id: str) -> Room:
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

    @app.get("/api/matches/{match_id}")
    async def match_info(match_id: str, response: Response) -> dict[str, Any]:
        room = get_room(match_id)
        if worker is not None:
            response.headers["X-Skydeck-Worker"] = worker  # where the match lives now
        out = room.header()
        if room.match.state.is_over:
            out["scores"] = list(room.match.state.scores)
            out["winners"] = list(room.match.state.winners)
        return out

    @app.get("/api/matches/{match_id}/replay")
    async def replay(match_id: str, seat: str = "spectator", token: str = "") -> dict[str, Any]:
        room = get_room(match_id)
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
                if who not in mine:
                    raise HTTPException(
                        403, "a live match is replayed only from your own seat (give its token)"
                    )
        return replay_steps(room, who)

    @app.get("/api/matches/{match_id}/cards")
    async def cards(match_id: str) -> dict[str, Any]:
        """Every card face of the match's set-up in words (the same for every seat)."""
        return get_room(match_id).game.card_texts()

    @app.get("/api/matches/{match_id}/record")
    async def record(match_id: str) -> dict[str, Any]:
        room = get_room(match_id)
        if room.status == "live":
            raise HTTPException(403, "the full record is published once the match is over")
        return room.match.record.to_json()

    # --- WebSocket -------------------------------------------------------------------
    @app.websocket("/ws/matches/{match_id}")
    async def match_socket(ws: WebSocket, match_id: str) -> None:
        if not origin_allowed(
            ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins
        ):
            await ws.close(code=CLOSE_ORIGIN)  # before the handshake: the browser gets 403
            return
        await ws.accept()
        who = client_address(ws.scope)
        try:
            limiter.open_socket(who)
        except Refused as exc:
            await ws.send_json({"type": "error", "code": "too_many", "message": exc.message})
            await ws.close(code=CLOSE_LIMITED)
            return
        try:
            await _play(ws, match_id)
        finally:
            limiter.close_socket(who)

    async def _play(ws: WebSocket, match_id: str) -> None:
        """One match socket, from its hello to its close."""
        try:
            room = hub.room(match_id) if len(match_id) <= 40 else None
        except ValueError:
            room = None
        if room is None:
            await ws.send_json({"type": "error", "code": "no_match", "message": "no such match"})
            await ws.close(code=4404)
            return
        try:
            first = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
            if first["type"] == "websocket.disconnect":
                return
            hello = parse(first.get("text") or first.get("bytes") or b"")
            if hello["type"] != "hello":
                raise ProtocolError("bad_message", "the first message must be 'hello'")
            seats = hub.claim(room, hello.get("tokens"))
        except ProtocolError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(code=4403)
            return
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await ws.close(code=4408)
            return
        if not seats and settings.limits and room.spectators() >= settings.max_spectators:
            full = (
                f"this match has {settings.max_spectators} spectators already, the most "
                "it may have: try again later"
            )
            await ws.send_json({"type": "error", "code": "spectators_full", "message": full})
            await ws.close(code=CLOSE_LIMITED)
            return
        level = hello.get("patches")  # true: top-level changes; 2: nested ones too
        patches = 1 if level is True else 2 if type(level) is int and level == 2 else 0
        client = Client(seats, patches=patches)
        channel = direct(ws.scope)
        client.send_now = channel.write_text if channel is not None else _sender(ws, client)
        bucket = MessageBucket(settings.ws_message_rate) if settings.limits else None

        def on_text(data: str | bytes) -> None:
            if bucket is not None and not bucket.take():
                if bucket.should_tell():  # a flood is dropped unread, and said so
                    client.send(
                        {
                            "type": "error",
                            "code": "rate_limited",
                            "message": f"more than {settings.ws_message_rate:g} messages a "
                            "second: messages are dropped unread",
                            "n": room.n,
                        }
                    )
                return
            msg: dict[str, Any] = {}
            try:
                msg = parse(data)
                _handle(hub, room, client, msg)
            except ProtocolError as exc:
                reply = exc.to_json()
                reply["n"] = room.n
                if type(msg.get("n")) is int:  # the move number the refused message saw
                    reply["for_n"] = msg["n"]
                client.send(reply)

        def on_direct_text(data: str) -> None:
            """A message straight from the protocol: a fault that is not the client's
            closes the connection (the client reconnects), as it ends the loop below."""
            try:
                on_text(data)
            except Exception:
                log.exception("match %s: a message could not be handled", room.id)
                assert channel is not None
                channel.take_text(None)
                client.send(None)

        hub.attach(room, client)
        writer = asyncio.create_task(_write(ws, client))
        if channel is not None:
            channel.take_text(on_direct_text)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                on_text(data if data is not None else message.get("bytes") or b"")
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if channel is not None:
                channel.take_text(None)
            hub.detach(room, client)
            client.send(None)
            with contextlib.suppress(Exception):
                await writer
            # The sender holds the socket (and the client, through ``_sender``'s
            # closure): a cycle a full collection would have to find.
            client.send_now = None

    # --- pages -----------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(WEB / "lobby.html")

    @app.get("/m/{match_id}", include_in_schema=False)
    def match_page(match_id: str) -> FileResponse:
        return FileResponse(WEB / "match.html")

    @app.get("/r/{match_id}", include_in_schema=False)
    def replay_page(match_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    return app


#: Young-generation threshold of a tuned server (CPython's default is 700).
GC_YOUNG_THRESHOLD = 20_000


def quiet_gc() -> None:
    """Shorter and rarer garbage-collector pauses, which stall every match at once:
    everything alive after start-up (modules, the app, game content, rebuilt matches)
    is moved out of the collector's sight (``gc.freeze``), and the young generation
    is collected after 20,000 net allocations instead of 700 (a move's short-lived
    dicts and lists are freed by reference counting and barely count)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def _sender(ws: WebSocket, client: Client) -> Callable[[str], bool]:
    """Send a text frame at once, without a trip through the writer task (a task switch
    per message saved on the hot path). The ASGI server's send normally finishes
    without waiting; if it does wait (a full socket buffer), the rest of that send is
    finished by a task, and later messages queue behind it (``client.inflight``)."""

    def send_now(text: str) -> bool:
        coro = ws.send_text(text)
        try:
            waiting_on = coro.send(None)
        except StopIteration:
            return True
        except Exception:
            return True  # the connection is gone: the reader sees it and cleans up
        client.inflight = asyncio.ensure_future(_finish(coro, waiting_on, client))
        return True

    return send_now


async def _finish(coro: Any, waiting_on: Any, client: Client) -> None:
    """Drive a send that had to wait to its end, as a task would have."""
    try:
        while True:
            try:
                if waiting_on is None:
                    await asyncio.sleep(0)
                else:
                    # Taken over from the coroutine as a task takes it (asyncio's flag).
                    waiting_on._asyncio_future_blocking = False
                    await waiting_on
            except BaseException as exc:  # cancelled: pass it in, as a task would
                waiting_on = coro.throw(exc)
            else:
                waiting_on = coro.send(None)
    except StopIteration:
        pass
    except Exception:
        client.send_now = None
    finally:
        client.inflight = None


async def _write(ws: WebSocket, client: Client) -> None:
    """Send the client's outbox in order; None ends it."""
    while True:
        message = await client.queue.get()
        client.writing = True  # from here until sent, no direct send may overtake it
        try:
            if client.inflight is not None:  # a direct send that had to wait goes first
                with contextlib.suppress(Exception):
                    await client.inflight
            if message is None:  # the end, or a client too far behind: it will reconnect
                client.send_now = None
                with contextlib.suppress(Exception):
                    await ws.close(code=1013)
                return
            if not isinstance(message, str):
                message = json.dumps(message, separators=(",", ":"))
            try:
                await ws.send_text(message)
            except Exception:
                client.send_now = None
                return
        finally:
            client.writing = False


def _handle(hub: Hub, room: Room, client: Client, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        client.send({"type": "pong", "id": msg.get("id"), "n": room.n})
        return
    if kind == "act":
        seat = _own_seat(client, msg)
        n = get_int(msg, "n")
        if "action" not in msg:
            raise ProtocolError("bad_message", "'act' needs an 'action'")

        def refused(exc: ProtocolError) -> None:  # the group commit failed
            reply = exc.to_json()
            reply["n"] = room.n
            client.send(reply)

        hub.act(room, seat, msg["action"], n, on_error=refused)
        return
    if kind == "undo":
        hub.undo(room, client.seats, get_int(msg, "n"))
        return
    if kind == "hold":  # where the card being played is, while it is dragged
        seat = _own_seat(client, msg)
        hub.hold(room, seat, get_int(msg, "n"), msg.get("at"))
        return
    if kind == "hello":
        raise ProtocolError("bad_message", "already said hello")
    raise ProtocolError("unknown_type", f"unknown message type {kind!r}")


def _own_seat(client: Client, msg: dict[str, Any]) -> int:
    """The message's seat, if this connection holds it; else a refusal in the names
    people see (Player N, counted from 1)."""
    seat = get_int(msg, "seat")
    if seat not in client.seats:
        if not client.seats:
            raise ProtocolError("not_your_seat", "spectators cannot act")
        raise ProtocolError(
            "not_your_seat",
            f"{player_name(seat)} is not yours (you play {player_names(sorted(client.seats))})",
        )
    return seat
