"""Alembic environment: the URL comes from the caller (``zdb db upgrade``) or the settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from alembic import context
from sqlalchemy import Connection

from zdb.config import settings
from zdb.db import create_db_engine
from zdb.models import Base

config = context.config
url = config.get_main_option("sqlalchemy.url") or settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


@contextmanager
def _sqlite_foreign_keys_deferred(connection: Connection) -> Iterator[None]:
    """SQLite changes a table in batch mode by copying it and dropping the original; with
    foreign keys enforced, dropping a table that other rows refer to fails (a populated embedded
    database could not be upgraded or downgraded). The check is switched off around the
    migrations (the pragma works only outside a transaction) and every key is checked after."""
    if connection.dialect.name != "sqlite" or connection.in_transaction():
        yield
        return
    connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        connection.exec_driver_sql("PRAGMA foreign_keys = ON")
    if broken:
        raise RuntimeError(f"the migration left rows whose foreign keys name nothing: {broken[:5]}")


def _migrate(connection: Connection) -> None:
    with _sqlite_foreign_keys_deferred(connection):
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        if connection.in_transaction():
            connection.commit()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    engine = create_db_engine(url)
    with engine.connect() as connection:
        _migrate(connection)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
