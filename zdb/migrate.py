"""Schema migrations (Alembic), the only way a schema is created: in production and in tests."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from zdb.db import create_db_engine, sqlite_file

__all__ = [
    "MIGRATIONS_PACKAGE",
    "alembic_config",
    "downgrade",
    "migrations_folder",
    "missing_database",
    "schema_problem",
    "upgrade",
]

#: the package that holds env.py, script.py.mako and versions/ (the project's top-level
#: migrations/ folder, mapped into the wheel by pyproject.toml; an editable install maps it too)
MIGRATIONS_PACKAGE = "zdb._migrations"


def migrations_folder() -> Path:
    """The migrations' folder, found through the installed package, not beside the source."""
    location = files(MIGRATIONS_PACKAGE)
    if not isinstance(location, Path):  # pragma: no cover - a zipped install, which pip never makes
        raise RuntimeError(f"the migrations must lie in a folder, not in {location}")
    return location


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_folder()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def missing_database(url: str) -> str | None:
    """What to do when ``url`` names a SQLite file that does not exist (None when it exists, or
    for PostgreSQL): the file is created only by ``zdb db upgrade`` and ``zdb serve``."""
    path = sqlite_file(url)
    if path is None or path.exists():
        return None
    return (
        f"there is no database at {path}: create it with `zdb db upgrade` (`zdb serve` creates it too), "
        "or name the one you mean with ZDB_HOME or --database-url"
    )


def schema_problem(url: str) -> str | None:
    """Why this version cannot work on the database at ``url`` (no schema, or another
    revision than its own), or None. A SQLite file that does not exist is not created."""
    missing = missing_database(url)
    if missing is not None:
        return missing
    script = ScriptDirectory.from_config(alembic_config(url))
    heads = set(script.get_heads())
    engine = create_db_engine(url)
    try:
        with engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
    finally:
        engine.dispose()
    if current == heads:
        return None
    if not current:
        return "the database has no schema yet: run `zdb db upgrade`"
    known = {revision.revision for revision in script.walk_revisions()}
    at, needed = ", ".join(sorted(current)), ", ".join(sorted(heads))
    if current - known:
        return f"the database's schema is at revision {at}, which this version of ZDB does not know (a newer one)"
    return f"the database's schema is at revision {at}; this version of ZDB needs {needed}: run `zdb db upgrade`"
