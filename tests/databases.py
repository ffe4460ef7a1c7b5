"""Real databases for the tests, a plugin of the whole suite (``tests/conftest.py`` names it):
PostgreSQL from ZDB_TEST_DATABASE_URL (CI sets it) or a testcontainers container where Docker
runs; SQLite files for the embedded mode.

Every test gets its own database: PostgreSQL clones a template migrated once per session
(CREATE DATABASE … TEMPLATE), SQLite copies a migrated file. Schemas come from the
migrations only, never from ``create_all``.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from sqlalchemy.engine import make_url

from zdb.db import engine_for
from zdb.migrate import upgrade


def _docker_available() -> bool:
    return shutil.which("docker") is not None and Path("/var/run/docker.sock").exists()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A SQLAlchemy URL of a PostgreSQL server database to create test databases from."""
    url = os.environ.get("ZDB_TEST_DATABASE_URL")
    if url:
        yield url
        return
    if not _docker_available():
        pytest.skip("no PostgreSQL: set ZDB_TEST_DATABASE_URL or run Docker")
    from testcontainers.postgres import PostgresContainer

    with PostgresContainer("postgres:16-alpine", driver="psycopg") as container:
        yield container.get_connection_url()


def _admin(server_url: str) -> psycopg.Connection:  # type: ignore[type-arg]
    url = make_url(server_url)
    return psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        dbname=url.database,
        autocommit=True,
    )


def _with_database(server_url: str, name: str) -> str:
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> Iterator[str]:
    name = f"zdb_template_{uuid.uuid4().hex[:8]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    upgrade(_with_database(postgres_server, name))
    engine_for(_with_database(postgres_server, name)).dispose()
    yield name
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def database_copy(server: str, template: str, prefix: str = "zdb_test") -> Iterator[str]:
    """A database of its own on ``server``, copied from ``template``: its URL; dropped after."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with _admin(server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    url = _with_database(server, name)
    try:
        yield url
    finally:
        engine_for(url).dispose()
        with _admin(server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_server: str, postgres_template: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database of this test's own."""
    with database_copy(postgres_server, postgres_template) as url:
        yield url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite") / "template.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(sqlite_template: Path, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated SQLite file of this test's own (the embedded mode)."""
    path = tmp_path / "zdb.sqlite3"
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite:///{path}"
    yield url
    engine_for(url).dispose()


@pytest.fixture(params=["postgresql", "sqlite"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each scenario runs on both backends: production and embedded."""
    fixture = "postgres_url" if request.param == "postgresql" else "sqlite_url"
    return str(request.getfixturevalue(fixture))


def _redis_database_of_this_worker(url: str) -> str:
    """Parallel test processes (pytest-xdist) flush their broker database: each takes its own,
    the given number plus the worker's index (gw0 → +0, gw1 → +1)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    offset = int(worker.removeprefix("gw") or 0)
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + offset}"))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get("ZDB_TEST_REDIS_URL")
    if url:
        yield _redis_database_of_this_worker(url)
        return
    if not _docker_available():
        pytest.skip("no Redis: set ZDB_TEST_REDIS_URL or run Docker")
    from testcontainers.redis import RedisContainer

    with RedisContainer("redis:7-alpine") as container:
        yield f"redis://{container.get_container_host_ip()}:{container.get_exposed_port(6379)}/0"
