"""zdb/standings is a pure library: it imports only the engine's values, the JSON readers of the
engine's format, its own modules and a small allow-list of the standard library."""

from __future__ import annotations

import ast
from pathlib import Path

import zdb.standings

PACKAGE = Path(zdb.standings.__file__).parent
ALLOWED = ("zdb.standings", "zdb.rating", "zdb.formats.rating_json", "zdb.formats.trf")
ALLOWED_STDLIB = {"__future__", "collections", "dataclasses", "enum", "fractions", "types", "typing"}
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


def test_standings_import_only_allowed_modules() -> None:
    sources = sorted(PACKAGE.rglob("*.py"))
    assert sources
    for source in sources:
        for name in _imports(ast.parse(source.read_text(encoding="utf-8"))):
            assert name.startswith(ALLOWED) or name.split(".")[0] in ALLOWED_STDLIB, f"{source.name} imports {name}"


def test_standings_read_no_clock_and_do_no_io() -> None:
    for source in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                assert name not in FORBIDDEN_CALLS, f"{source.name}:{node.lineno} calls {name}"
