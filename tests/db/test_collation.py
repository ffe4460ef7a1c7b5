"""The time line's order in a database whose collation is linguistic (German, ICU): acronyms of
one end date compare as plain strings (spec §2), as the engine compares them, so an
incremental run walks the stored history in the engine's order."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date

import psycopg
import pytest

from tests.databases import _admin, _with_database
from tests.db.scenario import assert_export_equals, differences, exported, recalc, submit
from tests.db.test_hidden_order import _tournament_json
from zdb.db import engine_for
from zdb.formats.rating_json import dump_replay, dump_states
from zdb.migrate import upgrade
from zdb.rating import Game, Participant, PlayerState, ResultCode, Tournament, build_timeline, replay


@pytest.fixture
def german_url(postgres_server: str) -> Iterator[str]:
    name = f"zdb_test_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        try:
            admin.execute(
                f"CREATE DATABASE \"{name}\" LOCALE_PROVIDER icu ICU_LOCALE 'de-DE' LOCALE 'C.UTF-8' TEMPLATE template0"
            )
        except psycopg.Error as error:  # a server without ICU
            pytest.skip(f"no ICU collation on this server: {error}")
    url = _with_database(postgres_server, name)
    upgrade(url)
    yield url
    engine_for(url).dispose()
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _round_robin(tid: int, acronym: str, end_date: date, pids: list[str], results: str) -> Tournament:
    codes = {"1": ResultCode.WHITE_WINS, "0": ResultCode.BLACK_WINS, "=": ResultCode.DRAW}
    pairs = [(a, b) for k, a in enumerate(pids) for b in pids[k + 1 :]]
    games = tuple(Game(a, b, codes[r]) for (a, b), r in zip(pairs, results, strict=True))
    return Tournament(tid, acronym, end_date, tuple(Participant(p, 1980) for p in pids), games)


def test_a_late_tournament_replays_acronyms_in_code_point_order(german_url: str) -> None:
    with engine_for(german_url).connect() as connection:
        assert connection.exec_driver_sql("SELECT 'abc' < 'ABD'").scalar()  # linguistic: lower case first
    states = {f"P{k}": PlayerState(1500 + 40 * k, 10) for k in range(1, 7)}
    day = date(2024, 3, 10)
    lower = _round_robin(1, "abc", day, ["P1", "P2", "P3", "P4"], "1=01=0")
    upper = _round_robin(2, "ABD", day, ["P1", "P2", "P5", "P6"], "0=1=10")  # before "abc" (spec §2)
    late = _round_robin(3, "XYZ", date(2024, 1, 7), ["P1", "P2", "P3"], "101")
    submit(
        german_url,
        {"initial_states": dump_states(states), "events": [_tournament_json(lower), _tournament_json(upper)]},
    )
    recalc(german_url)
    submit(german_url, {"initial_states": {}, "events": [_tournament_json(late)]})
    assert not recalc(german_url).from_scratch
    expected = dump_replay(replay(states, build_timeline([lower, upper, late])))
    assert expected["order"][:3] == [3, 2, 1]
    assert_export_equals(exported(german_url), expected)
    assert differences(german_url) == []
