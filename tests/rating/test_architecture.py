"""zdb/rating is a pure library: it imports only its own modules and a small allow-list of the
standard library (no I/O, no clock, no randomness, no framework, no database)."""

from __future__ import annotations

import ast
from pathlib import Path

import zdb.rating

PACKAGE = Path(zdb.rating.__file__).parent
ALLOWED_STDLIB = {
    "__future__",
    "bisect",
    "collections",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "math",
    "operator",
    "statistics",
    "types",
    "typing",
}
FORBIDDEN_CALLS = {"today", "now", "utcnow", "time", "open", "print", "input", "random"}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports hide what a module depends on"
            names.add(node.module or "")
    return names


def test_rating_imports_only_allowed_modules() -> None:
    sources = sorted(PACKAGE.rglob("*.py"))
    assert sources
    for source in sources:
        for name in _imports(ast.parse(source.read_text(encoding="utf-8"))):
            top = name.split(".")[0]
            assert name.startswith("zdb.rating") or top in ALLOWED_STDLIB, f"{source.name} imports {name}"


def test_rating_reads_no_clock_and_does_no_io() -> None:
    for source in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                assert name not in FORBIDDEN_CALLS, f"{source.name}:{node.lineno} calls {name}"
