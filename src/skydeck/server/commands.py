"""`skydeck serve`: the web platform on uvicorn."""

from __future__ import annotations

import argparse
import logging
import os


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
    p.add_argument(
        "--clock-grace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a clock (Stellium's draw, a move clock) waits for its seat to "
        "connect before it starts anyway (default 60)",
    )
    p.add_argument(
        "--models",
        default=None,
        metavar="DIR",
        help="folder of trained models (`skydeck train`) the lobby offers as policy:NAME "
        "(default: $SKYDECK_MODELS, else skydeck-data/models)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N server processes over one PostgreSQL (--db) behind HAProxy on --port, "
        "each match in one worker (hashed on its id); a dead worker's matches go to the others",
    )
    # Set by the --workers launcher for each worker it starts (not for people).
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    p.add_argument("--front", default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=serve)

    p = subparsers.add_parser(
        "soak",
        help="many bot matches of every game against a real server, with clock timeouts "
        "and reconnects: errors, latency and memory over time, records replayed",
    )
    p.add_argument("--matches", type=int, default=200, help="concurrent matches")
    p.add_argument("--minutes", type=float, default=10.0, help="how long")
    p.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=soak)


def bench_server(args: argparse.Namespace) -> int:
    import json

    from skydeck.server.bench import run_bench

    result = run_bench(
        args.match_game,
        matches=args.matches,
        seconds=args.seconds,
        deflate=not args.no_deflate,
        workers=args.workers,
        db=args.db,
        once=args.once,
    )
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        print(
            f"{result['matches']} concurrent {result['game']} matches over WebSockets, "
            f"{result['workers']} worker(s), "
            f"{result['seconds']} s, {result['storage']}, {result['compression']}, "
            f"{result['event_loop']}; {result['method']}:\n"
            f"  {result['moves']} moves, {result['moves_per_s']} moves/s, "
            f"latency p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, "
            f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms, {result['errors']} errors\n"
            f"  CPU per move: server {result['server_cpu_ms_per_move']} ms, "
            f"bots {result['bots_cpu_ms_per_move']} ms; load average before "
            f"{result['load_before']}, after {result['load_average']}"
        )
    return 0


def soak(args: argparse.Namespace) -> int:
    import json

    from skydeck.server.soak import format_report, run_soak

    if args.matches < 1 or args.minutes <= 0:
        raise SystemExit("--matches must be at least 1 and --minutes above 0")
    report = run_soak(matches=args.matches, seconds=args.minutes * 60, db=args.db)
    print(json.dumps(report) if args.json else format_report(report))
    ok = not report["errors"] and not report["replay_mismatches"] and report["memory_flat"]
    return 0 if ok else 1


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from skydeck.server.app import create_app
    from skydeck.server.compression import LargeFramesProtocol

    if args.workers < 1:
        raise SystemExit(f"--workers must be at least 1, got {args.workers}")
    if args.models:  # the workers of --workers N inherit it
        from skydeck.server.ai import MODELS_ENV

        os.environ[MODELS_ENV] = args.models
    if args.workers > 1:
        from skydeck.server.cluster import run_cluster

        passed = ["--ai-delay", str(args.ai_delay)]
        if args.clock_grace is not None:
            passed += ["--clock-grace", str(args.clock_grace)]
        return run_cluster(args.workers, args.host, args.port, args.db, passed)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    grace = {} if args.clock_grace is None else {"clock_grace": args.clock_grace}
    front = None
    if args.front:
        fhost, _, fport = args.front.rpartition(":")
        front = (fhost, int(fport))
    app = create_app(
        args.db, ai_delay=args.ai_delay, tune_gc=True, worker=args.worker, front=front, **grace
    )
    store = app.state.hub.storage
    where = f"Skydeck {args.worker} listens" if args.worker else "Skydeck is"
    print(
        f"{where} at http://{args.host}:{args.port}/  (database: {store.url}; {store.durability()})"
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=1 << 20,
        ws=LargeFramesProtocol,  # permessage-deflate for large frames only
    )
    return 0
