"""The server's parts as FastAPI dependencies, read from ``app.state`` (set once by
``create_app``): a route names what it needs and nothing reaches for a global."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from skydeck.server.hub import Hub
from skydeck.server.settings import Settings


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
