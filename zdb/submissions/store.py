"""Storing a submission or correction: the comparison with the stored tournaments, the
announcement it names or matches, the version, its state, its audit entries and the persons'
facts it taught; and the withdrawal's state and audit entry. The doors
(``zdb.endpoints.referee_writes``) authorise the caller before, and keep the idempotency key
and the HTTP answer around it. Flushes, never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.errors import ValidationProblem
from zdb.locks import TOURNAMENT_IDS, hold
from zdb.submissions.intake import Intake
from zdb.tournaments.announcements import announcement_for
from zdb.tournaments.announcements import claim as claim_announcement
from zdb.tournaments.duplicates import check_duplicates, remember_fingerprint
from zdb.tournaments.person_facts import learn_birth_years
from zdb.tournaments.service import submit_tournaments, withdraw_tournament
from zdb.tournaments.states import record_state

__all__ = ["StoredSubmission", "store_submission", "withdraw_submission", "writer_name"]


def writer_name(caller: Principal) -> str:
    """Who submitted, as the tournament's version records it."""
    return f"{caller.role} {caller.scope or ''} (token {caller.token_id})".replace("  ", " ")


@dataclass(frozen=True, slots=True)
class StoredSubmission:
    """What was stored: the tournament and its version, the intake it came from, every warning
    (the file's, the duplicates confirmed, the announcement's notes) and the announcement."""

    tournament_id: int
    version: int
    intake: Intake
    warnings: tuple[ValidationProblem, ...]
    announcement: str | None


def store_submission(
    session: Session,
    caller: Principal,
    intake: Intake,
    *,
    correction: bool,
    confirm_duplicate: bool = False,
    announcement: str | None = None,
    announcement_place: str = "query.announcement",
    complaint: int | None = None,
) -> StoredSubmission:
    """Store the intake's submission. One equal to a stored tournament is refused, one sharing
    most of its games with one is stored only with ``confirm_duplicate``
    (``zdb.tournaments.duplicates``). A new tournament names its ``announcement`` (a code) or is
    matched to one, under its federation's rule (``zdb.tournaments.announcements``). The birth
    years the file taught are learned here (an intake made with ``learn=False``: a submission
    waiting in review learns them on approval). A correction made for a ``complaint`` names it
    in its audit entry (the door links the two: ``zdb.complaints``)."""
    # Held from the comparison to the commit: an equal submission sent at the same moment waits,
    # then sees this one stored and is refused by name (the fingerprint's unique key backs this).
    hold(session, TOURNAMENT_IDS)
    duplicates = check_duplicates(session, intake.submission, confirmed=confirm_duplicate)
    announced, notes = (
        (None, ())
        if correction
        else announcement_for(
            session, intake.submission, announcement, place=announcement_place, office=caller.role == "admin"
        )
    )
    learn_birth_years(session, intake.learned)
    [(tournament_id, version)] = submit_tournaments(session, [intake.submission], by=writer_name(caller))
    remember_fingerprint(session, tournament_id, intake.submission)
    if announced is not None:
        claim_announcement(session, announced, tournament_id)
    state = "corrected" if correction else "submitted"
    record_state(session, tournament_id, state, by=writer_name(caller), version=version)
    created = [p.pkz for p, new in zip(intake.submission.players, intake.created, strict=True) if new]
    more: dict[str, Any] = {
        "version": version,
        "acronym": intake.submission.acronym,
        "players": len(intake.submission.players),
        "created_players": created,
        **({"confirmed_duplicate": [w.message for w in duplicates]} if duplicates else {}),
        **({"announcement": announced.code} if announced is not None else {}),
        **({"complaint": complaint} if complaint is not None else {}),
    }
    action = "tournament.correct" if correction else "tournament.submit"
    record_entry(session, caller.token_id, action, f"tournament {tournament_id}", **more)
    for pkz, year in intake.learned.items():
        # A person's fact learned from a file: before and after, and the file it came from.
        record_entry(
            session,
            caller.token_id,
            "player.learn",
            f"player {pkz}",
            before={"birth_year": None},
            after={"birth_year": year},
            **{"from": f"tournament {tournament_id} version {version}"},
        )
    return StoredSubmission(
        tournament_id,
        version,
        intake,
        (*intake.warnings, *duplicates, *notes),
        None if announced is None else announced.code,
    )


def withdraw_submission(
    session: Session,
    caller: Principal,
    tournament_id: int,
    *,
    reason: str | None = None,
    closed_reviews: list[int] | None = None,
) -> None:
    """Withdraw the tournament; ``reason`` is kept in its history and the audit log, with the
    corrections waiting in review that the withdrawal closed (``closed_reviews``)."""
    withdraw_tournament(session, tournament_id, by=writer_name(caller))
    record_state(session, tournament_id, "withdrawn", by=writer_name(caller), why=reason)
    more: dict[str, Any] = {"reason": reason} if reason else {}
    if closed_reviews:
        more["closed_reviews"] = closed_reviews
    record_entry(session, caller.token_id, "tournament.withdraw", f"tournament {tournament_id}", **more)
