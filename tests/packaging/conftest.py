"""The packaging tests migrate a PostgreSQL database of their own: the server of ``tests/db``."""

from __future__ import annotations

from tests.db.conftest import postgres_server  # noqa: F401 - a fixture
