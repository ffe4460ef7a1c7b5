"""The notification tests use the API tests' databases and world (``tests/api/conftest.py``)."""

from tests.api.conftest import client, fresh  # noqa: F401 - fixtures
from tests.db.conftest import (  # noqa: F401 - fixtures
    database_url,
    postgres_server,
    postgres_template,
    postgres_url,
    redis_url,
    sqlite_template,
    sqlite_url,
)
