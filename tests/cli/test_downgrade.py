"""``zdb db downgrade base`` removes every table and all data: it asks first, unless --yes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import create_engine, inspect

from zdb.cli import main
from zdb.migrate import upgrade


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _downgrade(url: str, *flags: str, answer: str | None = None) -> int:
    result = CliRunner().invoke(main, ["db", "downgrade", "base", *flags, "--database-url", url], input=answer)
    return result.exit_code


def test_going_down_to_base_asks_first(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'zdb.sqlite3'}"
    upgrade(url, "head")
    tables = _tables(url)
    assert tables
    assert _downgrade(url, answer="n\n") != 0  # refused
    assert _downgrade(url) != 0  # nobody to answer (a script without --yes)
    assert _tables(url) == tables
    assert _downgrade(url, answer="y\n") == 0
    assert _tables(url) == set()


def test_yes_goes_down_without_asking(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'zdb.sqlite3'}"
    upgrade(url, "head")
    assert _downgrade(url, "--yes") == 0
    assert _tables(url) == set()
