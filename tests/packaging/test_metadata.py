"""The wheel's contents as pyproject.toml declares them: every package of the source tree is
listed, and the migrations are a package of their own (``zdb._migrations``) that Alembic is
pointed at, so that an installed wheel migrates without the source tree beside it."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

from setuptools import find_packages

from tests.conftest import ROOT
from zdb.migrate import MIGRATIONS_PACKAGE, alembic_config, migrations_folder

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_package_of_the_source_tree_is_listed() -> None:
    mapped = tuple(SETUPTOOLS["package-dir"])
    listed = {name for name in SETUPTOOLS["packages"] if not name.startswith(mapped)}
    assert listed == set(find_packages(str(ROOT), include=["zdb", "zdb.*", "workers", "workers.*"]))


def test_the_migrations_folder_ships_as_a_package() -> None:
    assert SETUPTOOLS["package-dir"] == {MIGRATIONS_PACKAGE: "migrations"}
    assert {MIGRATIONS_PACKAGE, f"{MIGRATIONS_PACKAGE}.versions"} <= set(SETUPTOOLS["packages"])
    assert "script.py.mako" in SETUPTOOLS["package-data"][MIGRATIONS_PACKAGE]
    # the folder has nothing the wheel would leave out
    shipped = {"__init__.py", "env.py", "script.py.mako", "versions"}
    assert {path.name for path in (ROOT / "migrations").iterdir() if path.name != "__pycache__"} == shipped


def test_alembic_reads_the_migrations_through_the_installed_package() -> None:
    spec = importlib.util.find_spec(MIGRATIONS_PACKAGE)
    assert spec is not None and spec.origin is not None
    folder = migrations_folder()
    assert folder == Path(spec.origin).parent
    assert alembic_config("sqlite://").get_main_option("script_location") == str(folder)
    assert (folder / "env.py").is_file() and (folder / "script.py.mako").is_file()
    revisions = sorted(path.name for path in (folder / "versions").glob("0*.py"))
    assert revisions and revisions == sorted(path.name for path in (ROOT / "migrations" / "versions").glob("0*.py"))
