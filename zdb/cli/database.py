"""Which database a command works on, said before it starts, and checked before it is touched.

Every database command takes ``--database-url`` (or ``ZDB_DATABASE_URL``); without it, the
embedded SQLite file in ZDB's home folder (``zdb.config``), whatever the current folder. Each
command names the database on standard error ("database: …", a password hidden), so that a
command run against the wrong one is seen at once. Only ``zdb db upgrade`` and ``zdb serve``
create the embedded file; the others refuse a missing one with what to do, rather than leave
an empty file behind and fail on its missing tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = ["DATABASE_URL", "existing", "migrated", "named"]

DATABASE_URL = click.option(
    "--database-url",
    "url",
    envvar="ZDB_DATABASE_URL",
    help="Default: the embedded SQLite file zdb.sqlite3 in ZDB_HOME (else ~/.local/share/zdb).",
)


def named(url: str | None) -> str:
    """The URL the command works on (the option's, else the settings'), named on stderr."""
    from zdb.config import settings
    from zdb.db import database_name

    resolved = url or settings().database_url
    click.echo(f"database: {database_name(resolved)}", err=True)
    return resolved


def existing(url: str | None) -> str:
    """As ``named``; a SQLite file that does not exist stops the command (exit 1), uncreated."""
    from zdb.migrate import missing_database

    resolved = named(url)
    problem = missing_database(resolved)
    if problem is not None:
        raise click.ClickException(problem)
    return resolved


def migrated(url: str | None) -> Engine:
    """The engine of a database whose schema is this version's; otherwise the command stops
    with what to do (exit 1)."""
    from zdb.db import engine_for
    from zdb.migrate import schema_problem

    resolved = named(url)
    problem = schema_problem(resolved)
    if problem is not None:
        raise click.ClickException(problem)
    return engine_for(resolved)
