"""What one client may ask of the server: body sizes, request rates, open sockets.

A server open to the internet must not let one client take it from the others. Three
pieces, each sized by ``Settings``:

- ``BodyLimit`` (ASGI middleware): a request body is refused with 413 from its
  ``Content-Length`` before a byte of it is read, and a chunked body is cut at the
  limit: the server never holds more than ``max_body`` of one request.
- ``Limiter``: rates per client address (new matches, other API requests, sockets
  opened), counted by the ``limits`` library's moving window in this process, answered
  with 429 and ``Retry-After``; and the sockets each address holds open. Behind
  HAProxy (``--workers N``) HAProxy's stick tables count the same rates for the whole
  cluster (``cluster.haproxy_config``), since one worker sees only its share.
- ``MessageBucket``: a token bucket per WebSocket; messages beyond its rate are dropped
  unread (no JSON decoded for a flood).

Why not slowapi: it limits routes through decorators and needs a ``Request``; the
server must also limit WebSocket handshakes and count sockets, so the limiter is used
directly (slowapi is a thin layer over the same ``limits`` library).
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from skydeck.server.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The header of the cluster's own requests (a launcher or worker waking the owner of a
#: match through HAProxy): exempt from the request rate when they come from loopback.
INTERNAL_HEADER = b"x-skydeck-internal"
_LOOPBACK = frozenset({"127.0.0.1", "::1"})


def client_address(scope: Scope) -> str:
    """The client's address as the ASGI server reports it (behind HAProxy, the address
    in its X-Forwarded-For, which uvicorn trusts from loopback only)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A whole JSON response, written straight to the ASGI server."""
    data = orjson.dumps(body)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """Refuse a request body over ``max_body`` bytes without reading it whole."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        limit = self.max_body
        declared = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                declared = value
        if declared is not None:
            if not declared.isdigit():
                await send_json(send, 400, {"detail": "Content-Length must be a whole number"})
                return
            if int(declared) > limit:
                await self._refuse(send, f"a body of {int(declared)} bytes")
                return
        # Read the body here, at most ``limit`` bytes, then hand it to the app as it came.
        parts: list[Message] = []
        size = 0
        while True:
            message = await receive()
            parts.append(message)
            if message["type"] != "http.request":
                break  # the client left: the app learns it from the replay
            size += len(message.get("body", b""))
            if size > limit:
                await self._refuse(send, f"a body of more than {limit} bytes")
                return
            if not message.get("more_body", False):
                break
        replay = iter(parts)

        async def replayed() -> Message:
            for message in replay:
                return message
            return await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, send: Send, what: str) -> None:
        detail = f"request refused: {what} (at most {self.max_body})"
        await send_json(send, 413, {"detail": detail}, [(b"connection", b"close")])


def describe_rate(item: RateLimitItem) -> str:
    """"12 a minute", "120 an hour", "5 every 10 seconds"."""
    unit = item.GRANULARITY.name
    if item.multiples == 1:
        article = "an" if unit == "hour" else "a"
        return f"{item.amount} {article} {unit}"
    return f"{item.amount} every {item.multiples} {unit}s"


class Refused(Exception):
    """A client over one of its limits: the words it is told, and when to try again
    (None: not a rate, a cap that lifts when something of its own ends)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        if self.retry_after is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


class Limiter:
    """Every per-client limit of one server process (``Settings.limits`` False: none)."""

    def __init__(self, settings: Settings) -> None:
        self.on = settings.limits
        self.window = MovingWindowRateLimiter(MemoryStorage())
        self.rates: dict[str, tuple[str, list[RateLimitItem]]] = {
            "create": ("new matches", parse_many(settings.create_rate)),
            "request": ("requests", parse_many(settings.request_rate)),
            "socket": ("connections", parse_many(settings.socket_rate)),
            "signin": ("sign-in attempts", parse_many(settings.signin_rate)),
        }
        self.max_sockets = settings.max_sockets
        #: Sockets open per client address (in this process).
        self.sockets: dict[str, int] = {}

    def hit(self, kind: str, who: str) -> None:
        """Count one ``kind`` (create, request, socket) for address ``who``; Refused,
        counting nothing, when any of its rates is spent."""
        if not self.on:
            return
        what, items = self.rates[kind]
        for item in items:
            if not self.window.test(item, kind, who):
                reset = self.window.get_window_stats(item, kind, who).reset_time
                wait = max(1.0, reset - time.time())
                raise Refused(
                    f"too many {what} from your address: at most {describe_rate(item)}; "
                    f"try again in {math.ceil(wait)} s",
                    wait,
                )
        for item in items:
            self.window.hit(item, kind, who)

    def open_socket(self, who: str) -> None:
        """A WebSocket of ``who`` opens: Refused past its rate or its cap on open ones
        (``close_socket`` must follow every accepted open)."""
        if self.on:
            if self.sockets.get(who, 0) >= self.max_sockets:
                raise Refused(
                    f"too many connections open from your address (at most "
                    f"{self.max_sockets}): close a tab or two"
                )
            self.hit("socket", who)
        self.sockets[who] = self.sockets.get(who, 0) + 1

    def close_socket(self, who: str) -> None:
        left = self.sockets.get(who, 0) - 1
        if left > 0:
            self.sockets[who] = left
        else:
            self.sockets.pop(who, None)


class RateLimit:
    """ASGI middleware: API requests per client address (``POST /api/matches`` on the
    creation rate, other ``/api/`` requests but the health check on the request rate),
    429 with ``Retry-After`` beyond."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.limiter.on:
            path: str = scope["path"]
            who = client_address(scope)
            if path.startswith("/api/") and path != "/api/health" and not _internal(scope, who):
                creating = path == "/api/matches" and scope["method"] == "POST"
                try:
                    self.limiter.hit("create" if creating else "request", who)
                except Refused as exc:
                    headers = [(k.lower().encode(), v.encode()) for k, v in exc.headers().items()]
                    await send_json(send, 429, {"detail": exc.message}, headers)
                    return
        await self.app(scope, receive, send)


def _internal(scope: Scope, who: str) -> bool:
    """A request of the cluster itself (``INTERNAL_HEADER`` from loopback; behind
    HAProxy the address is the one HAProxy saw, never a client's claim)."""
    return who in _LOOPBACK and any(name == INTERNAL_HEADER for name, _ in scope["headers"])


class MessageBucket:
    """A token bucket: ``rate`` messages a second, bursts of twice that. ``take`` is on
    the path of every move (two float operations and a clock read)."""

    __slots__ = ("burst", "last", "rate", "tokens", "told")

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.burst = 2 * rate
        self.tokens = self.burst
        self.last = time.monotonic()
        #: When the client was last told its messages are dropped (once a second at most).
        self.told = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if tokens < 1.0:
            self.tokens = tokens
            return False
        self.tokens = tokens - 1.0
        return True

    def should_tell(self) -> bool:
        """Whether to tell a flooding client now (at most once a second)."""
        now = time.monotonic()
        if now - self.told >= 1.0:
            self.told = now
            return True
        return False
