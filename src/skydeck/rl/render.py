"""Pictures for ``render_mode``: ``"ansi"`` is the game's terminal renderer as text;
``"rgb_array"`` rasterises the game's own SVG drawing (Stellar Conflict's table) with
resvg, and for a game without one, the terminal text laid out as an SVG page."""

from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from skydeck.core.capabilities import resolve
from skydeck.core.game import Game

RENDER_MODES = ("ansi", "rgb_array")


def check_render_mode(mode: str | None) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(
            f"unknown render_mode {mode!r}; choose one of {', '.join(RENDER_MODES)} or None"
        )
    return mode


def ansi(game: Game, view: dict[str, Any], seat: int | None) -> str:
    from rich.console import Console

    from skydeck.terminal import render_view

    buf = io.StringIO()
    console = Console(file=buf, width=110, color_system=None, force_terminal=False)
    console.print(render_view(game, view, seat))
    return buf.getvalue()


def text_svg(text: str) -> str:
    """The text on a dark page, one ``<text>`` per line, in a monospace font."""
    lines = text.rstrip("\n").split("\n") or [""]
    char_w, line_h = 7.2, 15.0
    width = int(max(len(line) for line in lines) * char_w + 24)
    height = int(len(lines) * line_h + 24)
    body = [
        f'<text x="12" y="{12 + (i + 1) * line_h - 3:.0f}" xml:space="preserve">'
        f"{escape(line)}</text>"
        for i, line in enumerate(lines)
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        f'<rect width="100%" height="100%" fill="#0b1426"/>'
        f'<g font-family="DejaVu Sans Mono, monospace" font-size="12" fill="#e8eef7">'
        + "".join(body)
        + "</g></svg>"
    )


def svg_of(game: Game, view: dict[str, Any], seat: int | None) -> str:
    picture = game.capabilities.picture
    if picture is not None:
        draw: Any = resolve(picture)
        return str(draw(view))
    return text_svg(ansi(game, view, seat))


def rgb(svg: str) -> np.ndarray:
    """An (H, W, 3) uint8 array of an SVG picture."""
    import resvg_py
    from PIL import Image

    png = bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, sans_serif_family="DejaVu Sans", font_family="DejaVu Sans"
        )
    )
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("RGB"), dtype=np.uint8)


def render(mode: str | None, game: Game, view: dict[str, Any], seat: int | None) -> Any:
    if mode is None:
        return None
    if mode == "ansi":
        return ansi(game, view, seat)
    return rgb(svg_of(game, view, seat))
