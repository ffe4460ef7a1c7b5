"""Invoices: what an organiser (or a federation, for tournaments not announced) owes for a
period, from the booked fee lines not invoiced yet.

Why here: an invoice holds every line of its payer booked in its period that is on no invoice
yet (a credit booked after an invoice lands on the next one); its number is the year of issue
and a running number (``2026-0001``). Once issued it never changes: no line leaves it, none joins
it, and nothing here edits it. Issuing books the fees evaluated so far first (``settle``) and
holds the fees' lock: two staff issuing the same invoice at once take turns, and the second
finds the lines invoiced (409, naming the invoice).

Flushes, never commits.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.common.utc import as_utc
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.fees.ledger import settle
from zdb.fees.models import FeeInvoice, FeeLine
from zdb.fees.money import decimal, german
from zdb.fees.schemas import FeeLineOut, InvoiceOut, OpenFeesOut
from zdb.messages import Message
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = [
    "find_invoice",
    "invoice_csv",
    "invoice_out",
    "issue_invoice",
    "line_out",
    "list_invoices",
    "open_fees",
    "open_lines",
]


def _names(session: Session, tournament_ids: set[int]) -> dict[int, str]:
    if not tournament_ids:
        return {}
    t, v = TournamentRecord, TournamentVersion
    rows = session.execute(
        select(t.id, v.name)
        .join(v, (v.tournament_id == t.id) & (v.version == t.current_version))
        .where(t.id.in_(tournament_ids))
    )
    return {row.id: row.name for row in rows}


def line_out(line: FeeLine, names: dict[int, str], numbers: dict[int, str]) -> FeeLineOut:
    return FeeLineOut(
        id=line.id,
        tournament_id=line.tournament_id,
        tournament_name=names.get(line.tournament_id, ""),
        kind=line.kind,  # type: ignore[arg-type]  # the table's check keeps it a kind
        quantity=line.quantity,
        unit=decimal(line.unit_cents),
        amount=decimal(line.amount_cents),
        credit_of=line.credit_of,
        booked_on=line.booked_on,
        invoice=None if line.invoice_id is None else numbers.get(line.invoice_id),
    )


def lines_out(session: Session, lines: list[FeeLine]) -> list[FeeLineOut]:
    names = _names(session, {line.tournament_id for line in lines})
    invoice_ids = {line.invoice_id for line in lines if line.invoice_id is not None}
    numbers: dict[int, str] = {}
    if invoice_ids:
        found = session.execute(select(FeeInvoice.id, FeeInvoice.number).where(FeeInvoice.id.in_(invoice_ids)))
        numbers = {row.id: row.number for row in found}
    return [line_out(line, names, numbers) for line in lines]


def open_lines(session: Session, payer: str, period_from: date, period_to: date) -> list[FeeLine]:
    f = FeeLine
    return list(
        session.execute(
            select(f)
            .where(f.payer == payer, f.invoice_id.is_(None), f.booked_on >= period_from, f.booked_on <= period_to)
            .order_by(f.booked_on, f.tournament_id, f.id)
        ).scalars()
    )


def open_fees(session: Session) -> list[OpenFeesOut]:
    """Every payer with lines not invoiced yet, by name."""
    f = FeeLine
    rows = session.execute(
        select(f.payer, func.count(), func.sum(f.amount_cents), func.min(f.booked_on), func.max(f.booked_on))
        .where(f.invoice_id.is_(None))
        .group_by(f.payer)
        .order_by(f.payer)
    ).all()
    return [
        OpenFeesOut(payer=p, lines=n, total=decimal(int(s)), first_booked_on=a, last_booked_on=b)
        for p, n, s, a, b in rows
    ]


def _number(session: Session, year: int) -> str:
    issued = session.execute(select(func.count()).where(FeeInvoice.number.like(f"{year}-%"))).scalar_one()
    return f"{year}-{issued + 1:04d}"


def issue_invoice(
    session: Session, payer: str, period_from: date, period_to: date, *, by: str, now: datetime | None = None
) -> FeeInvoice:
    """The invoice of ``payer``'s open lines booked from ``period_from`` to ``period_to``."""
    if period_to < period_from:
        raise ValidationError([ValidationProblem("body.period_to", Message("lies before the start date"))])
    now = now or datetime.now(UTC)
    settle(session, now=now)  # takes the fees' lock
    lines = open_lines(session, payer, period_from, period_to)
    if not lines:
        f = FeeLine
        taken = session.execute(
            select(FeeInvoice.number)
            .join(f, f.invoice_id == FeeInvoice.id)
            .where(f.payer == payer, f.booked_on >= period_from, f.booked_on <= period_to)
            .order_by(FeeInvoice.id.desc())
            .limit(1)
        ).scalar()
        if taken is not None:
            raise ConflictError(
                Message(
                    "the fees of {payer!r} in this period are on invoice {number} already", payer=payer, number=taken
                )
            )
        raise ValidationError(
            [ValidationProblem("body.payer", Message("{payer!r} owes no fees booked in this period", payer=payer))]
        )
    invoice = FeeInvoice(
        number=_number(session, now.year),
        payer=payer,
        period_from=period_from,
        period_to=period_to,
        total_cents=sum(line.amount_cents for line in lines),
        issued_at=now,
        issued_by=by,
    )
    session.add(invoice)
    session.flush()
    for line in lines:
        line.invoice_id = invoice.id
    session.flush()
    return invoice


def find_invoice(session: Session, number: str) -> FeeInvoice:
    found = session.execute(select(FeeInvoice).where(FeeInvoice.number == number)).scalar()
    if found is None:
        raise NotFoundError(Message("no invoice has the number {number!r}", number=number))
    return found


def list_invoices(
    session: Session, payer: str | None = None, *, limit: int = 100, offset: int = 0
) -> tuple[list[FeeInvoice], int]:
    """The invoices, newest first, a page of them, and how many there are."""
    where = [] if not payer else [FeeInvoice.payer == payer]
    total = session.execute(select(func.count()).select_from(FeeInvoice).where(*where)).scalar_one()
    query = select(FeeInvoice).where(*where).order_by(FeeInvoice.id.desc()).limit(limit).offset(offset)
    return list(session.execute(query).scalars()), total


def invoice_lines(session: Session, invoice: FeeInvoice) -> list[FeeLine]:
    f = FeeLine
    return list(
        session.execute(
            select(f).where(f.invoice_id == invoice.id).order_by(f.booked_on, f.tournament_id, f.id)
        ).scalars()
    )


def invoice_out(session: Session, invoice: FeeInvoice) -> InvoiceOut:
    return InvoiceOut(
        number=invoice.number,
        payer=invoice.payer,
        period_from=invoice.period_from,
        period_to=invoice.period_to,
        total=decimal(invoice.total_cents),
        issued_at=invoice.issued_at,
        issued_by=invoice.issued_by,
        lines=lines_out(session, invoice_lines(session, invoice)),
    )


#: the bookkeeping's columns (German spreadsheets: ';' between fields, decimal comma)
CSV_COLUMNS = (
    "Rechnung",
    "Datum",
    "Zahler",
    "Turnier",
    "Turniername",
    "Position",
    "Art",
    "Menge",
    "Einzelpreis",
    "Betrag",
    "Gutschrift zu",
    "Gebucht",
)


def invoice_csv(session: Session, invoice: FeeInvoice) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    lines = invoice_lines(session, invoice)
    names = _names(session, {line.tournament_id for line in lines})
    for line in lines:
        writer.writerow(
            (
                invoice.number,
                as_utc(invoice.issued_at).date().isoformat(),
                invoice.payer,
                line.tournament_id,
                names.get(line.tournament_id, ""),
                line.id,
                line.kind,
                line.quantity,
                german(line.unit_cents).replace(".", ""),
                german(line.amount_cents).replace(".", ""),
                line.credit_of or "",
                line.booked_on.isoformat(),
            )
        )
    return out.getvalue()
