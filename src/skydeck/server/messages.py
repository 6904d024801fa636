"""Messages between the browser and the server, and their clear refusals.

Every refusal is a ``ProtocolError`` with a stable ``code`` and a message that says
what was wrong; nothing changes on the server when one is raised.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

MAX_MESSAGE = 64 * 1024
_STANDARD = json.JSONEncoder(separators=(",", ":")).encode


def dumps(obj: Any) -> str:
    """Compact JSON text, as ``json`` writes it but at a tenth of its CPU (orjson; the
    server encodes every update and every stored move). Integer keys become strings as
    in ``json``; what orjson refuses (an integer beyond 64 bits) goes through ``json``."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return _STANDARD(obj)


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


def loads(text: str | bytes) -> Any:
    """``json.loads`` whose every refusal is a ValueError: the decoder recurses once per
    level of nesting, so "[[[[..." thousands deep raises RecursionError (a RuntimeError,
    which would end a WebSocket's reader) instead of a decoding error.

    orjson reads it first (every move comes through here: a quarter of ``json``'s CPU);
    what orjson refuses (NaN, a lone surrogate, nesting past 1,024 levels, invalid
    JSON) goes to ``json``, so what is accepted and every refusal's message stay
    ``json``'s. One difference: orjson reads an integer beyond 64 bits as a float (no
    move number, seat or action argument is one: refused either way, as not an integer
    or not a legal action)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def parse(text: str | bytes) -> dict[str, Any]:
    """Decode one client message; ProtocolError on anything but a small JSON object."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            "too_large", f"message of {len(text)} bytes refused (at most {MAX_MESSAGE})"
        )
    try:
        obj = loads(text)
    except ValueError as exc:
        raise ProtocolError("bad_json", f"message is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    if not isinstance(obj.get("type"), str):
        raise ProtocolError("bad_message", "a message needs a 'type' string")
    return obj


def get_int(obj: dict[str, Any], name: str) -> int:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_message", f"'{name}' must be an integer, got {value!r}")
    return value
