"""Shared fixtures: where the shared specification lives, and the vectors read from it; ZDB's
home folder is a temporary one, so that no test touches the embedded database of the person
running the tests; the real databases every test may ask for (``tests/databases.py``, one
plugin for the whole suite, so that no folder names them again)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["tests.databases"]

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ZDB_SHARED", ROOT.parent / "shared"))
VECTORS_FILE = SHARED / "spec" / "vectors.json"


def load_vectors() -> dict[str, Any]:
    """vectors.json, read at test time: known answers never live in test code."""
    if not VECTORS_FILE.exists():
        pytest.exit(f"{VECTORS_FILE} is missing: set ZDB_SHARED to the shared/ folder", returncode=4)
    with VECTORS_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)  # type: ignore[no-any-return]


VECTORS = load_vectors()


@pytest.fixture(scope="session", autouse=True)
def zdb_home_of_the_tests(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from zdb.config import settings

    home = tmp_path_factory.mktemp("zdb-home")
    before = os.environ.get("ZDB_HOME")
    os.environ["ZDB_HOME"] = str(home)
    settings.cache_clear()
    yield home
    if before is None:
        del os.environ["ZDB_HOME"]
    else:
        os.environ["ZDB_HOME"] = before
    settings.cache_clear()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Each phase's report kept on the test (``rep_setup``, ``rep_call``), so that a fixture's
    teardown can tell a failed test from a passed one (the drills print their services' whole
    log only where they failed)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
