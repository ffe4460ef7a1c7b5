"""Fixtures of the portal door's tests: the API tests' worlds (``tests/api/world.py``) on both
backends, and clients of the portal's token endpoint made in them."""

from __future__ import annotations

from tests.api.conftest import client, fresh, world, world_url  # noqa: F401 - fixtures used by the tests
