"""The throw-away PostgreSQL server of the tests (it lives in the package, where
``skydeck bench server --workers N`` uses it too)."""

from skydeck.server.pgtemp import PostgresServer, find_bindir

__all__ = ["PostgresServer", "find_bindir"]
