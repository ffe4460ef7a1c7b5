"""Fixtures of the page tests: the API tests' world (``tests/api/world.py``) in a PostgreSQL
database of this module's own, its pending tournament left pending, and a client on it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World, build_world
from tests.db.conftest import (  # noqa: F401 - fixtures used here and by the tests
    _admin,
    _with_database,
    postgres_server,
    postgres_template,
    postgres_url,
)
from zdb.db import engine_for


@pytest.fixture(scope="module")
def world_database(postgres_server: str, postgres_template: str) -> Iterator[str]:  # noqa: F811
    name = f"zdb_web_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    url = _with_database(postgres_server, name)
    yield url
    engine_for(url).dispose()
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def world(world_database: str) -> World:
    return build_world(world_database)


@pytest.fixture(scope="module")
def pages(world: World) -> TestClient:
    """A client for the pages: German unless a test asks otherwise, redirects not followed."""
    return TestClient(world.client.app, follow_redirects=False)
