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

Concurrency: every writer of the fees holds ``FEES`` (an advisory lock on PostgreSQL; on SQLite
the database's write lock, taken before the first read, see ``hold_fees``), so two settlements
or two invoices at once take turns: each tournament is booked once, invoice numbers follow each
other, and the second of two equal invoices finds the lines invoiced and names the invoice, on
both databases alike. The unique key of the "computed" record is the last guard.

Flushes, never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import exists, func, select, text
from sqlalchemy.orm import Session

from zdb.federations.models import Federation
from zdb.fees.computation import Basis, LineDraft, Terms, average_elo, fee_lines
from zdb.fees.models import FeeAssessment, FeeLine, FeeSchedule
from zdb.fees.schedules import schedule_in_force
from zdb.fide.deadlines import days_late
from zdb.fide.models import FideRegistration
from zdb.fide.registration import results_sent_on
from zdb.lists.models import FideRatingRow
from zdb.locks import hold
from zdb.players.models import Player
from zdb.tournaments.models import Announcement, GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["FEES", "Draft", "draft_fees", "hold_fees", "settle"]

#: the lock of the fees' writers ("ZDB" + 4)
FEES = 0x5A444204

#: the rated results: a game fee is owed for these only (forfeits and the other unrated results
#: are no game the evaluation counts)
_RATED = ("1-0", "0-1", "1/2-1/2")


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


@dataclass(frozen=True, slots=True)
class Draft:
    """The fees of one evaluated version as they would be booked now."""

    tournament_id: int
    version: int
    payer: str
    end_date: date
    schedule: FeeSchedule | None
    basis: Basis
    lines: list[LineDraft]


def _terms(schedule: FeeSchedule) -> Terms:
    return Terms(
        schedule.dwz_tournament_cents,
        schedule.dwz_game_cents,
        schedule.dwz_non_member_cents,
        schedule.fide_player_cents,
        tuple((int(low), int(amount)) for low, amount in schedule.fide_round_robin_tiers),
        schedule.fide_late_cents,
    )


def _fide_ratings(session: Session, tournament_id: int, version: int, category: str, start: date) -> list[int]:
    """The FIDE ratings the players started with: the submitted one, else the rating of the
    tournament's category in the newest edition of FIDE's list before the start."""
    p = Participation
    rows = session.execute(
        select(p.fide_rating, Player.fide_id)
        .join(Player, Player.pkz == p.player_pkz)
        .where(p.tournament_id == tournament_id, p.version == version)
    ).all()
    ratings = [r.fide_rating for r in rows if r.fide_rating]
    wanted = [r.fide_id for r in rows if not r.fide_rating and r.fide_id is not None]
    if wanted:
        f = FideRatingRow
        newest = (
            select(f.fide_id, func.max(f.edition).label("edition"))
            .where(f.fide_id.in_(wanted), f.edition < start)
            .group_by(f.fide_id)
            .subquery()
        )
        column = {"rapid": f.rapid, "blitz": f.blitz}.get(category, f.standard)
        listed = session.execute(
            select(column).join(newest, (f.fide_id == newest.c.fide_id) & (f.edition == newest.c.edition))
        ).scalars()
        ratings += [r for r in listed if r]
    return ratings


def _payer(session: Session, announcement: Announcement | None, prefix: str | None) -> str:
    if announcement is not None:
        return announcement.organiser
    federation = None if prefix is None else session.get(Federation, prefix)
    return federation.name if federation is not None else "—"


def draft_fees(session: Session, record: TournamentRecord, version: int) -> Draft:
    """The fees of ``version`` of a tournament as they would be booked now."""
    head = session.get(TournamentVersion, (record.id, version))
    assert head is not None, "an evaluated version exists"
    p, g = Participation, GameRow
    players, non_members = session.execute(
        select(func.count(), func.count().filter(p.member.is_(False))).where(
            p.tournament_id == record.id, p.version == version
        )
    ).one()
    games = session.execute(
        select(func.count()).where(g.tournament_id == record.id, g.version == version, g.result.in_(_RATED))
    ).scalar_one()
    announcement = session.execute(select(Announcement).where(Announcement.tournament_id == record.id)).scalar()
    registration = (
        None
        if announcement is None
        else session.execute(
            select(FideRegistration).where(FideRegistration.announcement_id == announcement.id)
        ).scalar()
    )
    average = late = None
    if registration is not None:
        if registration.system == "round_robin":
            start = head.start_date or head.end_date
            average = average_elo(_fide_ratings(session, record.id, version, registration.category, start))
        late = days_late(head.end_date, results_sent_on(record))
    basis = Basis(
        players=players,
        games=games,
        non_members=non_members,
        fide_system=None if registration is None else registration.system,
        average_elo=average,
        days_late=late,
    )
    schedule = schedule_in_force(session, head.federation_prefix, head.end_date)
    lines = [] if schedule is None else fee_lines(basis, _terms(schedule))
    return Draft(
        record.id, version, _payer(session, announcement, head.federation_prefix), head.end_date, schedule, basis, lines
    )


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


def _assessment(draft: Draft, reason: str, now: datetime) -> FeeAssessment:
    return FeeAssessment(
        tournament_id=draft.tournament_id,
        version=draft.version,
        reason=reason,
        payer=draft.payer,
        schedule_id=None if draft.schedule is None else draft.schedule.id,
        end_date=draft.end_date,
        players=draft.basis.players,
        games=draft.basis.games,
        non_members=draft.basis.non_members,
        fide_system=draft.basis.fide_system,
        average_elo=draft.basis.average_elo,
        days_late=draft.basis.days_late,
        computed_at=now,
    )


def _book_evaluation(session: Session, record: TournamentRecord, now: datetime) -> bool:
    version = record.evaluated_version
    assert version is not None
    draft = draft_fees(session, record, version)
    if draft.schedule is None:
        return False  # no schedule covers its end date: booked once one does
    assessment = _assessment(draft, "evaluation", now)
    session.add(assessment)
    session.flush()
    earlier = _uncancelled(session, record.id)
    same = sorted((c.kind, c.quantity, c.unit_cents) for c in earlier) == sorted(
        (d.kind, d.quantity, d.unit_cents) for d in draft.lines
    )
    if same:
        return True  # a correction that changes no fee: the earlier charges stand
    today = now.date()
    session.add_all([_credit(c, assessment, today) for c in earlier])
    session.add_all(
        [
            FeeLine(
                assessment_id=assessment.id,
                tournament_id=record.id,
                payer=draft.payer,
                kind=d.kind,
                quantity=d.quantity,
                unit_cents=d.unit_cents,
                amount_cents=d.amount_cents,
                booked_on=today,
            )
            for d in draft.lines
        ]
    )
    session.flush()
    return True


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
    for record in session.execute(pending).scalars().all():
        written += _book_evaluation(session, record, now)
    for record in session.execute(withdrawn).scalars().all():
        written += _book_withdrawal(session, record, now)
    return written
