"""The server's routes, one APIRouter per resource (FastAPI's "bigger applications"
layout): ``games`` (the catalogue and the health check), ``matches`` (lobby requests,
headers, replays, records), ``websocket`` (a match's WebSocket), ``pages`` (the web pages).
Each reads the server's parts from ``app.state`` through ``deps``; ``app.create_app``
builds them and includes every router."""
