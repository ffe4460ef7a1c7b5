"""The asynchronous connection pool of the hot reads (``zdb.api.hot_reads``), in PostgreSQL.

The player card and the club list are the answers asked for most (club software mirrors its
members every night, federation sites link every player's card); they run on a
``psycopg_pool.AsyncConnectionPool`` in the event loop instead of a thread of the threadpool
with a SQLAlchemy session. The application opens the pool in its lifespan and closes it with
it; without a pool (SQLite, the embedded mode, or an application whose lifespan never ran) the
hot reads take the sessions of every other request.

Connections are in autocommit (the statements only read) and give rows as dicts; numeric
columns are read as floats, as the ORM maps them (``asdecimal=False``), so that both ways give
the same values.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from psycopg import AsyncConnection
from psycopg.rows import DictRow, dict_row
from psycopg.types.numeric import FloatLoader
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import Engine

from zdb.db import is_postgres

__all__ = ["ReadPool", "open_read_pool"]

_WAIT = 10.0  # seconds


@dataclass(frozen=True, slots=True)
class ReadPool:
    """An open pool and the event loop it belongs to: its connections serve that loop only (a
    test may drive one application from several loops; those take the sessions)."""

    pool: AsyncConnectionPool[AsyncConnection[DictRow]]
    loop: asyncio.AbstractEventLoop

    def serves_this_loop(self) -> bool:
        return asyncio.get_running_loop() is self.loop


async def _configure(connection: AsyncConnection[DictRow]) -> None:
    connection.adapters.register_loader("numeric", FloatLoader)


async def open_read_pool(engine: Engine, size: int) -> ReadPool | None:
    """A pool of ``size`` connections to ``engine``'s database, opened on the running loop
    (connections are made in the background: the application starts while the database does);
    ``None`` unless it is PostgreSQL."""
    if not is_postgres(engine):
        return None
    conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    pool = AsyncConnectionPool(
        conninfo,
        connection_class=AsyncConnection[DictRow],
        kwargs={"autocommit": True, "row_factory": dict_row},
        min_size=size,
        max_size=size,
        open=False,
        # A request waits this long for a connection, then is answered 503 (PoolTimeout):
        # while the database is out of reach, clients hear so in seconds, not after half a minute.
        timeout=_WAIT,
        configure=_configure,
        # A connection is checked as it is handed out: after a restart of the database every
        # connection of the pool is broken, and without the check each would fail one request.
        check=AsyncConnectionPool.check_connection,
        name="zdb-hot-reads",
    )
    await pool.open(wait=False)
    return ReadPool(pool, asyncio.get_running_loop())
