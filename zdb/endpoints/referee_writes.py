"""The referee's writes as the doors make them, shared by the API's submissions router and the
referee pages: who may write (a referee acts in his subtree only), the idempotency key around
storing a submission or correction (``zdb.submissions.store``) and the answer, and the
withdrawal. One place, so that the two doors can never drift apart in authorisation, audit
records or idempotency.

Nothing here commits: the request's unit of work does, and then asks for the recalculation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session
from starlette.requests import Request

from zdb.audit.writer import record_entry
from zdb.auth.errors import PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.complaints.service import close_for_tournament, link_change
from zdb.endpoints.idempotency import StoredAnswer, claim, remember
from zdb.errors import ConflictError, NotFoundError
from zdb.locks import TOURNAMENT_IDS, hold
from zdb.messages import Message
from zdb.reviews import service as reviews
from zdb.reviews.rules import responsible_officer, review_applies
from zdb.reviews.schemas import ReviewSubmittedOut
from zdb.reviews.waiting_duplicates import refuse_waiting_equal
from zdb.submissions.intake import Intake
from zdb.submissions.schemas import MatchedPlayerOut, SubmissionOut, WarningOut
from zdb.submissions.store import store_submission, withdraw_submission, writer_name
from zdb.tournaments.announcements import announcement_for
from zdb.tournaments.duplicates import check_duplicates
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["authorize", "store", "stored_federation", "withdraw"]


def authorize(caller: Principal, federation: str | None) -> None:
    """A referee acts in his subtree only: the tournament's federation must lie inside it."""
    if caller.role == "admin":
        return
    if federation is None or not caller.covers(federation):
        where = Message("no federation") if federation is None else Message("federation {prefix!r}", prefix=federation)
        raise PermissionDeniedError(
            Message("a tournament of {where} lies outside the token's scope {scope!r}", where=where, scope=caller.scope)
        )


def stored_federation(session: Session, tournament_id: int, *, for_change: bool) -> str | None:
    """The federation of a stored tournament; ``for_change``: a withdrawn one may not be changed."""
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(Message("tournament {id} does not exist", id=tournament_id))
    if for_change and record.status == "withdrawn":
        raise ConflictError(Message("tournament {id} was withdrawn; its id is never reused", id=tournament_id))
    current = session.get(TournamentVersion, (tournament_id, record.current_version))
    assert current is not None
    return current.federation_prefix


def _refuse_replay_of_withdrawn(session: Session, first: StoredAnswer) -> None:
    """A retry is answered with the present state of what the first answer stored: once the
    tournament was withdrawn, its old 201 would tell the referee that it counts. The retry is a
    conflict naming the withdrawal (as a correction of a withdrawn tournament is); it stores
    nothing, and the tournament stays withdrawn."""
    if first.tournament_id is None:
        return
    record = session.get(TournamentRecord, first.tournament_id)
    if record is not None and record.status == "withdrawn":
        raise ConflictError(
            Message(
                "tournament {id} was withdrawn after this request was answered; its id is never reused",
                id=first.tournament_id,
            )
        )


def store(
    request: Request,
    session: Session,
    caller: Principal,
    *,
    key: str | None,
    digest: str,
    make: Callable[[], Intake],
    correction: bool,
    confirm_duplicate: bool = False,
    announcement: str | None = None,
    announcement_place: str = "query.announcement",
    complaint: int | None = None,
) -> StoredAnswer:
    """Take in, store, record, remember the answer under the idempotency key; a retry with the
    same key gets the first answer and stores nothing. A submission equal to a stored tournament
    is refused, one sharing most of its games with one is stored only with ``confirm_duplicate``
    (``zdb.tournaments.duplicates``). A new tournament names its ``announcement`` (a code) or is
    matched to one, under its federation's rule (``zdb.tournaments.announcements``).

    Where the federation's rule asks for review (``zdb.reviews.rules``), the checked submission
    waits for the responsible officer instead (202, naming the review): nothing of it is stored
    as a tournament, and the birth years its records learn are learned on approval. ``make``
    therefore never learns them itself (``learn=False``); this does, for a submission stored. A
    correction made for a ``complaint`` (about this tournament) is linked to it, and its audit
    entry names it."""
    if key is not None:
        window = timedelta(hours=request.app.state.settings.idempotency_key_hours)
        first = claim(session, caller, key, digest, window=window)
        if first is not None:
            _refuse_replay_of_withdrawn(session, first)
            return first
    intake = make()
    if review_applies(session, intake.submission.federation_prefix, caller):
        return _held(
            request,
            session,
            caller,
            intake,
            key=key,
            correction=correction,
            confirm_duplicate=confirm_duplicate,
            announcement=announcement,
            announcement_place=announcement_place,
        )
    # One equal to a submission waiting in review is refused as one equal to a stored
    # tournament is, under the same lock (store_submission takes it again: it stacks).
    hold(session, TOURNAMENT_IDS)
    refuse_waiting_equal(session, intake.submission)
    stored = store_submission(
        session,
        caller,
        intake,
        correction=correction,
        confirm_duplicate=confirm_duplicate,
        announcement=announcement,
        announcement_place=announcement_place,
        complaint=complaint,
    )
    tournament_id, intake = stored.tournament_id, stored.intake
    if complaint is not None:
        target = f"tournament {tournament_id} version {stored.version}"
        link_change(session, complaint, caller, kind="correction", target=target, tournament_id=tournament_id)
    out = SubmissionOut(
        id=tournament_id,
        version=stored.version,
        players=[
            MatchedPlayerOut(start_no=k + 1, pkz=p.pkz, created=new)
            for k, (p, new) in enumerate(zip(intake.submission.players, intake.created, strict=True))
        ],
        warnings=[WarningOut(place=w.place, message=w.message) for w in stored.warnings],
        announcement=stored.announcement,
        impact=str(request.app.url_path_for("tournament_impact", tournament_id=str(tournament_id))),
    )
    location = str(request.app.url_path_for("tournament", tournament_id=str(tournament_id)))
    answer = StoredAnswer(200 if correction else 201, out.model_dump(mode="json"), location)
    if key is not None:
        remember(session, caller, key, answer, tournament_id=tournament_id)
    return answer


def _held(
    request: Request,
    session: Session,
    caller: Principal,
    intake: Intake,
    *,
    key: str | None,
    correction: bool,
    confirm_duplicate: bool,
    announcement: str | None,
    announcement_place: str,
) -> StoredAnswer:
    """The submission waits in review: compared with the stored tournaments and matched to its
    announcement as a stored one is (``zdb.submissions.store``), then kept, recorded and answered
    202 with the review."""
    # Held from the comparison to the commit, as a stored submission is.
    hold(session, TOURNAMENT_IDS)
    duplicates = check_duplicates(session, intake.submission, confirmed=confirm_duplicate)
    announced, announcement_notes = (
        (None, ())
        if correction
        else announcement_for(
            session, intake.submission, announcement, place=announcement_place, office=caller.role == "admin"
        )
    )
    notes = (*duplicates, *announcement_notes)
    review = reviews.hold(session, caller, intake, by=writer_name(caller), announcement=announced)
    submission = intake.submission
    created = [p.pkz for p, new in zip(submission.players, intake.created, strict=True) if new]
    record_entry(
        session,
        caller.token_id,
        "tournament.review",
        f"review {review.id}",
        tournament=submission.tournament_id,
        acronym=submission.acronym,
        players=len(submission.players),
        created_players=created,
        responsible=review.responsible_prefix,
        announcement=None if announced is None else announced.code,
    )
    _, officer = responsible_officer(session, review.responsible_prefix)
    location = str(request.app.url_path_for("review", review_id=str(review.id)))
    out = ReviewSubmittedOut(
        review=review.id,
        tournament_id=submission.tournament_id,
        responsible=review.responsible_prefix,
        responsible_officer=None if officer is None else officer.name,
        warnings=[WarningOut(place=w.place, message=w.message) for w in (*intake.warnings, *notes)],
        announcement=None if announced is None else announced.code,
        location=location,
    )
    answer = StoredAnswer(202, out.model_dump(mode="json"), location)
    if key is not None:
        remember(session, caller, key, answer, tournament_id=submission.tournament_id)
    return answer


def withdraw(session: Session, caller: Principal, tournament_id: int, *, reason: str | None = None) -> None:
    """Withdraw the tournament (a referee in his subtree only); ``reason`` is kept in its history
    and the audit log."""
    authorize(caller, stored_federation(session, tournament_id, for_change=False))
    closed = reviews.close_for_withdrawal(session, tournament_id, by=writer_name(caller), why=reason)
    # the evaluation complained about no longer counts: its open complaints are closed, saying why
    why = "the tournament was withdrawn" + (f": {reason}" if reason else "")
    close_for_tournament(session, caller, tournament_id, why=why, now=datetime.now(UTC))
    withdraw_submission(session, caller, tournament_id, reason=reason, closed_reviews=closed)
