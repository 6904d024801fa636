"""WebSocket compression (permessage-deflate) for large frames only.

A state update is mostly a few hundred bytes to a few KB: compressing it costs the
server more CPU than it saves on any real link (the bench measured +44% server CPU per
move with every frame compressed at uvicorn's settings), while the less common large
frame (a first full view, a list of 200 legal moves) shrinks five- to tenfold. RFC 7692
section 6 lets a sender leave any message uncompressed (RSV1 unset), and a skipped
message never enters the compressor, so the peer's decompressor stays in step with or
without context takeover. Both ends negotiate the extension exactly as before; browsers
need no change.

``LargeFramesProtocol`` is uvicorn's WebSocket protocol with this extension (``skydeck
serve`` and the bench use it); the bench's bot clients use ``client_extensions()``.
Since a message under ``MIN_COMPRESSED`` goes out as it is, its frame is written
straight to the socket (``text_frame``): the bytes the websockets library would write,
without its frame object, extension pass and output buffer (most of a send's CPU).
The same holds the other way for a move: a read that is exactly one whole, masked,
uncompressed text frame, with nothing else pending, is unmasked and handed over here
(``_one_text_frame``); everything else goes through websockets' parser as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.streams import StreamReader
from websockets.typing import ExtensionParameter

try:  # zlib-ng: the same deflate streams as zlib, written in about half the CPU
    from zlib_ng import zlib_ng as _deflate
except ImportError:  # pragma: no cover - installed with Skydeck; zlib is the fallback
    import zlib as _deflate  # type: ignore[no-redef]

try:  # the C version websockets itself uses when it is built
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a pure-Python install of websockets
    from websockets.utils import apply_mask

#: The parser of a websockets connection waits here between frames (``_one_text_frame``).
_AT_EOF = StreamReader.at_eof.__code__
#: The key of the direct channel in a WebSocket scope's "extensions" (``direct``).
DIRECT = "skydeck.direct"
#: Messages shorter than this (in bytes, one frame) are sent uncompressed.
MIN_COMPRESSED = 4096
#: zlib level 1: on our JSON a third of level 6's CPU for nearly the same size
#: (measured on Stellium updates: 8 vs 16 us a message, 54% vs 53% of the raw bytes).
LEVEL = 1


class LargeFramesDeflate(PerMessageDeflate):
    """permessage-deflate that compresses only whole messages of ``MIN_COMPRESSED``
    bytes or more (a fragmented message is always compressed, frame after frame)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # websockets' ``encode`` compresses with ``self.encoder``: with context takeover
        # (what browsers negotiate) that is zlib-ng's. Without it the library makes a
        # zlib one for each message; both write the same stream format (and share an API).
        if not self.local_no_context_takeover:
            self.encoder = _deflate.compressobj(  # type: ignore[assignment]
                wbits=-self.local_max_window_bits, **self.compress_settings
            )

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
            and len(frame.data) < MIN_COMPRESSED
        ):
            return frame
        return super().encode(frame)


def large_frames_only(ext: PerMessageDeflate) -> LargeFramesDeflate:
    """The negotiated deflate extension, compressing large frames only."""
    if isinstance(ext, LargeFramesDeflate):
        return ext
    return LargeFramesDeflate(
        ext.remote_no_context_takeover,
        ext.local_no_context_takeover,
        ext.remote_max_window_bits,
        ext.local_max_window_bits,
        ext.compress_settings,
    )


class LargeFramesServerDeflate(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        return response, large_frames_only(ext)


class LargeFramesClientDeflate(ClientPerMessageDeflateFactory):
    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        return large_frames_only(super().process_response_params(params, accepted_extensions))


def client_extensions() -> list[LargeFramesClientDeflate]:
    """For ``websockets.connect(..., compression=None, extensions=...)``: the settings of
    the library's own ``compression="deflate"``, large frames only."""
    settings = {"memLevel": 5, "level": LEVEL}
    return [LargeFramesClientDeflate(client_max_window_bits=True, compress_settings=settings)]


def text_frame(data: bytes) -> bytes:
    """One whole, unmasked, uncompressed text frame (a server's, RFC 6455 section 5.2)
    of ``data`` (UTF-8, shorter than 65,536 bytes)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    return bytes((0x81, 126, n >> 8, n & 0xFF)) + data


class LargeFramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets sans-I/O) whose permessage-deflate, when
    ``ws_per_message_deflate`` is on, compresses large frames only; a text message it
    leaves uncompressed is framed here and written at once. Pass it to uvicorn as
    ``ws=LargeFramesProtocol``.

    It also offers the application a direct channel (``direct(ws)``), past the ASGI
    layers: ``write_text`` sends a message at once when nothing needs waiting, and a
    handler set with ``take_text`` receives each whole text message straight from
    ``data_received``. ASGI's ``receive``/``send`` cost a queue, a task switch, a pause
    and resume of reading and six middleware calls a message; the server's hot path
    (a move in, an update out to each client) needs none of them."""

    #: The application's handler of text messages (``take_text``); None: through ASGI.
    text_handler: Callable[[str], None] | None = None
    #: Whether every negotiated extension leaves a small message as it is (so it is
    #: framed here); known once the handshake is done, then fixed (``write_text``).
    _plain: bool | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        factories = self.conn.available_extensions or []
        self.conn.available_extensions = [
            _large_frames_factory(f) if type(f) is ServerPerMessageDeflateFactory else f
            for f in factories
        ]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][DIRECT] = self

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # The scope names this protocol and the handler holds the match's client, which
        # holds ``write_text``: cycles that only a full collection would free.
        self.text_handler = None
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(DIRECT, None)
        # websockets' connection and its parser (a generator whose frame holds the
        # connection) refer to each other: closing the generator frees the connection,
        # and its deflate contexts, now instead of at a full collection (the soak held
        # hundreds of closed ones).
        self.conn.parser.close()

    def _open(self) -> bool:
        """Accepted, open, not closing, and the socket's buffer below its high mark."""
        return (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
        )

    def write_text(self, text: str) -> bool:
        """Send ``text`` as one message now if that needs no waiting; False (nothing
        sent): the caller sends it through ASGI's ``send``, which waits as needed."""
        if not self._open():
            return False
        data = text.encode()
        plain = self._plain
        if plain is None:
            plain = self._plain = all(type(e) is LargeFramesDeflate for e in self.conn.extensions)
        if plain and len(data) < MIN_COMPRESSED:
            self.transport.write(text_frame(data))  # what the extension would leave as is
        else:
            self.conn.send_text(data)
            self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def data_received(self, data: bytes) -> None:
        if self.text_handler is None or not self._one_text_frame(data):
            super().data_received(data)

    def _one_text_frame(self, data: bytes) -> bool:
        """Hand ``data`` to the text handler if it is exactly one whole text frame as a
        client sends it (FIN, no RSV bit so not compressed, masked, under 64 KiB and
        within the size limit) and the connection is open with its parser waiting for a
        new frame (nothing buffered, no fragmented message under way, nothing queued
        for ``receive``). What websockets' parser and uvicorn's event loop would do for
        it comes to the same: unmask, decode, deliver. False, nothing done: anything
        else (a partial or second frame, a control frame, a compressed or fragmented
        message, invalid UTF-8, a closing connection) takes the standard path."""
        n = len(data)
        if n < 6 or data[0] != 0x81 or data[1] & 0x80 == 0:
            return False
        length = data[1] & 0x7F
        if length < 126:
            head = 6
        elif length == 126 and n >= 8:
            length = (data[2] << 8) | data[3]
            head = 8
        else:
            return False
        conn = self.conn
        limit = conn.max_message_size
        # The innermost generator the parser waits in (the server's parse delegates to
        # the protocol's, which waits in the reader's ``at_eof`` between frames).
        waiting: Any = conn.parser
        while (inner := waiting.gi_yieldfrom) is not None:
            waiting = inner
        if (
            n != head + length
            or (limit is not None and length > limit)
            or conn.state is not State.OPEN
            or conn.current_size is not None
            or conn.reader.buffer
            or conn.events
            or waiting.gi_code is not _AT_EOF
            or self.close_sent
            or self.frames
            or not self.queue.empty()
        ):
            return False
        try:
            text = apply_mask(data[head:], data[head - 4 : head]).decode()
        except UnicodeDecodeError:
            return False  # refused there (1007), as uvicorn does
        handler = self.text_handler
        assert handler is not None
        handler(text)
        return True

    def take_text(self, handler: Callable[[str], None] | None) -> None:
        """Hand every later whole text message to ``handler`` (on the loop, in order)
        instead of queueing it for ``receive``; None: back to ``receive``. Binary
        messages, invalid UTF-8 (closed with 1007 as before) and the disconnect still
        go through ``receive``, and a message arriving while ``receive``'s queue holds
        others waits its turn there, so the order never changes."""
        self.text_handler = handler

    def send_receive_event_to_app(self) -> None:
        handler = self.text_handler
        if (
            handler is None
            or self.curr_msg_data_type != "text"
            or self.close_sent
            or not self.queue.empty()
        ):
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            super().send_receive_event_to_app()  # refused there, as uvicorn does
            return
        self.frames = []
        handler(text)

    async def send(self, message: Any) -> None:
        text = message.get("text") if message["type"] == "websocket.send" else None
        if text is not None and message.get("bytes") is None and self.write_text(text):
            return  # sent at once, as the direct channel sends
        await super().send(message)


def direct(scope: Any) -> LargeFramesProtocol | None:
    """The connection's direct channel, when the server runs ``LargeFramesProtocol``
    (``skydeck serve``, the bench); None under any other ASGI server or test client."""
    found = scope.get("extensions", {}).get(DIRECT)
    return found if isinstance(found, LargeFramesProtocol) else None


def _large_frames_factory(f: ServerPerMessageDeflateFactory) -> LargeFramesServerDeflate:
    """uvicorn's factory with the same negotiation, compressing large frames at LEVEL."""
    params = vars(f) | {"compress_settings": {**(f.compress_settings or {}), "level": LEVEL}}
    return LargeFramesServerDeflate(**params)
