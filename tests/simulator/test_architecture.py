"""zdb/simulator is a pure library: it imports only the rating engine, its own modules and a
small allow-list of the standard library; the DWZ comes from the engine, not a formula of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import zdb.simulator

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
FORBIDDEN_CALLS = {"today", "now", "utcnow", "time", "open", "print", "input", "random"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports hide what a module depends on"
            names.add(node.module or "")
    return names


def test_simulator_imports_only_allowed_modules() -> None:
    sources = sorted(PACKAGE.rglob("*.py"))
    assert sources
    for source in sources:
        for name in _imports(ast.parse(source.read_text(encoding="utf-8"))):
            assert name.startswith(ALLOWED) or name.split(".")[0] in ALLOWED_STDLIB, f"{source.name} imports {name}"


def test_simulator_reads_no_clock_and_does_no_io() -> None:
    for source in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                assert name not in FORBIDDEN_CALLS, f"{source.name}:{node.lineno} calls {name}"


def test_the_dwz_module_uses_the_engine() -> None:
    tree = ast.parse((PACKAGE / "dwz.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert "evaluate_tournament" in imported
    assert not imported & {"expected_score", "solve_rating", "erf", "exp"}, "no DWZ arithmetic of its own"
    assert "math" not in _imports(tree)
