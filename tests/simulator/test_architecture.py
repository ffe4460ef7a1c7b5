"""zdb/simulator is a pure library: it calls no clock, no file and no console, and the DWZ comes
from the engine, not a formula of its own. What it may import (the rating engine and its own
modules) is an import-linter contract in pyproject.toml."""

from __future__ import annotations

import ast
from pathlib import Path

import zdb.simulator
from tests.purity import assert_calls_no_clock_or_io, imports_of

PACKAGE = Path(zdb.simulator.__file__).parent


def test_simulator_reads_no_clock_and_does_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)


def test_the_dwz_module_uses_the_engine() -> None:
    tree = ast.parse((PACKAGE / "dwz.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert "evaluate_tournament" in imported
    assert not imported & {"expected_score", "solve_rating", "erf", "exp"}, "no DWZ arithmetic of its own"
    assert "math" not in imports_of(tree)
