"""Alembic environment: runs on the connection that ``storage.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from skydeck.server.storage import make_engine, metadata

config = context.config
target_metadata = metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    # Stand-alone use (`alembic -x url=... upgrade head`).
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database with -x url=...")
    engine = make_engine(url)
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
