"""Two referees writing at the same moment: new submissions get different tournament ids and
person numbers (both are "the highest so far + 1", handed out under a lock); a correction and
a withdrawal, or two corrections, of one tournament take turns and neither is lost."""

from __future__ import annotations

import threading
from datetime import date

import pytest

from tests.db.scenario import differences, recalc, wait_for_a_blocked_writer
from zdb.db import engine_for, unit_of_work
from zdb.errors import ConflictError
from zdb.players.service import NewPlayer, create_players
from zdb.tournaments.models import TournamentRecord
from zdb.tournaments.service import (
    SubmittedGame,
    SubmittedPlayer,
    TournamentSubmission,
    submit_tournaments,
    withdraw_tournament,
)


def _submit(url: str, name: str, hold_open: threading.Event | None, submitted: threading.Event) -> tuple[int, int]:
    with unit_of_work(engine_for(url)) as session:
        a, b = create_players(session, [NewPlayer(surname=f"{name}-a"), NewPlayer(surname=f"{name}-b")])
        submission = TournamentSubmission(
            acronym="CON",
            end_date=date(2025, 3, 1),
            players=(SubmittedPlayer(a, 1980), SubmittedPlayer(b, 1980)),
            games=(SubmittedGame(a, b, "1-0"),),
        )
        ((tournament_id, _),) = submit_tournaments(session, [submission], by=name)
        submitted.set()
        if hold_open is not None:
            assert hold_open.wait(30)  # the first transaction stays open while the second starts
    return tournament_id, a


def test_concurrent_submissions_get_distinct_numbers(postgres_url: str) -> None:
    first_done, second_done, release = threading.Event(), threading.Event(), threading.Event()
    results: dict[str, tuple[int, int]] = {}

    def first() -> None:
        results["first"] = _submit(postgres_url, "first", release, first_done)

    def second() -> None:
        results["second"] = _submit(postgres_url, "second", None, second_done)

    one = threading.Thread(target=first)
    one.start()
    assert first_done.wait(30)
    two = threading.Thread(target=second)
    two.start()
    # It waits for the first transaction's numbers: blocked on the lock, not finished.
    wait_for_a_blocked_writer(postgres_url, gave_up=second_done.is_set)
    assert not second_done.is_set()
    release.set()
    one.join(30)
    two.join(30)
    assert set(results) == {"first", "second"}
    assert results["first"][0] != results["second"][0]
    assert results["first"][1] != results["second"][1]


def _evaluated_tournament(url: str) -> tuple[int, int, int]:
    """A stored, evaluated tournament: its id and its two players' person numbers."""
    with unit_of_work(engine_for(url)) as session:
        a, b = create_players(session, [NewPlayer(surname="a"), NewPlayer(surname="b")])
        ((tournament_id, _),) = submit_tournaments(session, [_correction(None, a, b, "1-0")], by="first")
    assert recalc(url).clean
    return tournament_id, a, b


def _correction(tournament_id: int | None, a: int, b: int, result: str) -> TournamentSubmission:
    return TournamentSubmission(
        acronym="CON",
        end_date=date(2025, 3, 1),
        players=(SubmittedPlayer(a, 1980), SubmittedPlayer(b, 1980)),
        games=(SubmittedGame(a, b, result),),
        tournament_id=tournament_id,
    )


def test_a_correction_never_undoes_a_withdrawal_committed_meanwhile(postgres_url: str) -> None:
    tournament_id, a, b = _evaluated_tournament(postgres_url)
    engine = engine_for(postgres_url)
    with unit_of_work(engine) as correcting:
        # Read first, as a request's checks do, and kept: the session's copy is the one it knows.
        seen = correcting.get(TournamentRecord, tournament_id)
        assert seen is not None and seen.status == "evaluated"
        with unit_of_work(engine) as withdrawing:
            withdraw_tournament(withdrawing, tournament_id, by="second")
        with pytest.raises(ConflictError, match="was withdrawn"):
            submit_tournaments(correcting, [_correction(tournament_id, a, b, "0-1")], by="first")
        assert seen.status == "withdrawn"
    with unit_of_work(engine) as session:
        record = session.get(TournamentRecord, tournament_id)
        assert record is not None and (record.status, record.current_version) == ("withdrawn", 1)


def test_two_corrections_at_once_take_turns(postgres_url: str) -> None:
    tournament_id, a, b = _evaluated_tournament(postgres_url)
    engine = engine_for(postgres_url)
    with unit_of_work(engine) as later:
        seen = later.get(TournamentRecord, tournament_id)  # read first and kept, as above
        assert seen is not None and seen.current_version == 1
        with unit_of_work(engine) as sooner:
            assert submit_tournaments(sooner, [_correction(tournament_id, a, b, "0-1")], by="sooner") == [
                (tournament_id, 2)
            ]
        assert submit_tournaments(later, [_correction(tournament_id, a, b, "1/2-1/2")], by="later") == [
            (tournament_id, 3)
        ]
    assert recalc(postgres_url).clean
    assert differences(postgres_url) == []
