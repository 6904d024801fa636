"""`skydeck serve`: the web platform on uvicorn."""

from __future__ import annotations

import argparse
import logging


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="start the web platform (lobby, matches, replays)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    p.add_argument("--port", type=int, default=8000, help="TCP port")
    p.add_argument(
        "--db",
        default=None,
        help="SQLAlchemy database URL (default: $SKYDECK_DATABASE_URL, "
        "else sqlite:///skydeck-data/skydeck.sqlite); postgresql://user@host/db works",
    )
    p.add_argument(
        "--ai-delay", type=float, default=0.4, help="seconds an AI seat waits before moving"
    )
    p.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from skydeck.server.app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = create_app(args.db, ai_delay=args.ai_delay)
    print(f"Skydeck is at http://{args.host}:{args.port}/  (database: {app.state.hub.storage.url})")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=1 << 20)
    return 0
