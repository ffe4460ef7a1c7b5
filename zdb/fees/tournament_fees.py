"""The fees of one tournament as its referee and staff read them: every "computed" record with
its basis and lines (charges and credits), the booked total, and what its evaluated version
would owe before it is booked ("pending": computed now, stored by the next settlement)."""

from __future__ import annotations

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from zdb.errors import NotFoundError
from zdb.fees.computation import Basis
from zdb.fees.drafts import Draft, draft_fees
from zdb.fees.invoices import lines_out
from zdb.fees.models import FeeAssessment, FeeLine
from zdb.fees.money import decimal
from zdb.fees.schemas import FeeAssessmentOut, FeeLineOut, TournamentFeesOut
from zdb.messages import Message
from zdb.tournaments.models import TournamentRecord

__all__ = ["tournament_fees"]


def _out(row: FeeAssessment | Draft, basis: Basis, lines: list[FeeLineOut], computed: bool) -> FeeAssessmentOut:
    schedule_id = row.schedule_id if isinstance(row, FeeAssessment) else (row.schedule.id if row.schedule else None)
    return FeeAssessmentOut(
        version=row.version,
        reason=row.reason if isinstance(row, FeeAssessment) else "evaluation",  # type: ignore[arg-type]
        payer=row.payer,
        schedule_id=schedule_id,
        end_date=row.end_date,
        players=basis.players,
        games=basis.games,
        non_members=basis.non_members,
        fide_system=basis.fide_system,
        average_elo=basis.average_elo,
        days_late=basis.days_late,
        computed_at=row.computed_at if isinstance(row, FeeAssessment) and computed else None,
        total=decimal(sum(int(line.amount * 100) for line in lines)),
        lines=lines,
    )


def tournament_fees(session: Session, tournament_id: int) -> TournamentFeesOut:
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(Message("tournament {id} does not exist", id=tournament_id))
    a = FeeAssessment
    rows = list(session.execute(select(a).where(a.tournament_id == tournament_id).order_by(a.id)).scalars())
    booked = []
    total = 0
    for row in rows:
        lines = list(
            session.execute(select(FeeLine).where(FeeLine.assessment_id == row.id).order_by(FeeLine.id)).scalars()
        )
        total += sum(line.amount_cents for line in lines)
        basis = Basis(row.players, row.games, row.non_members, row.fide_system, row.average_elo, row.days_late)
        booked.append(_out(row, basis, lines_out(session, lines), computed=True))
    pending = None
    version = record.evaluated_version
    if version is not None and record.status != "withdrawn":
        done = session.execute(
            select(exists().where(a.tournament_id == tournament_id, a.version == version, a.reason == "evaluation"))
        ).scalar()
        if not done:
            draft = draft_fees(session, record, version)
            if draft.schedule is not None:
                drafted = [
                    FeeLineOut(
                        id=0,
                        tournament_id=tournament_id,
                        tournament_name="",
                        kind=d.kind,  # type: ignore[arg-type]
                        quantity=d.quantity,
                        unit=decimal(d.unit_cents),
                        amount=decimal(d.amount_cents),
                        credit_of=None,
                        booked_on=record.created_at.date(),
                        invoice=None,
                    )
                    for d in draft.lines
                ]
                pending = _out(draft, draft.basis, drafted, computed=False)
    return TournamentFeesOut(tournament_id=tournament_id, total=decimal(total), assessments=booked, pending=pending)
