"""zdb/simulator is a pure library: it imports only the rating engine, its own modules and a
small allow-list of the standard library; the DWZ comes from the engine, not a formula of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import zdb.simulator
from tests.purity import assert_calls_no_clock_or_io, assert_imports_only, imports_of

PACKAGE = Path(zdb.simulator.__file__).parent
ALLOWED = ("zdb.simulator", "zdb.rating")
ALLOWED_STDLIB = {
    "__future__",
    "bisect",
    "collections",
    "dataclasses",
    "datetime",
    "enum",
    "fractions",
    "math",
    "typing",
}


def test_simulator_imports_only_allowed_modules() -> None:
    assert_imports_only(PACKAGE, ALLOWED, ALLOWED_STDLIB)


def test_simulator_reads_no_clock_and_does_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)


def test_the_dwz_module_uses_the_engine() -> None:
    tree = ast.parse((PACKAGE / "dwz.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert "evaluate_tournament" in imported
    assert not imported & {"expected_score", "solve_rating", "erf", "exp"}, "no DWZ arithmetic of its own"
    assert "math" not in imports_of(tree)
