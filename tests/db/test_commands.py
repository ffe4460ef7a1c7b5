"""The database commands as an operator runs them: ``zdb import`` then ``zdb export`` gives
the vectors' expected results, ``zdb verify`` finds a tampered figure, bad input and a database
without this version's schema are refused with one line and nothing stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import text, update
from sqlalchemy.engine import make_url

from tests.conftest import VECTORS
from tests.db.scenario import assert_export_equals, exported
from zdb.cli import main
from zdb.db import database_name, engine_for
from zdb.exchange import events_import
from zdb.migrate import downgrade, upgrade
from zdb.timeline.models import PlayerRating

REPLAY = VECTORS["replays"][0]


def _zdb(url: str, *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr; a command that ran names its database in stderr's first
    line, which is checked and left out."""
    result = CliRunner().invoke(main, [*args, "--database-url", url])
    if result.stderr.startswith("Usage:"):  # refused by click before the command ran
        return result.exit_code, result.stdout, result.stderr
    named, _, rest = result.stderr.partition("\n")
    assert named == f"database: {database_name(url)}", result.stderr
    return result.exit_code, result.stdout, rest


def _file(tmp_path: Path, document: Any) -> str:
    path = tmp_path / "timeline.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_import_export_and_verify(database_url: str, tmp_path: Path) -> None:
    document = {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]}
    code, out, err = _zdb(database_url, "import", "--no-recalc", _file(tmp_path, document))
    assert code == 0, err
    states, tournaments = len(REPLAY["initial_states"]), len(REPLAY["events"])
    assert f"{states} initial states, {tournaments} tournaments, 0 withdrawals" in out
    code, out, err = _zdb(database_url, "export")
    assert code == 0 and "changes wait for a recalculation" in err
    assert _zdb(database_url, "recalc")[0] == 0
    code, out, err = _zdb(database_url, "export")
    assert code == 0 and err == ""
    assert_export_equals(json.loads(out), REPLAY["expected"])
    assert _zdb(database_url, "verify")[0] == 0
    with engine_for(database_url).begin() as connection:
        connection.execute(update(PlayerRating).values(rating=PlayerRating.rating + 1))
    code, out, err = _zdb(database_url, "verify")
    assert code == 1 and "differences" in err and out


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([{"withdraw": 99}], "events[4]: tournament 99 does not exist"),
        ([dict(REPLAY["events"][0], players=[{"pid": "X", "fide_rating": 10**15}])], "must be between 0 and 3500"),
    ],
)
def test_a_bad_import_stores_nothing(database_url: str, tmp_path: Path, events: list[Any], message: str) -> None:
    document = {"initial_states": REPLAY["initial_states"], "events": [*REPLAY["events"][1:], *events]}
    code, out, err = _zdb(database_url, "import", _file(tmp_path, document))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err
    assert exported(database_url)["history"] == {}


def test_a_refused_tournament_among_others_is_named(database_url: str, tmp_path: Path) -> None:
    """Consecutive tournaments are submitted together: a refusal still names its event."""
    first, *others = REPLAY["events"]
    events = [first, {"withdraw": first["id"]}, *others[:2], first, *others[2:]]
    document = {"initial_states": REPLAY["initial_states"], "events": events}
    code, out, err = _zdb(database_url, "import", _file(tmp_path, document))
    assert code == 2 and out == ""
    assert f"events[4]: tournament {first['id']} was withdrawn; its id is never reused" in err
    assert exported(database_url)["history"] == {}


def test_a_large_import_checks_its_keys_once_at_the_end(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events_import, "OWN_TABLES_FROM", 1)  # every import counts as large
    document = {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]}
    code, _, err = _zdb(postgres_url, "import", _file(tmp_path, document))
    assert code == 0, err
    assert_export_equals(json.loads(_zdb(postgres_url, "export")[1]), REPLAY["expected"])
    with engine_for(postgres_url).connect() as connection:
        keys = connection.execute(
            text(
                "SELECT conrelid::regclass::text, count(*) FROM pg_constraint"
                " WHERE contype = 'f' AND convalidated AND conrelid::regclass::text IN ('games', 'participants')"
                " GROUP BY 1"
            )
        ).all()
    assert dict(keys) == {"games": 2, "participants": 2}  # dropped for the load, and back


def test_a_database_without_this_versions_schema_is_named(sqlite_url: str, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    commands = (
        ["recalc"],
        ["verify"],
        ["export"],
        ["synth", "--scale", "0.001"],
        ["token", "list"],
        ["db", "downgrade", "base"],
    )
    for command in commands:
        code, _, err = _zdb(f"sqlite:///{missing}", *command)
        assert code == 1 and f"there is no database at {missing}: create it with `zdb db upgrade`" in err, command
    assert not missing.exists()
    downgrade(sqlite_url, "base")
    code, _, err = _zdb(sqlite_url, "recalc")
    assert code == 1 and "the database has no schema yet: run `zdb db upgrade`" in err
    upgrade(sqlite_url, "0001")
    code, _, err = _zdb(sqlite_url, "export")
    assert code == 1 and "the database's schema is at revision 0001; this version of ZDB needs" in err
    upgrade(sqlite_url)
    assert _zdb(sqlite_url, "export")[0] == 0


def test_synth_takes_an_empty_database_and_a_sensible_scale(sqlite_url: str) -> None:
    for scale in ("0", "-1", "nan", "11"):
        code, _, err = _zdb(sqlite_url, "synth", "--scale", scale)
        assert code == 2 and "must be above 0 and at most 10" in err, scale
    code, _, err = _zdb(sqlite_url, "synth", "--scale", "0.001", "--no-recalc")
    assert code == 0, err
    code, _, err = _zdb(sqlite_url, "synth", "--scale", "0.001")
    assert code == 1 and "the database already holds players" in err
    # The refusal says how to start over, and that way works.
    assert "`zdb db downgrade base --yes`, then `zdb db upgrade`" in err
    assert _zdb(sqlite_url, "db", "downgrade", "base", "--yes")[0] == 0
    assert _zdb(sqlite_url, "db", "upgrade")[0] == 0
    code, _, err = _zdb(sqlite_url, "synth", "--scale", "0.001", "--no-recalc")
    assert code == 0, err


def test_a_postgresql_database_is_named_without_its_password(postgres_url: str) -> None:
    # The test server trusts its clients: the password is sent and ignored.
    url = make_url(postgres_url).set(password="s3cret-Pw").render_as_string(hide_password=False)
    result = CliRunner().invoke(main, ["token", "list", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert result.stderr == f"database: {make_url(url).render_as_string(hide_password=True)}\n"
    assert ":***@" in result.stderr and "s3cret-Pw" not in result.output


def test_synth_piped_writes_whole_lines(sqlite_url: str) -> None:
    """Piped into a file or a log, the load's and the recalculation's progress are whole lines."""
    result = CliRunner().invoke(main, ["synth", "--scale", "0.001", "--database-url", sqlite_url])
    assert result.exit_code == 0, result.output
    assert "\r" not in result.stdout and "\r" not in result.stderr
    lines = result.stderr.splitlines()
    loading = [line for line in lines if line.startswith("loading: ")]
    recalculation = [line for line in lines if line.startswith("recalculation: ")]
    assert loading and loading[-1].endswith("tournaments (100 %)") and len(loading) <= 12
    assert recalculation and recalculation[-1].endswith("tournaments (100 %)") and len(recalculation) <= 12
