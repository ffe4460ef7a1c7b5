"""The referee's writes, shared by the API's submissions router and the referee pages: who may
write (a referee acts in his subtree only), the store-record-remember sequence of a submission
or correction, and the withdrawal. One place, so that the two doors can never drift apart in
authorisation, audit records or idempotency.

Nothing here commits: the request's unit of work does, and then asks for the recalculation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.requests import Request

from zdb.audit.writer import record_entry
from zdb.auth.errors import PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.endpoints.idempotency import StoredAnswer, claim, remember
from zdb.errors import ConflictError, NotFoundError
from zdb.locks import TOURNAMENT_IDS, hold
from zdb.messages import Message
from zdb.tournaments.announcements import announcement_for
from zdb.tournaments.announcements import claim as claim_announcement
from zdb.tournaments.duplicates import check_duplicates, remember_fingerprint
from zdb.tournaments.intake import Intake
from zdb.tournaments.models import TournamentRecord, TournamentVersion
from zdb.tournaments.service import submit_tournaments, withdraw_tournament
from zdb.tournaments.states import record_state
from zdb.tournaments.submission_schemas import MatchedPlayerOut, SubmissionOut, WarningOut

__all__ = ["authorize", "record_preview", "store", "stored_federation", "withdraw", "writer_name"]


def authorize(caller: Principal, federation: str | None) -> None:
    """A referee acts in his subtree only: the tournament's federation must lie inside it."""
    if caller.role == "admin":
        return
    if federation is None or not caller.covers(federation):
        where = Message("no federation") if federation is None else Message("federation {prefix!r}", prefix=federation)
        raise PermissionDeniedError(
            Message("a tournament of {where} lies outside the token's scope {scope!r}", where=where, scope=caller.scope)
        )


def writer_name(caller: Principal) -> str:
    """Who submitted, as the tournament's version records it."""
    return f"{caller.role} {caller.scope or ''} (token {caller.token_id})".replace("  ", " ")


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
) -> StoredAnswer:
    """Take in, store, record, remember the answer under the idempotency key; a retry with the
    same key gets the first answer and stores nothing. A submission equal to a stored tournament
    is refused, one sharing most of its games with one is stored only with ``confirm_duplicate``
    (``zdb.tournaments.duplicates``). A new tournament names its ``announcement`` (a code) or is
    matched to one, under its federation's rule (``zdb.tournaments.announcements``)."""
    if key is not None:
        window = timedelta(hours=request.app.state.settings.idempotency_key_hours)
        first = claim(session, caller, key, digest, window=window)
        if first is not None:
            _refuse_replay_of_withdrawn(session, first)
            return first
    intake = make()
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
    out = SubmissionOut(
        id=tournament_id,
        version=version,
        players=[
            MatchedPlayerOut(start_no=k + 1, pkz=p.pkz, created=new)
            for k, (p, new) in enumerate(zip(intake.submission.players, intake.created, strict=True))
        ],
        warnings=[WarningOut(place=w.place, message=w.message) for w in (*intake.warnings, *duplicates, *notes)],
        announcement=None if announced is None else announced.code,
        impact=str(request.app.url_path_for("tournament_impact", tournament_id=str(tournament_id))),
    )
    location = str(request.app.url_path_for("tournament", tournament_id=str(tournament_id)))
    answer = StoredAnswer(200 if correction else 201, out.model_dump(mode="json"), location)
    if key is not None:
        remember(session, caller, key, answer, tournament_id=tournament_id)
    return answer


def record_preview(session: Session, caller: Principal, intake: Intake) -> None:
    """A preview is a read of other people's ratings: it is audited like a write, with the
    persons it matched, so that the rating office can see who looked up whom. Only a preview
    that was answered is recorded; a refused one rolls back with its request and showed the
    file's problems alone."""
    submission = intake.submission
    target = "tournament (new)" if submission.tournament_id is None else f"tournament {submission.tournament_id}"
    matched = [p.pkz for p, new in zip(submission.players, intake.created, strict=True) if p.pkz > 0 and not new]
    record_entry(
        session,
        caller.token_id,
        "tournament.preview",
        target,
        acronym=submission.acronym,
        federation=submission.federation_prefix,
        players=len(submission.players),
        matched_players=matched,
    )


def withdraw(session: Session, caller: Principal, tournament_id: int, *, reason: str | None = None) -> None:
    """Withdraw the tournament; ``reason`` is kept in its history and the audit log."""
    authorize(caller, stored_federation(session, tournament_id, for_change=False))
    withdraw_tournament(session, tournament_id, by=writer_name(caller))
    record_state(session, tournament_id, "withdrawn", by=writer_name(caller), why=reason)
    more: dict[str, Any] = {"reason": reason} if reason else {}
    record_entry(session, caller.token_id, "tournament.withdraw", f"tournament {tournament_id}", **more)
