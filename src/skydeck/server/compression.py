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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.typing import ExtensionParameter

#: Messages shorter than this (in bytes, one frame) are sent uncompressed.
MIN_COMPRESSED = 4096
#: zlib level 1: on our JSON a third of level 6's CPU for nearly the same size
#: (measured on Stellium updates: 8 vs 16 us a message, 54% vs 53% of the raw bytes).
LEVEL = 1


class LargeFramesDeflate(PerMessageDeflate):
    """permessage-deflate that compresses only whole messages of ``MIN_COMPRESSED``
    bytes or more (a fragmented message is always compressed, frame after frame)."""

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
    ``ws=LargeFramesProtocol``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        factories = self.conn.available_extensions or []
        self.conn.available_extensions = [
            _large_frames_factory(f) if type(f) is ServerPerMessageDeflateFactory else f
            for f in factories
        ]

    async def send(self, message: Any) -> None:
        text = message.get("text") if message["type"] == "websocket.send" else None
        if (
            text is not None
            and len(text) < MIN_COMPRESSED  # characters: the bytes are checked below
            and self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
            and message.get("bytes") is None
            and all(type(e) is LargeFramesDeflate for e in self.conn.extensions)
        ):
            data = text.encode()
            if len(data) < MIN_COMPRESSED:  # sent uncompressed by the extension too
                self.transport.write(text_frame(data))
                return
        await super().send(message)


def _large_frames_factory(f: ServerPerMessageDeflateFactory) -> LargeFramesServerDeflate:
    """uvicorn's factory with the same negotiation, compressing large frames at LEVEL."""
    params = vars(f) | {"compress_settings": {**(f.compress_settings or {}), "level": LEVEL}}
    return LargeFramesServerDeflate(**params)
