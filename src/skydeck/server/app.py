"""The FastAPI application: the hub, the storage, the limits and the routes (one
router per resource, ``routes/``) put together."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI

from skydeck.core import Game
from skydeck.registry import game_class, game_ids
from skydeck.server.analyses import Analyses
from skydeck.server.guard import BodyLimit, Limiter, RateLimit
from skydeck.server.hub import Hub
from skydeck.server.people import People
from skydeck.server.routes import (
    accounts,
    analysis,
    matches,
    pages,
    players,
    queue,
    rematch,
    tables,
    websocket,
)
from skydeck.server.routes import games as catalogue
from skydeck.server.settings import Settings
from skydeck.server.storage import Storage


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
    people = People(store.engine, settings)
    hub.on_end = people.match_ended
    analyses = Analyses(store.engine, settings, owner=worker or "")

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        analyses.recover()  # an analysis this server was running when it stopped
        people.count_uncounted(hub)  # matches that ended as the server stopped
        if tune_gc:
            quiet_gc()
        yield
        analyses.stop()
        await hub.stop()

    app = FastAPI(title="Skydeck", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.settings = settings
    app.state.limiter = limiter
    app.state.people = people
    app.state.analyses = analyses
    # The rate limit goes first (outermost): a client over it costs no body read.
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(RateLimit, limiter=limiter)

    routers = (
        catalogue.router,
        matches.router,
        analysis.router,
        websocket.router,
        accounts.router,
        players.router,
        queue.router,
        rematch.router,
        tables.router,
        pages.router,
    )
    for router in routers:
        app.include_router(router)
    pages.mount_static(app, hub.list_games(), hub.game_class)
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
