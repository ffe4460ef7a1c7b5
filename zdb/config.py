"""Settings from the environment, read once per process.

With nothing set, ZDB runs embedded: a SQLite file under ``./var`` and the recalculation in a
background thread of the serving process. ``ZDB_DATABASE_URL`` (PostgreSQL) and
``ZDB_BROKER_URL`` (Redis) select the production mode with a Celery worker.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["DEFAULT_DATABASE_URL", "Settings", "settings"]

DEFAULT_DATABASE_URL = f"sqlite:///{Path('var') / 'zdb.sqlite3'}"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    broker_url: str | None = None
    #: a run of the recalculation never takes longer than this (Celery visibility timeout > it)
    recalc_time_limit: int = 3600
    #: the sweeper re-dispatches a recalculation this often while the dirty position is set
    sweep_seconds: float = 30.0
    #: connections of each serving process's pool for the hot reads (PostgreSQL only)
    read_pool_size: int = 10

    @property
    def embedded(self) -> bool:
        """No broker: the recalculation runs in a thread of the serving process."""
        return self.broker_url is None

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)
        return cls(
            database_url=env.get("ZDB_DATABASE_URL") or DEFAULT_DATABASE_URL,
            broker_url=env.get("ZDB_BROKER_URL") or None,
            recalc_time_limit=int(env.get("ZDB_RECALC_TIME_LIMIT", "3600")),
            sweep_seconds=float(env.get("ZDB_SWEEP_SECONDS", "30")),
            read_pool_size=int(env.get("ZDB_READ_POOL_SIZE", "10")),
        )


@cache
def settings() -> Settings:
    return Settings.from_environment()
