"""Every setting of the web server, in one place: flags, environment and defaults.

One pydantic-settings class (the FastAPI convention) holds what ``skydeck serve`` may
be told: where it listens and stores, how its clocks and AI seats behave, and every
limit that keeps one client from taking the server from the others. Each field is read
from ``--flag`` (``skydeck serve --help`` lists them, made from this class), else from
``SKYDECK_<NAME>`` in the environment, else its default; a bad value is refused at
start-up with the field's name. The workers of ``--workers N`` are given the same
settings as flags (``as_flags``), so nothing is passed through ``os.environ``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Annotated, Any, Literal

from limits import parse_many
from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: What a limit's text looks like (the ``limits`` library's notation).
RATE_HELP = "'N/second|minute|hour|day', several joined by ';'"


class Settings(BaseSettings):
    """The server's settings; ``Settings()`` reads the environment, keyword arguments
    (the flags) win over it."""

    model_config = SettingsConfigDict(env_prefix="SKYDECK_", extra="forbid", frozen=True)

    # --- where it runs -----------------------------------------------------------------
    host: str = Field("127.0.0.1", description="interface to listen on")
    port: int = Field(8000, ge=1, le=65535, description="TCP port")
    database_url: str | None = Field(
        None,
        description="SQLAlchemy database URL (default: sqlite:///skydeck-data/skydeck.sqlite); "
        "postgresql://user@host/db works",
    )
    workers: int = Field(
        1,
        ge=1,
        description="run N server processes over one PostgreSQL behind HAProxy on the port, "
        "each match in one worker (hashed on its id); a dead worker's matches go to the others",
    )
    models: Path = Field(
        Path("skydeck-data/models"),
        description="folder of trained models (`skydeck train`) the lobby offers as policy:NAME",
    )

    # --- play --------------------------------------------------------------------------
    ai_delay: float = Field(0.4, ge=0, description="seconds an AI seat waits before moving")
    clock_grace: float = Field(
        60.0,
        ge=0,
        description="seconds a clock (Stellium's draw, a move clock) waits for its seat to "
        "connect before it starts anyway",
    )
    idle_expiry: float = Field(
        24 * 3600.0,
        ge=0,
        description="seconds without a move after which a live match is abandoned (kept in "
        "storage with its record, no longer live); 0: never",
    )

    # --- AI seats asked for over the network ------------------------------------------
    ai_max_seconds: float = Field(
        1.6,
        gt=0,
        description="the most thinking time a lobby request may give an AI seat "
        "(seconds=...; default: mcts:hard's own budget)",
    )
    ai_max_iterations: int = Field(
        100_000,
        ge=1,
        description="the most search iterations a lobby request may give an AI seat "
        "(iterations=...; default: mcts:hard's own budget)",
    )

    # --- limits on one client ----------------------------------------------------------
    limits: bool = Field(
        True, description="enforce the rate limits and caps below (off only for benchmarks)"
    )
    max_body: int = Field(
        64 * 1024, ge=1024, description="bytes of an HTTP request body (413 beyond)"
    )
    ws_max_frame: int = Field(
        1 << 20,
        ge=64 * 1024,
        description="bytes of one WebSocket frame the server reads (closed with 1009 beyond; "
        "a message over 64 KiB is refused as too_large before that)",
    )
    create_rate: Annotated[str, NoDecode] = Field(
        "12/minute;120/hour",
        description=f"new matches per client address ({RATE_HELP}); 429 beyond",
    )
    request_rate: Annotated[str, NoDecode] = Field(
        "600/minute",
        description=f"other API requests per client address ({RATE_HELP}); 429 beyond",
    )
    socket_rate: Annotated[str, NoDecode] = Field(
        "120/minute",
        description=f"WebSocket connections opened per client address ({RATE_HELP})",
    )
    max_unfinished: int = Field(
        20, ge=1, description="live matches one client address may have created at once"
    )
    max_sockets: int = Field(
        32, ge=1, description="WebSockets one client address may hold open at once"
    )
    max_spectators: int = Field(100, ge=0, description="spectators one match may have at once")
    ws_message_rate: float = Field(
        60.0,
        gt=0,
        description="messages a second one WebSocket may send (twice that in a burst); "
        "beyond, they are dropped unread",
    )
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="browser origins (https://host[:port], comma-separated) whose pages may "
        "open match WebSockets; the server's own origin always may",
    )

    # --- after-the-game analyses -------------------------------------------------------
    analysis_workers: int = Field(
        1,
        ge=1,
        description="worker processes that run the analyses' playouts (beside the server's "
        "own, so matches are not slowed by them on a machine with a core to spare)",
    )
    analysis_limit: int = Field(
        2, ge=1, description="analyses running at once on this server; 429 beyond"
    )
    analysis_playouts: int | None = Field(
        None,
        ge=2,
        description="playouts per decision of an analysis (default: each game's own)",
    )
    analysis_width: int | None = Field(
        None,
        ge=1,
        description="moves weighed per decision besides the one played (default: each game's)",
    )
    analysis_solver_seconds: float = Field(
        5.0, gt=0, description="seconds Stellarion's solver may take over a deal's report"
    )

    # --- accounts ----------------------------------------------------------------------
    session_days: float = Field(
        30.0, gt=0, description="days a sign-in lasts (its session then expires)"
    )
    secure_cookies: Literal["auto", "always", "never"] = Field(
        "auto",
        description="mark the session cookie Secure: auto (when the request came over "
        "https, as the proxy says), always, or never",
    )
    signin_rate: Annotated[str, NoDecode] = Field(
        "10/minute;100/hour",
        description=f"sign-in attempts per client address ({RATE_HELP}); 429 beyond (failed "
        "ones also back off per name and address)",
    )
    password_memory: int = Field(
        64 * 1024,
        ge=64,
        description="KiB of memory one Argon2id password hash takes (RFC 9106: 65536)",
    )

    # --- Play now (the queue) -----------------------------------------------------------
    queue_window: int = Field(
        100, ge=0, description="rating points apart two people may be paired at once"
    )
    queue_widen: float = Field(
        10.0, ge=0, description="rating points the window widens by per second of waiting"
    )
    queue_window_max: int = Field(
        800, ge=0, description="the widest the rating window grows"
    )
    queue_bot_after: float = Field(
        30.0,
        gt=0,
        description="seconds in the queue after which a rated bot is offered instead",
    )
    queue_stale: float = Field(
        60.0,
        gt=0,
        description="seconds without a poll (GET /api/queue) after which a waiting place "
        "in the queue is given up (the page was closed)",
    )

    @field_validator("create_rate", "request_rate", "socket_rate", "signin_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a rate limit ({RATE_HELP})") from None
        return value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, list):
            for origin in value:
                if not isinstance(origin, str) or "://" not in origin:
                    raise ValueError(f"{origin!r} is not an origin (scheme://host[:port])")
            return [str(o).rstrip("/").lower() for o in value]
        return value

    def as_flags(self, *names: str) -> list[str]:
        """These settings as ``skydeck serve`` flags (each named field, or every field
        that differs from its default): how ``--workers`` hands them to its workers."""
        out: list[str] = []
        defaults = Settings.model_construct()
        for name in names or type(self).model_fields:
            value = getattr(self, name)
            if not names and value == getattr(defaults, name, value):
                continue
            flag = flag_name(name)
            if isinstance(value, bool):
                out.append(flag if value else f"--no-{flag[2:]}")
            elif isinstance(value, list):
                out += [flag, ",".join(value)]
            elif value is not None:
                out += [flag, str(value)]
        return out


#: Flags whose names differ from their field's.
FLAG_NAMES = {"database_url": "--db"}


def flag_name(field: str) -> str:
    return FLAG_NAMES.get(field, "--" + field.replace("_", "-"))


def add_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per setting, its help the field's description and its default (every
    flag defaults to None: unset, the environment or the default applies)."""
    for name, info in Settings.model_fields.items():
        flag = flag_name(name)
        default = info.get_default(call_default_factory=True)
        shown = ",".join(default) if isinstance(default, list) else default
        shown = shown if shown not in (None, "", []) else "none"
        help_text = f"{info.description} (default: {shown}; env SKYDECK_{name.upper()})"
        help_text = help_text.replace("%", "%%")
        if info.annotation is bool:
            parser.add_argument(
                flag, dest=name, action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        else:
            parser.add_argument(flag, dest=name, default=None, metavar=name.upper(), help=help_text)


def from_args(args: argparse.Namespace) -> Settings:
    """The settings of a parsed command line (flags over environment over defaults);
    SystemExit naming each bad value."""
    given = {
        name: getattr(args, name)
        for name in Settings.model_fields
        if getattr(args, name, None) is not None
    }
    try:
        return Settings(**given)
    except ValidationError as exc:
        problems = "; ".join(
            f"{flag_name(str(e['loc'][0])) if e['loc'] else 'settings'}: {e['msg']}"
            for e in exc.errors()
        )
        raise SystemExit(f"skydeck serve: {problems}") from None
