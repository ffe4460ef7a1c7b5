"""Announcements before play: a tournament to be rated is made known before it starts (WO 6.1),
gets a code, appears in the public calendar, and its submission is matched to it.

Why here: the federation's rule (``zdb.federations.settings``: off, warn or required, and how
many days before the start) decides what an unannounced or late-announced submission gets: a
refusal naming the rule, or a warning. A submission names its announcement by code, or is
matched to the one unclaimed announcement of its federation whose dates overlap its own. The
rating office (an admin token) is never refused for want of an announcement — it decides about
exceptions (a late registration it accepted) — and gets the warning instead. A correction keeps
the announcement of the tournament it corrects and is not checked again.

Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Federation
from zdb.federations.settings import EffectiveSettings, effective_settings
from zdb.messages import Message
from zdb.tournaments.lifecycle_schemas import AnnouncementIn, AnnouncementOut
from zdb.tournaments.models import Announcement, TournamentRecord
from zdb.tournaments.service import TournamentSubmission
from zdb.tournaments.validation import check_time_control

__all__ = [
    "announce",
    "announcement_for",
    "announcement_out",
    "calendar",
    "cancel_announcement",
    "claim",
    "edit_announcement",
    "find_announcement",
]


def _check(session: Session, body: AnnouncementIn) -> None:
    problems = []
    if session.get(Federation, body.federation) is None:
        problems.append(
            ValidationProblem(
                "body.federation", Message("no federation has the prefix {prefix!r}", prefix=body.federation)
            )
        )
    if body.end_date < body.start_date:
        problems.append(ValidationProblem("body.end_date", Message("lies before the start date")))
    problems += check_time_control(body.time_control, youth_u12=False, place="body.time_control")
    if problems:
        raise ValidationError(problems)


def announce(session: Session, body: AnnouncementIn, *, by: str, now: datetime | None = None) -> Announcement:
    """Store an announcement and give it its code (the start's year and a running number)."""
    _check(session, body)
    made = Announcement(
        code="",
        federation_prefix=body.federation,
        name=body.name,
        place=body.place,
        start_date=body.start_date,
        end_date=body.end_date,
        rounds=body.rounds,
        mode=body.mode,
        time_control=body.time_control,
        organiser=body.organiser,
        referee=body.referee,
        fide_rated=body.fide_rated,
        announced_by=by,
        announced_at=now or datetime.now(UTC),
    )
    session.add(made)
    session.flush()
    made.code = f"{body.start_date.year}-{made.id:04d}"
    session.flush()
    return made


#: what an edit may change, and the audit log records before and after
_FIELDS = (
    "federation_prefix",
    "name",
    "place",
    "start_date",
    "end_date",
    "rounds",
    "mode",
    "time_control",
    "organiser",
    "referee",
    "fide_rated",
)


def _changeable(session: Session, code: str) -> Announcement:
    """The announcement, locked and read afresh; refused once cancelled or claimed by a live
    tournament (then the tournament is what is corrected)."""
    found = find_announcement(session, code)
    session.refresh(found, with_for_update=True)
    if found.cancelled_at is not None:
        raise ConflictError(Message("announcement {code} was cancelled", code=code))
    if _claimed_by_live(session, found):
        raise ConflictError(
            Message(
                "announcement {code} belongs to tournament {id}: correct the tournament instead",
                code=code,
                id=found.tournament_id,
            )
        )
    return found


def edit_announcement(
    session: Session, code: str, body: AnnouncementIn
) -> tuple[Announcement, dict[str, object], dict[str, object]]:
    """Replace an announcement's facts (its code and the day it was made stay: the rule's days
    before the start count from the first announcement); the changed values before and after."""
    found = _changeable(session, code)
    _check(session, body)
    before = {f: getattr(found, f) for f in _FIELDS}
    given = body.model_dump()
    given["federation_prefix"] = given.pop("federation")
    for name in _FIELDS:
        setattr(found, name, given[name])
    session.flush()
    changed = [f for f in _FIELDS if before[f] != given[f]]
    return found, {f: before[f] for f in changed}, {f: given[f] for f in changed}


def cancel_announcement(
    session: Session, code: str, *, by: str, reason: str | None, now: datetime | None = None
) -> Announcement:
    """Cancel an announcement (the tournament will not be played or rated): it leaves the
    calendar and the matching, and stays for the record with who, when and why."""
    found = _changeable(session, code)
    found.cancelled_at, found.cancelled_by = now or datetime.now(UTC), by
    found.cancel_reason = reason
    session.flush()
    return found


def announcement_out(made: Announcement) -> AnnouncementOut:
    return AnnouncementOut(
        code=made.code,
        federation=made.federation_prefix,
        name=made.name,
        place=made.place,
        start_date=made.start_date,
        end_date=made.end_date,
        rounds=made.rounds,
        mode=made.mode,  # type: ignore[arg-type]  # the table's check keeps it one of the modes
        time_control=made.time_control,
        organiser=made.organiser,
        referee=made.referee,
        fide_rated=made.fide_rated,
        announced_at=made.announced_at,
        tournament_id=made.tournament_id,
        cancelled_at=made.cancelled_at,
        cancel_reason=made.cancel_reason,
    )


def find_announcement(session: Session, code: str) -> Announcement:
    found = session.execute(select(Announcement).where(Announcement.code == code)).scalar()
    if found is None:
        raise NotFoundError(Message("no announcement has the code {code!r}", code=code))
    return found


def calendar(
    session: Session,
    *,
    date_from: date | None,
    date_to: date | None,
    federation: str | None,
    limit: int,
    offset: int,
) -> tuple[list[AnnouncementOut], int]:
    """The announced tournaments ending on or after ``date_from`` and starting on or before
    ``date_to``, in a federation's subtree, by start date."""
    a = Announcement
    where: list[ColumnElement[bool]] = [a.cancelled_at.is_(None)]  # a cancelled tournament is not in the calendar
    if date_from is not None:
        where.append(a.end_date >= date_from)
    if date_to is not None:
        where.append(a.start_date <= date_to)
    if federation:
        where.append(a.federation_prefix.startswith(federation, autoescape=True))
    total = session.execute(select(func.count()).select_from(a).where(*where)).scalar_one()
    rows = session.execute(select(a).where(*where).order_by(a.start_date, a.id).limit(limit).offset(offset)).scalars()
    return [announcement_out(r) for r in rows], total


def _claimed_by_live(session: Session, found: Announcement) -> bool:
    """Whether a live tournament holds the announcement: a withdrawn one gives it back, so that
    the tournament submitted again (under a new id) is still the announced one."""
    if found.tournament_id is None:
        return False
    holder = session.get(TournamentRecord, found.tournament_id)
    return holder is not None and holder.status != "withdrawn"


def _overlapping(session: Session, submission: TournamentSubmission) -> Sequence[Announcement]:
    a, t = Announcement, TournamentRecord
    start = submission.start_date or submission.end_date
    withdrawn = select(t.id).where(t.status == "withdrawn")
    return (
        session.execute(
            select(a)
            .where(
                or_(a.tournament_id.is_(None), a.tournament_id.in_(withdrawn)),
                a.cancelled_at.is_(None),
                a.federation_prefix == submission.federation_prefix,
                a.start_date <= submission.end_date,
                a.end_date >= start,
            )
            .order_by(a.id)
        )
        .scalars()
        .all()
    )


def _rule_text(rules: EffectiveSettings) -> Message:
    return Message(
        "federation {prefix!r} asks that a tournament be announced at least {days} days before its start",
        prefix=rules.announcement_from or "",
        days=rules.announcement_days,
    )


def announcement_for(
    session: Session, submission: TournamentSubmission, code: str | None, *, place: str, office: bool
) -> tuple[Announcement | None, tuple[ValidationProblem, ...]]:
    """The announcement a new submission belongs to (named by ``code`` at ``place``, or the one
    matching it), and the warnings to answer with; refuses (422) what the federation's rule
    refuses. ``office``: the rating office is warned where a referee is refused."""
    problems: list[ValidationProblem] = []
    warnings: list[ValidationProblem] = []
    found: Announcement | None = None
    start = submission.start_date or submission.end_date
    if code:
        found = session.execute(select(Announcement).where(Announcement.code == code)).scalar()
        if found is None:
            problems.append(ValidationProblem(place, Message("no announcement has the code {code!r}", code=code)))
        elif found.cancelled_at is not None:
            problems.append(ValidationProblem(place, Message("announcement {code} was cancelled", code=code)))
        elif _claimed_by_live(session, found):
            problems.append(
                ValidationProblem(
                    place,
                    Message(
                        "announcement {code} belongs to tournament {id} already", code=code, id=found.tournament_id
                    ),
                )
            )
        elif found.start_date > submission.end_date or found.end_date < start:
            problems.append(
                ValidationProblem(
                    place,
                    Message(
                        "announcement {code} is for {start} to {end}; this tournament was played {played} to {ended}",
                        code=code,
                        start=found.start_date.isoformat(),
                        end=found.end_date.isoformat(),
                        played=start.isoformat(),
                        ended=submission.end_date.isoformat(),
                    ),
                )
            )
        if problems:
            raise ValidationError(problems)
    else:
        candidates = _overlapping(session, submission)
        if len(candidates) == 1:
            found = candidates[0]
            warnings.append(
                ValidationProblem(
                    place,
                    Message("matched to announcement {code} ({name!r})", code=found.code, name=found.name),
                )
            )
        elif candidates:
            warnings.append(
                ValidationProblem(
                    place,
                    Message(
                        "announcements {codes} fit this tournament: name its own with announcement=",
                        codes=", ".join(c.code for c in candidates),
                    ),
                )
            )
    rules = effective_settings(session, submission.federation_prefix)
    if rules.announcement == "off":
        return found, tuple(warnings)
    if found is None:
        problem = Message("the tournament was not announced: {rule}", rule=_rule_text(rules))
    elif found.announced_at.date() > found.start_date - timedelta(days=rules.announcement_days):
        problem = Message(
            "announcement {code} was made on {made}, {days} days before the start: {rule}",
            code=found.code,
            made=found.announced_at.date().isoformat(),
            days=(found.start_date - found.announced_at.date()).days,
            rule=_rule_text(rules),
        )
    else:
        return found, tuple(warnings)
    if rules.announcement == "required" and not office:
        raise ValidationError([ValidationProblem(place, problem)], warnings)
    return found, (*warnings, ValidationProblem(place, problem))


def claim(session: Session, announcement: Announcement, tournament_id: int) -> None:
    """The stored tournament is the announced one (a withdrawn holder gives it back). The row
    lock keeps one announcement from being claimed by two submissions at once."""
    session.refresh(announcement, with_for_update=True)
    if announcement.tournament_id != tournament_id and _claimed_by_live(session, announcement):
        raise ConflictError(
            Message(
                "announcement {code} belongs to tournament {id} already",
                code=announcement.code,
                id=announcement.tournament_id,
            )
        )
    announcement.tournament_id = tournament_id
    session.flush()
