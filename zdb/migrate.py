"""Schema migrations (Alembic), the only way a schema is created: in production and in tests."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from zdb.db import create_db_engine

__all__ = ["MIGRATIONS", "alembic_config", "downgrade", "schema_problem", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def schema_problem(url: str) -> str | None:
    """Why this version cannot work on the database at ``url`` (no schema, or another
    revision than its own), or None. A SQLite file that does not exist is not created."""
    parsed = make_url(url)
    path = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if path not in (None, "", ":memory:") and not Path(str(path)).exists():
        return f"there is no database at {path}: create it with `zdb db upgrade`"
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
