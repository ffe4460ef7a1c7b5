"""Fixtures of the deployment tests: the streaming replica (``tests/deploy/replica.py``), made
once per test session from the test's PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.deploy.replica import Replica


@pytest.fixture(scope="session")
def replica(postgres_server: str) -> Iterator[Replica]:
    made = Replica(postgres_server)
    try:
        made.make()
        made.start()
        yield made
    finally:
        made.remove()
