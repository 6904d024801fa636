"""A match's WebSocket (``/ws/matches/ID``): the origin and the client's limits are
checked, the hello claims seats, then every message is handled as it comes; updates
go out directly or through the client's writer task. PROTOCOL.md has the messages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from skydeck.core import player_name, player_names
from skydeck.server.compression import direct
from skydeck.server.guard import Limiter, MessageBucket, Refused, client_address
from skydeck.server.hub import Hub
from skydeck.server.messages import ProtocolError, get_int, parse
from skydeck.server.room import Client, Room
from skydeck.server.sessions import COOKIE
from skydeck.server.settings import Settings

log = logging.getLogger("skydeck.server")

router = APIRouter()

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


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: str) -> None:
    settings: Settings = ws.app.state.settings
    limiter: Limiter = ws.app.state.limiter
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
        await _play(ws, match_id, ws.app.state.hub, settings)
    finally:
        limiter.close_socket(who)


async def _play(ws: WebSocket, match_id: str, hub: Hub, settings: Settings) -> None:
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
        cookie = ws.cookies.get(COOKIE)
        if cookie or room.settings.get("rated"):
            # Signed in: the seats the account holds open too (from any browser), and
            # a rated match's seats open only so.
            seats = await ws.app.state.people.socket_seats(room, seats, cookie)
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
