"""Fixtures of the API tests: the real databases of ``tests/databases.py`` (each test's own,
or one world per module and backend for the read-only tests), and a client on them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World, build_world
from tests.databases import database_copy
from tests.db.scenario import recalc
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def world_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database of this module's own, on each backend."""
    if request.param == "postgresql":
        server = request.getfixturevalue("postgres_server")
        template = request.getfixturevalue("postgres_template")
        with database_copy(server, template, "zdb_api") as url:
            yield url
    else:
        template: Path = request.getfixturevalue("sqlite_template")
        path = tmp_path_factory.mktemp("api") / "zdb.sqlite3"
        shutil.copyfile(template, path)
        url = f"sqlite:///{path}"
        yield url
        engine_for(url).dispose()


@pytest.fixture(scope="module")
def world(world_url: str) -> Iterator[World]:
    """The read-only tests' world (see ``tests/api/world.py``), its application started: in
    PostgreSQL the hot reads take the read pool (``zdb.api.read_pool``), in SQLite the sessions."""
    built = build_world(world_url)
    with built.client:
        yield built


@pytest.fixture
def client(database_url: str) -> TestClient:
    """A client on an empty database of this test's own, the recalculation left to the test."""
    return TestClient(create_app(Settings(database_url=database_url), recalculation=False))


@pytest.fixture
def fresh(database_url: str) -> World:
    """The world in this test's own database, its pending tournament evaluated (for tests that write)."""
    made = build_world(database_url)
    recalc(database_url)
    return made
