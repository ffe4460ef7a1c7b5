"""Checks that a package is a pure library: it calls no clock, no file and no console. Shared
by the architecture tests of every pure package; what a package may import is an import-linter
contract (pyproject.toml, ``lint-imports`` in ``make lint``)."""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["FORBIDDEN_CALLS", "assert_calls_no_clock_or_io", "imports_of"]

FORBIDDEN_CALLS = frozenset({"today", "now", "utcnow", "time", "open", "print", "input", "random"})


def imports_of(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports hide what a module depends on"
            names.add(node.module or "")
    return names


def _sources(package: Path) -> list[Path]:
    """The modules of a package, or the one module ``package`` names."""
    sources = [package] if package.is_file() else sorted(package.rglob("*.py"))
    assert sources, f"no modules in {package}"
    return sources


def assert_calls_no_clock_or_io(package: Path) -> None:
    for source in _sources(package):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                assert name not in FORBIDDEN_CALLS, f"{source.name}:{node.lineno} calls {name}"
