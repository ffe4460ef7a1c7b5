"""The notification tests use the API tests' databases and world (``tests/api/conftest.py``)."""

from tests.api.conftest import client, fresh  # noqa: F401 - fixtures
