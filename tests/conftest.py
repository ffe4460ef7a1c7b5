"""Shared fixtures: where the shared specification lives, and the vectors read from it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

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
