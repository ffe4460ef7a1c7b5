"""The embedded database lives in one place whatever the current folder: ZDB's home folder
(``ZDB_HOME``, else the user's data folder). Every command names the database it works on;
only ``zdb db upgrade`` and ``zdb serve`` create it, the others refuse a missing one and say
what to do, leaving no stray file behind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from zdb.cli import main
from zdb.config import Settings, settings, zdb_home


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"HOME": "/home/anna"}, "/home/anna/.local/share/zdb"),
        ({"HOME": "/home/anna", "XDG_DATA_HOME": "/data"}, "/data/zdb"),
        ({"HOME": "/home/anna", "XDG_DATA_HOME": "relative"}, "/home/anna/.local/share/zdb"),  # XDG ignores it
        ({"HOME": "/home/anna", "XDG_DATA_HOME": "/data", "ZDB_HOME": "/srv/zdb"}, "/srv/zdb"),
    ],
)
def test_the_home_folder(environment: dict[str, str], expected: str) -> None:
    assert zdb_home(environment) == Path(expected)
    current = Settings.from_environment(environment)
    assert current.home == Path(expected) and current.database_url == f"sqlite:///{expected}/zdb.sqlite3"


def test_a_relative_home_is_taken_from_where_it_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert zdb_home({"ZDB_HOME": "var"}) == tmp_path / "var"
    assert Settings.from_environment({"ZDB_HOME": "var", "ZDB_DATABASE_URL": "postgresql://db/zdb"}).database_url == (
        "postgresql://db/zdb"
    )


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """ZDB_HOME set, no database URL or broker: the embedded mode; the settings read anew."""
    folder = tmp_path / "home"
    monkeypatch.setenv("ZDB_HOME", str(folder))
    monkeypatch.delenv("ZDB_DATABASE_URL", raising=False)
    monkeypatch.delenv("ZDB_BROKER_URL", raising=False)
    settings.cache_clear()
    yield folder
    settings.cache_clear()


def _zdb_in(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(folder)
    return CliRunner().invoke(main, list(args))


def test_every_folder_works_on_the_one_database(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    named = f"database: sqlite:///{home / 'zdb.sqlite3'}\n"
    upgraded = _zdb_in(tmp_path / "project", monkeypatch, "db", "upgrade")
    assert upgraded.exit_code == 0 and upgraded.stderr == named, upgraded.output
    assert (home / "zdb.sqlite3").is_file()
    created = _zdb_in(tmp_path / "elsewhere", monkeypatch, "token", "create", "--role", "admin", "--label", "office")
    assert created.exit_code == 0 and created.stderr == named, created.output
    listed = _zdb_in(tmp_path / "project" / "deeper", monkeypatch, "token", "list")
    assert listed.exit_code == 0 and "office" in listed.stdout and listed.stderr == named
    assert {path.parent for path in tmp_path.rglob("*.sqlite3*")} == {home}  # no stray database anywhere
    assert not list(tmp_path.rglob("var"))


@pytest.mark.parametrize(
    "command",
    [
        ["token", "create", "--role", "admin"],
        ["token", "list"],
        ["token", "revoke", "zdb_abc"],
        ["recalc"],
        ["export"],
        ["verify"],
        ["db", "downgrade", "base"],
    ],
)
def test_a_missing_embedded_database_is_named_not_created(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    result = _zdb_in(tmp_path / "elsewhere", monkeypatch, *command)
    database = home / "zdb.sqlite3"
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"database: sqlite:///{database}",
        f"Error: there is no database at {database}: create it with `zdb db upgrade` (`zdb serve` creates it too), "
        "or name the one you mean with ZDB_HOME or --database-url",
    ]
    assert not home.exists() and list((tmp_path / "elsewhere").iterdir()) == []
