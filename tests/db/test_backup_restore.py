"""Backup and restore as the README tells an operator to do them: ``pg_dump`` of a populated
database, ``pg_restore`` into an empty database, and ``zdb verify`` clean on the copy, which
reads back the same ratings and takes the next submission as the original would (its
sequences restored with it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.engine import make_url

from tests.api.test_submissions import _body, _post
from tests.api.world import World, build_world
from tests.conftest import ROOT
from tests.databases import _admin, _with_database
from tests.db.scenario import differences, exported, recalc
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.timeline.models import PlayerRating

pytestmark = pytest.mark.skipif(
    shutil.which("pg_dump") is None or shutil.which("pg_restore") is None, reason="no pg_dump/pg_restore"
)


def _libpq(url: str) -> str:
    """The SQLAlchemy URL as the PostgreSQL tools take it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def empty_database(postgres_server: str) -> Iterator[str]:
    """A database with nothing in it, not even the schema (as a new server would have)."""
    name = f"zdb_restore_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    url = _with_database(postgres_server, name)
    yield url
    engine_for(url).dispose()
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _ratings(url: str) -> list[tuple[int, int | None, int | None]]:
    with unit_of_work(engine_for(url)) as session:
        rows = session.execute(
            select(PlayerRating.player_pkz, PlayerRating.rating, PlayerRating.rating_index).order_by(
                PlayerRating.player_pkz
            )
        )
        return [tuple(row) for row in rows]


def test_a_dump_restored_into_an_empty_database_verifies_clean(
    postgres_url: str, empty_database: str, tmp_path: Path
) -> None:
    original = build_world(postgres_url)
    assert recalc(postgres_url).clean
    dump = tmp_path / "zdb.dump"
    subprocess.run(["pg_dump", "--format=custom", "--file", str(dump), _libpq(postgres_url)], check=True)
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", _libpq(empty_database), str(dump)], check=True
    )
    env = {**os.environ, "ZDB_DATABASE_URL": empty_database}
    verified = subprocess.run(
        [sys.executable, "-m", "zdb", "verify"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert _ratings(empty_database) == _ratings(postgres_url) != []
    assert exported(empty_database) == exported(postgres_url)
    # The copy takes new work: its sequences and tokens came with it.
    client = TestClient(create_app(Settings(database_url=empty_database, read_pool_size=2), recalculation=False))
    copy = World(empty_database, client, original.pkz, original.tokens)
    made = _post(copy, _body(copy))
    assert made.status_code == 201, made.text
    assert recalc(empty_database).clean
    assert differences(empty_database) == []
