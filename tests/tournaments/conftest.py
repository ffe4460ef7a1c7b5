"""Fixtures of the tournaments' service tests: the real databases of ``tests/db/conftest.py``."""

from tests.db.conftest import (  # noqa: F401 - fixtures used by the tests
    database_url,
    postgres_server,
    postgres_template,
    postgres_url,
    sqlite_template,
    sqlite_url,
)
