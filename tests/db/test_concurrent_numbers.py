"""Two referees submitting at the same moment get different tournament ids and person numbers
(both are "the highest so far + 1", handed out under a lock)."""

from __future__ import annotations

import threading
from datetime import date

from zdb.db import engine_for, unit_of_work
from zdb.players.service import NewPlayer, create_players
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission, submit_tournaments


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
    assert not second_done.wait(0.5)  # it waits for the first transaction's numbers
    release.set()
    one.join(30)
    two.join(30)
    assert set(results) == {"first", "second"}
    assert results["first"][0] != results["second"][0]
    assert results["first"][1] != results["second"][1]
