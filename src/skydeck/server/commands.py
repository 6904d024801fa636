"""`skydeck serve`: the web platform on uvicorn."""

from __future__ import annotations

import argparse
import logging

from skydeck.server.settings import add_flags, from_args


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "serve",
        help="start the web platform (lobby, matches, replays)",
        description="Every flag can also be set in the environment as SKYDECK_<NAME> "
        "(a flag wins); PROTOCOL.md lists them with the limits they set.",
    )
    add_flags(p)
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
        limits=not args.no_limits,
    )
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        print(
            f"{result['matches']} concurrent {result['game']} matches over WebSockets, "
            f"{result['workers']} worker(s), "
            f"{result['seconds']} s, {result['storage']}, {result['compression']}, "
            f"limits {result['limits']}, "
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


#: Settings of the cluster itself, not handed on to its workers.
CLUSTER_ONLY = ("host", "port", "database_url", "workers")


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from skydeck.server.app import create_app
    from skydeck.server.compression import LargeFramesProtocol

    settings = from_args(args)
    if settings.workers > 1:
        from skydeck.server.cluster import run_cluster

        names = [n for n in type(settings).model_fields if n not in CLUSTER_ONLY]
        return run_cluster(settings, settings.as_flags(*names))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    front = None
    if args.front:
        fhost, _, fport = args.front.rpartition(":")
        front = (fhost, int(fport))
    app = create_app(settings=settings, tune_gc=True, worker=args.worker, front=front)
    store = app.state.hub.storage
    where = f"Skydeck {args.worker} listens" if args.worker else "Skydeck is"
    print(
        f"{where} at http://{settings.host}:{settings.port}/  (database: {store.url}; "
        f"{store.durability()}; limits {'on' if settings.limits else 'OFF'})"
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        ws_max_size=settings.ws_max_frame,
        ws=LargeFramesProtocol,  # permessage-deflate for large frames only
    )
    return 0
