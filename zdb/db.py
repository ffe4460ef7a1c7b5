"""Database engines and the unit of work.

The unit of work is the one place that commits: a request, a task or a command opens one,
services and repositories only flush inside it. Work that must wait for the commit (a request
to another process that reads what was written) is registered with ``after_commit`` and runs
only once the transaction has committed; a rollback drops it. SQLite (embedded mode) gets foreign keys and
a busy timeout so that the serving thread and the recalculation thread can share the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

__all__ = [
    "after_commit",
    "create_db_engine",
    "database_key",
    "database_name",
    "engine_for",
    "is_postgres",
    "session_factory",
    "sqlite_file",
    "unit_of_work",
]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA busy_timeout = 30000")
    cursor.close()


def create_db_engine(url: str) -> Engine:
    """An engine for ``url``; a relative SQLite file's folder is created."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return create_engine(url, pool_pre_ping=True)


@cache
def engine_for(url: str) -> Engine:
    return create_db_engine(url)


def database_key(bind: Engine | Connection) -> str:
    """Which database an engine or connection is on, as a key (its URL without the password)."""
    return bind.engine.url.render_as_string(hide_password=True)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (absolute), or None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database)).absolute()


def database_name(url: str) -> str:
    """The database a URL names, as an operator reads it: a SQLite file's absolute path, any
    other URL with its password hidden."""
    path = sqlite_file(url)
    if path is not None:
        return f"sqlite:///{path}"
    return make_url(url).render_as_string(hide_password=True)


def is_postgres(bind: Session | Connection | Engine) -> bool:
    """PostgreSQL (production) or SQLite (the embedded mode), for a session, a connection or an
    engine: the one place that tells the two databases apart (``zdb.locks``, which stands beside
    this module and below everything, keeps its own test)."""
    if isinstance(bind, Session):
        return is_postgres(bind.get_bind())
    return bind.dialect.name == "postgresql"


@cache
def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


#: session.info key: the callbacks the unit of work runs after its commit, by key
_AFTER_COMMIT = "zdb.after_commit"


def after_commit(session: Session, callback: Callable[[], None], key: str | None = None) -> None:
    """Run ``callback`` once the unit of work that owns ``session`` has committed. Callbacks
    with the same ``key`` (default: the callback itself) run once per transaction, in the order
    of their first registration. A callback handles its own failures: the commit is done."""
    callbacks: dict[object, Callable[[], None]] = session.info.setdefault(_AFTER_COMMIT, {})
    callbacks.setdefault(key if key is not None else callback, callback)


@contextmanager
def unit_of_work(engine: Engine) -> Iterator[Session]:
    """One transaction: committed when the block ends normally, rolled back otherwise. The
    callbacks registered with ``after_commit`` run only after the commit."""
    session = session_factory(engine)()
    try:
        with session.begin():
            yield session
        callbacks: dict[object, Callable[[], None]] = session.info.pop(_AFTER_COMMIT, {})
    finally:
        session.close()
    for callback in callbacks.values():
        callback()
