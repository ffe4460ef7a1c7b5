"""Fixtures of the page tests: the API tests' world (``tests/api/world.py``) in a database of
this module's own on each backend (PostgreSQL and the embedded SQLite file), its pending
tournament left pending, and a client on it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import world, world_url  # noqa: F401 - fixtures used here and by the tests
from tests.api.world import World
from tests.web.same_site import SAME_SITE


@pytest.fixture(scope="module")
def pages(world: World) -> TestClient:  # noqa: F811
    """A client for the pages: German unless a test asks otherwise, redirects not followed."""
    return TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
