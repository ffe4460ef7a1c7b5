"""Registering an announced tournament as FIDE-rated: the chief arbiter and his deputy with
their FIDE ids, the rate of play and its category, the system and the rounds.

Why here: FIDE asks for the registration at least six weeks before the start
(``zdb.fide.deadlines``). A later one is refused or stored with a warning, as the federation's
rule says (``fide_registration`` of ``zdb.federations.settings``, inherited down the tree,
"warn" where no federation states one); the rating office is never refused, only warned — it
decides about exceptions, as with announcements. An arbiter's FIDE id that FIDE's list held by
ZDB does not know is a warning, not a refusal: the list may be older than the arbiter's licence.
An announcement is registered once; a second registration is a 409 (concurrent ones: the unique
key lets one win).

Flushes, never commits.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.common.utc import as_utc
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.settings import effective_settings
from zdb.fide.deadlines import REGISTRATION_DAYS, days_late, registration_deadline, report_due
from zdb.fide.models import FideRegistration
from zdb.fide.schemas import FideRegistrationIn, FideRegistrationOut, FideReportStateOut
from zdb.lists.models import FideRatingRow
from zdb.messages import Message
from zdb.submissions.store import writer_name
from zdb.tournaments.models import Announcement, TournamentRecord

__all__ = [
    "find_registration",
    "first_submitted_on",
    "register",
    "register_by",
    "registration_for",
    "registration_out",
    "results_sent_on",
    "stored_warnings",
]


def _known(session: Session, fide_id: int) -> bool:
    return (
        session.execute(select(FideRatingRow.fide_id).where(FideRatingRow.fide_id == fide_id).limit(1)).first()
        is not None
    )


def registration_for(session: Session, announcement: Announcement) -> FideRegistration | None:
    return session.execute(select(FideRegistration).where(FideRegistration.announcement_id == announcement.id)).scalar()


def find_registration(session: Session, announcement: Announcement) -> FideRegistration:
    """The registration of ``announcement``; a 404 naming it where there is none."""
    made = registration_for(session, announcement)
    if made is None:
        raise NotFoundError(Message("announcement {code} is not registered with FIDE", code=announcement.code))
    return made


def register_by(
    session: Session, caller: Principal, announcement: Announcement, body: FideRegistrationIn
) -> FideRegistration:
    """``register`` as the doors (API and referee pages) make it: by the caller (the rating
    office is only warned of a late one), with its audit entry. The door authorises first."""
    made = register(session, announcement, body, by=writer_name(caller), office=caller.role == "admin")
    after = body.model_dump(mode="json")
    record_entry(
        session, caller.token_id, "fide.registration", f"announcement {announcement.code}", before=None, after=after
    )
    return made


def register(
    session: Session,
    announcement: Announcement,
    body: FideRegistrationIn,
    *,
    by: str,
    office: bool,
    now: datetime | None = None,
) -> FideRegistration:
    """Store the registration of ``announcement``; refuses (422) a late one where the federation's
    rule says so and the caller is not the rating office, and a second one (409)."""
    now = now or datetime.now(UTC)
    if registration_for(session, announcement) is not None:
        raise ConflictError(Message("announcement {code} is registered with FIDE already", code=announcement.code))
    warnings: list[ValidationProblem] = []
    arbiters = [("body.chief_arbiter.fide_id", body.chief_arbiter)]
    if body.deputy_arbiter is not None:
        arbiters.append(("body.deputy_arbiter.fide_id", body.deputy_arbiter))
    for place, arbiter in arbiters:
        if not _known(session, arbiter.fide_id):
            warnings.append(
                ValidationProblem(
                    place,
                    Message(
                        "FIDE id {id} ({name}) is not in FIDE's list ZDB holds", id=arbiter.fide_id, name=arbiter.name
                    ),
                )
            )
    if body.rounds != announcement.rounds:
        warnings.append(
            ValidationProblem(
                "body.rounds",
                Message("the announcement says {rounds} rounds", rounds=announcement.rounds),
            )
        )
    days_before = (announcement.start_date - now.date()).days
    if days_before < REGISTRATION_DAYS:
        rules = effective_settings(session, announcement.federation_prefix)
        late = ValidationProblem(
            "body",
            Message(
                "registered {days} days before the start: FIDE asks for at least {least} days (by {deadline})",
                days=days_before,
                least=REGISTRATION_DAYS,
                deadline=registration_deadline(announcement.start_date).isoformat(),
            ),
        )
        if rules.fide_registration == "refuse" and not office:
            raise ValidationError([late], warnings)
        warnings.append(late)
    made = FideRegistration(
        announcement_id=announcement.id,
        chief_arbiter_fide_id=body.chief_arbiter.fide_id,
        chief_arbiter_name=body.chief_arbiter.name,
        deputy_arbiter_fide_id=None if body.deputy_arbiter is None else body.deputy_arbiter.fide_id,
        deputy_arbiter_name=None if body.deputy_arbiter is None else body.deputy_arbiter.name,
        rate_of_play=body.rate_of_play,
        category=body.category,
        system=body.system,
        rounds=body.rounds,
        registered_at=now,
        registered_by=by,
        days_before=days_before,
        warnings=[(w.text if isinstance(w.text, Message) else Message(w.message)).as_json() for w in warnings],
    )
    announcement.fide_rated = True
    session.add(made)
    session.flush()
    return made


def results_sent_on(record: TournamentRecord) -> date:
    """The day the results came: the tournament's first submission (a correction later does not
    make them late, nor on time)."""
    return first_submitted_on(record.created_at)


def first_submitted_on(created_at: datetime) -> date:
    """``results_sent_on`` of a tournament created at ``created_at``: its day in UTC."""
    return as_utc(created_at).date()


def stored_warnings(made: FideRegistration) -> list[Message]:
    return [Message.from_json(w) for w in made.warnings]


def registration_out(session: Session, announcement: Announcement, made: FideRegistration) -> FideRegistrationOut:
    record = None if announcement.tournament_id is None else session.get(TournamentRecord, announcement.tournament_id)
    sent = None if record is None else results_sent_on(record)
    late = None if sent is None else days_late(announcement.end_date, sent)
    if record is None:
        state = "registered"
    elif record.status == "withdrawn":
        state = "withdrawn"
    elif record.evaluated_version is not None:
        state = "evaluated"
    else:
        state = "results_received"
    return FideRegistrationOut(
        code=announcement.code,
        name=announcement.name,
        start_date=announcement.start_date,
        end_date=announcement.end_date,
        chief_arbiter_fide_id=made.chief_arbiter_fide_id,
        chief_arbiter_name=made.chief_arbiter_name,
        deputy_arbiter_fide_id=made.deputy_arbiter_fide_id,
        deputy_arbiter_name=made.deputy_arbiter_name,
        rate_of_play=made.rate_of_play,
        category=made.category,  # type: ignore[arg-type]  # the table's check keeps it a category
        system=made.system,  # type: ignore[arg-type]
        rounds=made.rounds,
        registered_at=made.registered_at,
        registration_deadline=registration_deadline(announcement.start_date),
        days_before=made.days_before,
        registered_late=made.days_before < REGISTRATION_DAYS,
        warnings=[str(m) for m in stored_warnings(made)],
        state=state,  # type: ignore[arg-type]
        report=FideReportStateOut(
            tournament_id=None if record is None else record.id,
            report_due=report_due(announcement.end_date),
            results_sent_on=sent,
            late=None if late is None else late > 0,
            days_late=late,
            evaluated=record is not None and record.evaluated_version is not None,
        ),
    )
