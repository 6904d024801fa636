"""The web platform: lobby, live matches over WebSockets, clocks, storage, replays."""

from skydeck.server.app import create_app

__all__ = ["create_app"]
