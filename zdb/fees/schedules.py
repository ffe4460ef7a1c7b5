"""Fee schedules: a federation's fees from a day on, kept by staff.

Why here: the fees of a tournament are those of the schedule in force at its end date — the one
of its federation, else of the nearest ancestor that has one for that day (a district pays the
national fees unless it has its own). Two schedules of one federation never overlap: the one to
apply must be unique. A change of a schedule does not change the fees computed with it before:
every change first books the fees of the tournaments evaluated so far (``zdb.fees.ledger``),
with the schedule as it was, and booked fees are never recomputed.

Writers take the fees' lock (``zdb.fees.ledger.hold_fees``): two staff saving overlapping
schedules at once take turns, and the second is refused.

Flushes, never commits.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Federation
from zdb.fees.models import FeeSchedule
from zdb.fees.money import cents, decimal
from zdb.fees.schemas import FeeScheduleIn, FeeScheduleOut, TierOut
from zdb.messages import Message

__all__ = ["find_schedule", "list_schedules", "save_schedule", "schedule_in_force", "schedule_out"]


def schedule_out(row: FeeSchedule) -> FeeScheduleOut:
    return FeeScheduleOut(
        id=row.id,
        federation=row.federation_prefix,
        valid_from=row.valid_from,
        valid_until=row.valid_until,
        dwz_per_tournament=decimal(row.dwz_tournament_cents),
        dwz_per_game=decimal(row.dwz_game_cents),
        dwz_per_non_member=decimal(row.dwz_non_member_cents),
        fide_per_player=decimal(row.fide_player_cents),
        fide_round_robin=[TierOut(from_elo=low, amount=decimal(amount)) for low, amount in row.fide_round_robin_tiers],
        fide_late_report=decimal(row.fide_late_cents),
        note=row.note,
        changed_at=row.changed_at,
        changed_by=row.changed_by,
    )


def find_schedule(session: Session, schedule_id: int) -> FeeSchedule:
    found = session.get(FeeSchedule, schedule_id)
    if found is None:
        raise NotFoundError(Message("no fee schedule has the id {id}", id=schedule_id))
    return found


def list_schedules(session: Session, federation: str | None = None) -> list[FeeSchedule]:
    query = select(FeeSchedule).order_by(FeeSchedule.federation_prefix, FeeSchedule.valid_from)
    if federation is not None:
        query = query.where(FeeSchedule.federation_prefix == federation)
    return list(session.execute(query).scalars())


def _overlapping(session: Session, body: FeeScheduleIn, own_id: int | None) -> FeeSchedule | None:
    s = FeeSchedule
    where = [
        s.federation_prefix == body.federation,
        or_(s.valid_until.is_(None), s.valid_until >= body.valid_from),
    ]
    if body.valid_until is not None:
        where.append(s.valid_from <= body.valid_until)
    if own_id is not None:
        where.append(s.id != own_id)
    return session.execute(select(s).where(*where).order_by(s.valid_from).limit(1)).scalar()


def save_schedule(
    session: Session, body: FeeScheduleIn, *, by: str, schedule_id: int | None = None, now: datetime | None = None
) -> FeeSchedule:
    """A new schedule (``schedule_id`` None) or the new terms of one; refuses (422) an unknown
    federation, dates the wrong way round and a validity overlapping another schedule of the
    federation. The caller holds the fees' lock and has booked the fees computed so far."""
    problems: list[ValidationProblem] = []
    if session.get(Federation, body.federation) is None:
        problems.append(
            ValidationProblem(
                "body.federation", Message("no federation has the prefix {prefix!r}", prefix=body.federation)
            )
        )
    if body.valid_until is not None and body.valid_until < body.valid_from:
        problems.append(ValidationProblem("body.valid_until", Message("lies before the start date")))
    if not problems:
        other = _overlapping(session, body, schedule_id)
        if other is not None:
            problems.append(
                ValidationProblem(
                    "body.valid_from",
                    Message(
                        "the schedule of {prefix!r} valid from {start} to {end} covers days of this one",
                        prefix=body.federation,
                        start=other.valid_from.isoformat(),
                        end=_until_text(other.valid_until),
                    ),
                )
            )
    if problems:
        raise ValidationError(problems)
    row = FeeSchedule() if schedule_id is None else find_schedule(session, schedule_id)
    row.federation_prefix = body.federation
    row.valid_from = body.valid_from
    row.valid_until = body.valid_until
    row.dwz_tournament_cents = cents(body.dwz_per_tournament)
    row.dwz_game_cents = cents(body.dwz_per_game)
    row.dwz_non_member_cents = cents(body.dwz_per_non_member)
    row.fide_player_cents = cents(body.fide_per_player)
    row.fide_round_robin_tiers = [[t.from_elo, cents(t.amount)] for t in body.fide_round_robin]
    row.fide_late_cents = cents(body.fide_late_report)
    row.note = body.note
    row.changed_at = now or datetime.now(UTC)
    row.changed_by = by
    if schedule_id is None:
        session.add(row)
    session.flush()
    return row


def _until_text(until: date | None) -> Message | str:
    return Message("open end") if until is None else until.isoformat()


def schedule_in_force(session: Session, prefix: str | None, day: date) -> FeeSchedule | None:
    """The schedule of ``prefix``'s federation in force on ``day``, else its nearest ancestor's."""
    seen: set[str] = set()
    current = prefix
    while current is not None and current not in seen:
        seen.add(current)  # a broken tree never loops
        s = FeeSchedule
        found = session.execute(
            select(s).where(
                s.federation_prefix == current,
                s.valid_from <= day,
                or_(s.valid_until.is_(None), s.valid_until >= day),
            )
        ).scalar()
        if found is not None:
            return found
        federation = session.get(Federation, current)
        current = None if federation is None else federation.parent_prefix
    return None
