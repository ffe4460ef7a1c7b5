"""Every page reads the database a bounded number of times, however large its object: on the
synthetic federation (``zdb synth``, loaded as the command does it), the player with the longest
history, the tournament with the most players, the club with the most members and the whole
federation each take no more statements than a page of the smallest object would. A page that
asked once per row (per history entry, per participant, per member) would run hundreds.

Server times are a benchmark's figure, not a test's: ``benchmarks/pages.py`` measures them on the
same pages against the 100 ms budget.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from benchmarks.pages import StatementCounter, largest_pages, server_ms
from tests.databases import database_copy
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for

SCALE = "0.01"
#: the most statements any page runs (sign-in, the page's reads, their counts); the largest
#: tournament of this federation has 160 players, its busiest members dozens of history entries.
#: The tournament page's 17th reads whether its evaluation is provisional (one statement for any
#: number of tournaments: ``zdb.complaints.periods.provisional_marks``)
MOST_STATEMENTS = 17


@pytest.fixture(scope="module")
def federation(postgres_server: str, postgres_template: str) -> Iterator[tuple[TestClient, StatementCounter]]:
    with database_copy(postgres_server, postgres_template, "zdb_pages") as url:
        env = {**os.environ, "ZDB_DATABASE_URL": url}
        command = [sys.executable, "-m", "zdb", "synth", "--scale", SCALE]
        subprocess.run(command, env=env, check=True, capture_output=True)
        yield TestClient(create_app(Settings(database_url=url), recalculation=False)), StatementCounter(engine_for(url))


def test_every_page_of_the_largest_objects_runs_a_bounded_number_of_statements(
    federation: tuple[TestClient, StatementCounter],
) -> None:
    client, counter = federation
    statements = {}
    for path in largest_pages(client):
        client.get(path)  # warm: the first answer may read what later ones keep
        counter.count = 0
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert server_ms(answer) > 0, path
        statements[path] = counter.count
    assert {path: count for path, count in statements.items() if count > MOST_STATEMENTS} == {}
    assert max(statements.values()) > 0  # the counter sees the pages' reads
