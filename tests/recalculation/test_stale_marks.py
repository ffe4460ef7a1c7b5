"""The stale mark of a tournament (a participant's birth year learned after it was evaluated,
``zdb.tournaments.person_facts``) is cleared by the run that read it, and only by that: a mark
made after the run read the generation stays for the next run. Beside it, the other marks a
run leaves: the version it evaluated (a tournament corrected or withdrawn during the run stays
pending), and its duration. On both databases."""

from __future__ import annotations

import time
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.db.scenario import differences, recalc
from zdb.db import engine_for, is_postgres, unit_of_work
from zdb.players.service import NewPlayer, create_players
from zdb.recalculation.recalculate import RecalcOutcome, milliseconds_between, recalculate
from zdb.timeline.state import read_state
from zdb.tournaments.models import Participation, TournamentRecord
from zdb.tournaments.person_facts import learn_birth_years
from zdb.tournaments.service import (
    SubmittedGame,
    SubmittedPlayer,
    TournamentSubmission,
    submit_tournaments,
    withdraw_tournament,
)


def _evaluated_with_a_yearless_player(url: str) -> tuple[int, int]:
    """A tournament evaluated while one of its players had no birth year: its id and his number."""
    with unit_of_work(engine_for(url)) as session:
        known, yearless = create_players(session, [NewPlayer(surname="Bekannt", birth_year=1970), NewPlayer("Ohne")])
        submission = TournamentSubmission(
            acronym="OJA",
            end_date=date(2025, 5, 4),
            players=(SubmittedPlayer(known, 1970), SubmittedPlayer(yearless, None)),
            games=(SubmittedGame(known, yearless, "0-1"), SubmittedGame(yearless, known, "1/2-1/2")),
        )
        ((tournament_id, _),) = submit_tournaments(session, [submission], by="test")
    began = time.monotonic()
    first = recalc(url)
    took_ms = (time.monotonic() - began) * 1000
    # Nothing stored yet: the first run is a from-scratch run, whatever it was asked for.
    assert first.ran and first.clean and first.from_scratch and first.evaluated == 1
    # The run's own duration, in milliseconds: within the time the call took (no lower bound
    # is asserted: that would be a timed test).
    assert 0 <= first.duration_ms <= took_ms + 1
    return tournament_id, yearless


def _stale(url: str, tournament_id: int) -> int | None:
    with engine_for(url).connect() as connection:
        t = TournamentRecord
        return connection.execute(select(t.stale_generation).where(t.id == tournament_id)).scalar_one()


def test_the_run_that_read_a_stale_mark_clears_it(database_url: str) -> None:
    tournament_id, yearless = _evaluated_with_a_yearless_player(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        learn_birth_years(session, {yearless: 2012})  # a youth player now: another row of spec §6
    assert _stale(database_url, tournament_id) is not None
    outcome = recalc(database_url)
    # Generation 1: the submission; 2: the year learned. One tournament redone, nothing removed.
    assert (outcome.ran, outcome.clean, outcome.from_scratch) == (True, True, False)
    assert (outcome.generation, outcome.evaluated, outcome.removed) == (2, 1, 0)
    assert _stale(database_url, tournament_id) is None
    with unit_of_work(engine_for(database_url)) as session:
        state = read_state(session)
        figures = (state.last_generation, state.last_evaluated, state.last_changed_players, state.last_duration_ms)
        assert figures == (2, 1, outcome.changed_players, outcome.duration_ms)
        assert state.last_started_at is not None and state.last_finished_at is not None
        assert state.last_started_at <= state.last_finished_at and state.last_error is None
    # Nothing is left to do: a mark that stayed would have the tournament redone by every run.
    assert recalc(database_url).evaluated == 0
    assert differences(database_url) == []


def test_a_stale_mark_made_after_the_run_read_the_generation_stays(database_url: str) -> None:
    """The run has loaded the tournament with the old year when the year is learned. On SQLite
    the run is the database's one writer, so the change is made in the run's own transaction;
    PostgreSQL's concurrent variant is ``tests/api/test_person_authority.py``."""
    tournament_id, yearless = _evaluated_with_a_yearless_player(database_url)
    learned: list[int] = []
    with unit_of_work(engine_for(database_url)) as session:

        def meanwhile(done: int, total: int) -> None:
            if not learned:
                learn_birth_years(session, {yearless: 2012})
                learned.append(done)

        outcome = recalculate(session, from_scratch=True, progress=meanwhile)
    assert learned and outcome.ran and not outcome.clean
    assert _stale(database_url, tournament_id) is not None
    again = recalc(database_url)
    assert again.clean and again.evaluated == 1
    assert _stale(database_url, tournament_id) is None
    assert differences(database_url) == []


def test_a_second_run_while_one_runs_leaves_it_alone(database_url: str) -> None:
    """One run at a time (PostgreSQL: the advisory lock; SQLite: the process's lock): a run
    asked for while another runs returns at once without running; the running one's change
    is taken by it or by the next run. A run asked for without saying how is incremental."""
    tournament_id, yearless = _evaluated_with_a_yearless_player(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        learn_birth_years(session, {yearless: 2012})
    second: list[object] = []
    with unit_of_work(engine_for(database_url)) as session:

        def meanwhile(done: int, total: int) -> None:
            if not second:
                with unit_of_work(engine_for(database_url)) as other:
                    second.append(recalculate(other))

        outcome = recalculate(session, progress=meanwhile)
    assert second == [RecalcOutcome(ran=False)]
    assert outcome.ran and outcome.clean and not outcome.from_scratch and outcome.evaluated == 1
    assert _stale(database_url, tournament_id) is None
    assert differences(database_url) == []


def _record(url: str, tournament_id: int) -> tuple[str, int, int | None]:
    with engine_for(url).connect() as connection:
        t = TournamentRecord
        row = connection.execute(
            select(t.status, t.current_version, t.evaluated_version).where(t.id == tournament_id)
        ).one()
    return row.status, row.current_version, row.evaluated_version


def test_a_run_marks_what_it_evaluated_and_leaves_later_versions_pending(database_url: str) -> None:
    """The evaluated version and the status after a run: a correction that arrives during the
    run stays pending (its version was not the one evaluated); a withdrawal is evaluated away."""
    tournament_id, yearless = _evaluated_with_a_yearless_player(database_url)
    assert _record(database_url, tournament_id) == ("evaluated", 1, 1)
    with unit_of_work(engine_for(database_url)) as session:
        learn_birth_years(session, {yearless: 2012})
    corrected: list[int] = []
    with unit_of_work(engine_for(database_url)) as session:
        (known,) = [p for p in _players_of(session, tournament_id) if p != yearless]

        def meanwhile(done: int, total: int) -> None:
            if not corrected:
                correction = TournamentSubmission(
                    acronym="OJA",
                    end_date=date(2025, 5, 4),
                    players=(SubmittedPlayer(known, 1970), SubmittedPlayer(yearless, 2012)),
                    games=(SubmittedGame(known, yearless, "1-0"),),
                    tournament_id=tournament_id,
                )
                corrected.extend(v for _, v in submit_tournaments(session, [correction], by="test"))

        outcome = recalculate(session, progress=meanwhile)
    assert corrected == [2] and not outcome.clean
    assert _record(database_url, tournament_id) == ("received", 2, 1)
    assert recalc(database_url).clean
    assert _record(database_url, tournament_id) == ("evaluated", 2, 2)
    with unit_of_work(engine_for(database_url)) as session:
        withdraw_tournament(session, tournament_id, by="test")
    assert recalc(database_url).clean
    assert _record(database_url, tournament_id) == ("withdrawn", 2, None)
    assert differences(database_url) == []


def _players_of(session: Session, tournament_id: int) -> list[int]:
    p = Participation
    return list(session.execute(select(p.player_pkz).where(p.tournament_id == tournament_id, p.version == 1)).scalars())


def test_a_tournament_withdrawn_while_the_run_evaluates_it_stays_withdrawn(database_url: str) -> None:
    """The run has read the tournament as received when it is withdrawn: its stored evaluation
    belongs to version 1, but it is not marked evaluated; the next run evaluates it away. On
    PostgreSQL the withdrawal commits on a connection of its own while the run replays; on
    SQLite the run is the database's one writer, so it is made in the run's own transaction."""
    with unit_of_work(engine_for(database_url)) as session:
        first, second = create_players(
            session, [NewPlayer(surname="Erster", birth_year=1970), NewPlayer(surname="Zweiter", birth_year=1971)]
        )
        submission = TournamentSubmission(
            acronym="WZL",
            end_date=date(2025, 6, 1),
            players=(SubmittedPlayer(first, 1970), SubmittedPlayer(second, 1971)),
            games=(SubmittedGame(first, second, "1-0"),),
        )
        ((tournament_id, _),) = submit_tournaments(session, [submission], by="test")
    assert _record(database_url, tournament_id) == ("received", 1, None)
    withdrawn: list[int] = []
    with unit_of_work(engine_for(database_url)) as session:

        def meanwhile(done: int, total: int) -> None:
            if not withdrawn:
                if is_postgres(session):
                    with unit_of_work(engine_for(database_url)) as other:
                        withdraw_tournament(other, tournament_id, by="test")
                else:
                    withdraw_tournament(session, tournament_id, by="test")
                withdrawn.append(done)

        outcome = recalculate(session, progress=meanwhile)
    # Nothing stored yet: a from-scratch run, which read the tournament before the withdrawal.
    assert withdrawn and outcome.ran and outcome.from_scratch and outcome.evaluated == 1 and not outcome.clean
    assert _record(database_url, tournament_id) == ("withdrawn", 1, 1)
    again = recalc(database_url)
    assert again.clean
    assert _record(database_url, tournament_id) == ("withdrawn", 1, None)
    assert differences(database_url) == []


def test_a_runs_duration_is_the_whole_milliseconds_between_its_clock_readings() -> None:
    # Seconds of one monotonic clock in, whole milliseconds out, the fraction cut.
    assert milliseconds_between(10.0, 12.5) == 2500
    assert milliseconds_between(3.0, 3.0) == 0
    assert milliseconds_between(100.0, 100.0015) == 1
    assert milliseconds_between(0.25, 7.75) == 7500
