"""The games on offer (``GET /api/games``) and HAProxy's health check."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from skydeck.server.ai import available_specs, levels
from skydeck.server.players import bot_ratings
from skydeck.server.routes.deps import HubDep, PeopleDep, SettingsDep
from skydeck.server.routes.pages import web_parts

router = APIRouter()


@router.get("/api/health")
def health(hub: HubDep) -> dict[str, Any]:
    """HAProxy's health check: this worker answers (and which one it is)."""
    return {"ok": True, "worker": hub.worker, "rooms": len(hub.rooms)}


@router.get("/api/games")
def list_all_games(hub: HubDep, settings: SettingsDep, people: PeopleDep) -> list[dict[str, Any]]:
    out = []
    rated = bot_ratings(people.engine)  # every game's at once: one query a lobby load
    for gid in hub.list_games():
        cls = hub.game_class(gid)
        info = cls.describe_options()
        # The defaults a match on this server gets (Stellar Conflict: the real deployment
        # clock): the lobby shows them, and sends them back as chosen.
        live = cls.capabilities.live_options
        for spec in info["options"]:
            if spec["name"] in live:
                spec["default"] = live[spec["name"]]
        info["agents"] = available_specs(gid, settings.models)
        info["levels"] = levels(gid, info["agents"], rated.get(gid, {}))
        info["web"] = web_parts(cls)
        info["cooperative"] = cls.capabilities.cooperative
        info["ratable"] = not cls.capabilities.cooperative
        out.append(info)
    return out
