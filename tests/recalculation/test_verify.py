"""``zdb verify`` walks the time line window by window and meets every kind of difference on
the way: a stored row where no event is (before, between and after the events), a row missing,
a figure changed, and the report of a tournament that is no longer on the time line."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import delete, insert, select, update

from tests.conftest import VECTORS
from tests.db.scenario import differences, recalc, submit
from zdb.db import engine_for
from zdb.recalculation import windows
from zdb.timeline.models import Evaluation, HistoryRow
from zdb.tournaments.models import TournamentRecord

REPLAY = VECTORS["replays"][0]


def _loaded(url: str) -> None:
    submit(url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    recalc(url)
    assert differences(url) == []


def test_a_stored_history_row_where_no_event_is_found(database_url: str) -> None:
    _loaded(database_url)
    with engine_for(database_url).begin() as connection:
        row = dict(connection.execute(select(HistoryRow)).mappings().first() or {})
        strays = [
            {**row, "event_date": date(1990, 1, 1)},  # before the first event
            {**row, "event_text": row["event_text"] + "~"},  # between two events
            {**row, "event_date": date(2099, 1, 1)},  # after the last
        ]
        connection.execute(insert(HistoryRow), strays)
    found = differences(database_url)
    assert len(found) == 3 and all("stored but not expected" in text for text in found)
    assert any("datetime.date(1990, 1, 1)" in text for text in found)
    assert any("datetime.date(2099, 1, 1)" in text for text in found)


def test_a_missing_row_and_a_changed_figure_are_found(database_url: str) -> None:
    _loaded(database_url)
    with engine_for(database_url).begin() as connection:
        first = connection.execute(select(HistoryRow.player_pkz, HistoryRow.event_id).limit(1)).one()
        connection.execute(delete(HistoryRow).where(HistoryRow.player_pkz == first[0], HistoryRow.event_id == first[1]))
        connection.execute(update(Evaluation).where(Evaluation.position == 0).values(rn=Evaluation.rn + 1))
    found = differences(database_url)
    assert any(text.startswith("history ") and "missing, expected" in text for text in found)
    assert any(text.startswith("evaluation ") and "stored (" in text for text in found)


def test_the_report_of_a_tournament_off_the_time_line_is_found(database_url: str) -> None:
    _loaded(database_url)
    tid = REPLAY["events"][0]["id"]
    with engine_for(database_url).begin() as connection:
        connection.execute(update(TournamentRecord).where(TournamentRecord.id == tid).values(status="withdrawn"))
    found = differences(database_url)
    assert f"tournament {tid}: withdrawal not yet recalculated" in found
    assert any(text.startswith(f"evaluation ({tid}, ") and "stored but not expected" in text for text in found)


def test_windows_of_two_give_the_same_answer(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _loaded(database_url)
    monkeypatch.setattr(windows, "WINDOW", 2)
    assert differences(database_url) == []
