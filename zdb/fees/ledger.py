"""Booking the fees of evaluated tournaments: the "fees computed" record of each evaluated
version, its charges, and the credits of corrections and withdrawals.

Why on demand rather than inside the recalculation: the recalculation's unit of work stays the
engine's, and booking is idempotent and cheap to call. The fees are booked by a settlement
(``settle``), which runs

* before every change of a fee schedule (in the same transaction), so that the fees of every
  tournament evaluated until then are computed with the schedule as it was — a schedule changed
  later never changes fees already computed;
* before an invoice is issued, so that the invoice holds everything evaluated until then;
* when staff ask for it (``POST /api/v1/fees/settlement``).

What a tournament would owe before it is booked is shown as "pending" (computed, not stored).

The rules, each what a rating officer would expect:

* the fees are those of the evaluated version, with the schedule in force at its end date
  (``zdb.fees.schedules``). A tournament whose end date no schedule covers is left unbooked
  until one does (a schedule entered late for its year charges the year's tournaments);
* a correction evaluated again: every charge of the earlier version is cancelled by a credit and
  the new version's charges are booked — unless they are the same (kind, quantity, unit), then
  the earlier charges stand and only the "computed" record of the new version is written;
* a withdrawal: every charge not cancelled yet gets its credit;
* booked lines are never edited; a credit is booked on its own day and lands on the next invoice;
* the payer is the organiser the announcement names, else the tournament's federation (by name);
* games counted are the rated ones: forfeits and other unrated results cost no game fee;
* the FIDE fees apply to a tournament whose announcement is registered with FIDE; the results
  came on the day of the tournament's first submission (``zdb.fide.registration``).

Set-based: a settlement reads the tournaments it books a batch at a time (``BATCH``; their
facts in one statement, ``zdb.fees.drafts.drafts_at_once``) and writes each batch's "computed"
records in one insert and its lines in another, so that the first settlement after a schedule
that reaches years back books thousands of tournaments in a few statements, with the same
records and lines as booking them one by one.

Concurrency: every writer of the fees holds ``FEES`` (an advisory lock on PostgreSQL; on SQLite
the database's write lock, taken before the first read, see ``hold_fees``), so two settlements
or two invoices at once take turns: each tournament is booked once, invoice numbers follow each
other, and the second of two equal invoices finds the lines invoiced and names the invoice, on
both databases alike. The unique key of the "computed" record is the last guard.

Flushes, never commits.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import exists, func, insert, select, text
from sqlalchemy.orm import Session

from zdb.fees.drafts import Draft, drafts_at_once
from zdb.fees.models import FeeAssessment, FeeLine, FeeSchedule
from zdb.locks import hold
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["FEES", "hold_fees", "settle"]

#: the lock of the fees' writers ("ZDB" + 4)
FEES = 0x5A444204

#: tournaments read and booked together by a settlement: one statement reads a batch's facts,
#: one writes its "computed" records, one its lines (an IN list of this many ids stays well
#: within every driver's limit of bound parameters)
BATCH = 1000


def hold_fees(session: Session) -> None:
    """Take the fees' lock until the transaction ends.

    SQLite has no advisory lock, and its writers are serialised only from their first write on:
    two invoices issued at once would both read the same open lines and the same next number,
    and the second would meet the first's unique keys (a bare 409 that names nothing). A write
    that changes nothing takes the database's write lock now (waiting, up to the busy timeout,
    for another writer's commit), so that everything the caller reads next is read after the
    other's commit, as behind PostgreSQL's advisory lock. Reads before it ran outside any
    transaction (the driver begins one at the first write), so no older snapshot stands in the
    way.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text("UPDATE fee_invoices SET id = id WHERE 0"))
    else:
        hold(session, FEES)


def _uncancelled(session: Session, tournament_id: int) -> list[FeeLine]:
    """The tournament's charges that no credit cancels yet."""
    credit = FeeLine.__table__.alias("credit")
    return list(
        session.execute(
            select(FeeLine)
            .where(
                FeeLine.tournament_id == tournament_id,
                FeeLine.credit_of.is_(None),
                ~exists().where(credit.c.credit_of == FeeLine.id),
            )
            .order_by(FeeLine.id)
        ).scalars()
    )


def _credit(charge: FeeLine, assessment: FeeAssessment, today: date) -> FeeLine:
    return FeeLine(
        assessment_id=assessment.id,
        tournament_id=charge.tournament_id,
        payer=charge.payer,
        kind=charge.kind,
        quantity=charge.quantity,
        unit_cents=charge.unit_cents,
        amount_cents=-charge.amount_cents,
        credit_of=charge.id,
        booked_on=today,
    )


def _assessment_row(draft: Draft, now: datetime) -> dict[str, Any]:
    """The "computed" record of an evaluation, as a row to insert."""
    return {
        "tournament_id": draft.tournament_id,
        "version": draft.version,
        "reason": "evaluation",
        "payer": draft.payer,
        "schedule_id": None if draft.schedule is None else draft.schedule.id,
        "end_date": draft.end_date,
        "players": draft.basis.players,
        "games": draft.basis.games,
        "non_members": draft.basis.non_members,
        "fide_system": draft.basis.fide_system,
        "average_elo": draft.basis.average_elo,
        "days_late": draft.basis.days_late,
        "computed_at": now,
    }


def _uncancelled_of(session: Session, tournament_ids: list[int]) -> dict[int, list[FeeLine]]:
    """``_uncancelled`` of many tournaments in one read."""
    credit = FeeLine.__table__.alias("credit")
    found: dict[int, list[FeeLine]] = {}
    rows = session.execute(
        select(FeeLine)
        .where(
            FeeLine.tournament_id.in_(tournament_ids),
            FeeLine.credit_of.is_(None),
            ~exists().where(credit.c.credit_of == FeeLine.id),
        )
        .order_by(FeeLine.id)
    ).scalars()
    for line in rows:
        found.setdefault(line.tournament_id, []).append(line)
    return found


def _book_evaluations(session: Session, drafts: list[Draft], now: datetime) -> int:
    """Book a batch's evaluations: one insert of their "computed" records, one of their lines
    (each tournament's credits, then its charges, in the order of the tournaments), as booking
    them one by one would. A draft without a schedule is left for a schedule that covers it."""
    drafts = [d for d in drafts if d.schedule is not None]
    if not drafts:
        return 0
    earlier = _uncancelled_of(session, [d.tournament_id for d in drafts])
    ids = session.execute(
        insert(FeeAssessment).returning(FeeAssessment.id, sort_by_parameter_order=True),
        [_assessment_row(d, now) for d in drafts],
    ).scalars()
    today = now.date()
    lines: list[dict[str, Any]] = []
    for draft, assessment_id in zip(drafts, ids, strict=True):
        charges = earlier.get(draft.tournament_id, [])
        same = sorted((c.kind, c.quantity, c.unit_cents) for c in charges) == sorted(
            (d.kind, d.quantity, d.unit_cents) for d in draft.lines
        )
        if same:
            continue  # a correction that changes no fee: the earlier charges stand
        common = {"assessment_id": assessment_id, "tournament_id": draft.tournament_id, "booked_on": today}
        lines += [
            common
            | {
                "payer": c.payer,
                "kind": c.kind,
                "quantity": c.quantity,
                "unit_cents": c.unit_cents,
                "amount_cents": -c.amount_cents,
                "credit_of": c.id,
            }
            for c in charges
        ]
        lines += [
            common
            | {
                "payer": draft.payer,
                "kind": d.kind,
                "quantity": d.quantity,
                "unit_cents": d.unit_cents,
                "amount_cents": d.amount_cents,
                "credit_of": None,
            }
            for d in draft.lines
        ]
    if lines:
        session.execute(insert(FeeLine), lines)
    return len(drafts)


def _book_withdrawal(session: Session, record: TournamentRecord, now: datetime) -> bool:
    earlier = _uncancelled(session, record.id)
    last = session.execute(
        select(FeeAssessment)
        .where(FeeAssessment.tournament_id == record.id, FeeAssessment.reason == "evaluation")
        .order_by(FeeAssessment.id.desc())
        .limit(1)
    ).scalar_one()
    assessment = FeeAssessment(
        tournament_id=record.id,
        version=record.current_version,
        reason="withdrawal",
        payer=last.payer,
        schedule_id=last.schedule_id,
        end_date=last.end_date,
        players=last.players,
        games=last.games,
        non_members=last.non_members,
        fide_system=last.fide_system,
        average_elo=last.average_elo,
        days_late=last.days_late,
        computed_at=now,
    )
    session.add(assessment)
    session.flush()
    session.add_all([_credit(c, assessment, now.date()) for c in earlier])
    session.flush()
    return True


def settle(session: Session, *, now: datetime | None = None, tournament_ids: list[int] | None = None) -> int:
    """Book the fees of every evaluated version not booked yet and credit every withdrawn
    tournament's charges; the number of "computed" records written. Takes the fees' lock."""
    hold_fees(session)
    now = now or datetime.now(UTC)
    t, a = TournamentRecord, FeeAssessment
    earliest = session.execute(select(func.min(FeeSchedule.valid_from))).scalar()
    if earliest is None:
        return 0
    head = TournamentVersion
    booked = exists().where(a.tournament_id == t.id, a.version == t.evaluated_version, a.reason == "evaluation")
    pending = (
        select(t)
        .join(head, (head.tournament_id == t.id) & (head.version == t.evaluated_version))
        .where(t.evaluated_version.is_not(None), t.status != "withdrawn", ~booked, head.end_date >= earliest)
        .order_by(t.id)
    )
    withdrawn = (
        select(t)
        .where(
            t.status == "withdrawn",
            exists().where(a.tournament_id == t.id, a.reason == "evaluation"),
            ~exists().where(a.tournament_id == t.id, a.reason == "withdrawal"),
        )
        .order_by(t.id)
    )
    if tournament_ids is not None:
        pending = pending.where(t.id.in_(tournament_ids))
        withdrawn = withdrawn.where(t.id.in_(tournament_ids))
    written = 0
    pending_ids = list(session.execute(pending.with_only_columns(t.id)).scalars())
    for k in range(0, len(pending_ids), BATCH):
        written += _book_evaluations(session, drafts_at_once(session, pending_ids[k : k + BATCH]), now)
    for record in session.execute(withdrawn).scalars().all():
        written += _book_withdrawal(session, record, now)
    return written
