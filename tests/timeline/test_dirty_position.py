"""The dirty position is the earliest place of the time line changed since the last run: a
change before it moves it back, a change after it leaves it where it is (a run starts there and
must not skip the earlier change). On both databases."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from tests.db.scenario import differences, is_clean, recalc
from zdb.db import engine_for, unit_of_work
from zdb.players.service import NewPlayer, create_players
from zdb.timeline.models import RecalcState
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission, submit_tournaments


def _players(url: str) -> tuple[int, int]:
    with unit_of_work(engine_for(url)) as session:
        a, b = create_players(session, [NewPlayer(surname="Vorn", birth_year=1970), NewPlayer(surname="Hinten")])
    return a, b


def _submit(url: str, acronym: str, end: date, a: int, b: int) -> int:
    submission = TournamentSubmission(
        acronym=acronym,
        end_date=end,
        players=(SubmittedPlayer(a, 1970), SubmittedPlayer(b, 1980)),
        games=(SubmittedGame(a, b, "1-0"), SubmittedGame(b, a, "1/2-1/2")),
    )
    with unit_of_work(engine_for(url)) as session:
        ((tournament_id, _),) = submit_tournaments(session, [submission], by="test")
    return tournament_id


def _position(url: str) -> tuple[date | None, int | None, str | None, int | None]:
    s = RecalcState
    with engine_for(url).connect() as connection:
        row = connection.execute(select(s.dirty_date, s.dirty_phase, s.dirty_text, s.dirty_id).where(s.id == 1)).one()
    return row.dirty_date, row.dirty_phase, row.dirty_text, row.dirty_id


def test_the_dirty_position_moves_back_to_the_earliest_change(database_url: str) -> None:
    a, b = _players(database_url)
    _submit(database_url, "AAA", date(2025, 1, 12), a, b)
    assert recalc(database_url).clean
    summer = _submit(database_url, "SOM", date(2025, 6, 1), a, b)
    assert _position(database_url) == (date(2025, 6, 1), 1, "SOM", summer)
    # Late: it ended before the change waiting, so the next run must start from it.
    spring = _submit(database_url, "FRU", date(2025, 3, 2), a, b)
    assert _position(database_url) == (date(2025, 3, 2), 1, "FRU", spring)
    # Later than the position: the position stays at the earliest change.
    _submit(database_url, "HER", date(2025, 9, 7), a, b)
    assert _position(database_url) == (date(2025, 3, 2), 1, "FRU", spring)
    # Same day, earlier in the order of spec §2 (acronym): moves back too.
    same_day = _submit(database_url, "ERS", date(2025, 3, 2), a, b)
    assert _position(database_url) == (date(2025, 3, 2), 1, "ERS", same_day)
    assert recalc(database_url).clean and is_clean(database_url)
    assert differences(database_url) == []
