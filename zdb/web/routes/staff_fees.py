"""The staff's fee pages: the fee schedules (a form for a new one, and one to change each), what
each payer owes and has not been invoiced for (a form to issue the invoice), the invoices, and
an invoice's printable page with its CSV for the bookkeeping. For a signed-in admin; each
change audited, as in the API (``zdb.api.routers.fees``).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError as SchemaError

from zdb.audit.writer import record_entry
from zdb.endpoints.dependencies import RequestSession
from zdb.errors import ValidationError, ValidationProblem
from zdb.fees import office_writes
from zdb.fees.invoices import find_invoice, invoice_csv, invoice_out, issue_invoice, list_invoices, open_fees
from zdb.fees.money import decimal
from zdb.fees.schedules import list_schedules, schedule_out
from zdb.fees.schemas import FeeScheduleIn, FeeScheduleOut
from zdb.messages import Message
from zdb.submissions.store import writer_name
from zdb.web.fee_words import FEE_WORDS
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.referee_fees import schema_problems
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import admin, back_to, day, optional_day

__all__ = ["router"]

router = page_router()

DONE = {
    "created": mark("Saved: the schedule is in force from its first day."),
    "saved": mark("Saved: fees computed before stay as they were."),
    "settled": mark("Booked: the fees of the tournaments evaluated so far."),
}
Field = Annotated[str, Form(max_length=200)]
Number = Annotated[str, Path(min_length=1, max_length=12)]
_TIER = re.compile(r"\s*(\d{1,4})\s*:\s*([0-9.,]+)\s*")


def _amount(text: str) -> str:
    """A German or English decimal as the schema reads it: ``3,00`` → ``3.00``."""
    text = text.strip() or "0"
    return text.replace(".", "").replace(",", ".") if "," in text else text


def _tiers(text: str) -> list[dict[str, str]]:
    """``0: 3,00; 2230: 6,00; …`` → the schema's tiers; a part of another form is refused naming the field."""
    tiers = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        found = _TIER.fullmatch(part)
        if found is None:
            raise ValidationError(
                [ValidationProblem("form.tiers", Message("{part!r} is not 'lowest average: amount'", part=part))]
            )
        try:
            Decimal(_amount(found.group(2)))
        except InvalidOperation:
            raise ValidationError(
                [ValidationProblem("form.tiers", Message("{part!r} is not 'lowest average: amount'", part=part))]
            ) from None
        tiers.append({"from_elo": found.group(1), "amount": _amount(found.group(2))})
    return tiers


def _schedule_body(form: dict[str, str]) -> FeeScheduleIn:
    values: dict[str, Any] = {
        "federation": form["federation"].strip(),
        "valid_from": day("valid_from", form["valid_from"]),
        "valid_until": optional_day("valid_until", form["valid_until"]),
        "fide_round_robin": _tiers(form["tiers"]),
        "note": form["note"].strip(),
    }
    for name in (
        "dwz_per_tournament",
        "dwz_per_game",
        "dwz_per_non_member",
        "fide_per_player",
        "fide_late_report",
    ):
        values[name] = _amount(form[name])
    try:
        return FeeScheduleIn.model_validate(values)
    except SchemaError as error:
        raise schema_problems(error, "form") from None


def _tier_text(schedule: FeeScheduleOut) -> str:
    return "; ".join(f"{t.from_elo}: {t.amount}".replace(".", ",") for t in schedule.fide_round_robin)


def _page(request: Request, session: RequestSession, **context: Any) -> HTMLResponse:
    schedules = [schedule_out(s) for s in list_schedules(session)]
    invoices, _ = list_invoices(session, limit=100)
    return render(
        request,
        "staff_fees.html",
        {
            "schedules": schedules,
            "tiers": {s.id: _tier_text(s) for s in schedules},
            "open": open_fees(session),
            "invoices": invoices,
            "totals": {i.number: decimal(i.total_cents) for i in invoices},
            "words": FEE_WORDS,
            **context,
        },
    )


@router.get("/staff/fees", response_class=HTMLResponse)
def fees_page(
    request: Request,
    session: RequestSession,
    done: Annotated[Literal["created", "saved", "settled"] | None, Query()] = None,
) -> HTMLResponse:
    admin(request, session)
    return _page(request, session, done=None if done is None else DONE[done])


@router.post("/staff/fees/schedules")
def new_schedule(
    request: Request,
    session: RequestSession,
    *,
    federation: Field = "",
    valid_from: Field = "",
    valid_until: Field = "",
    dwz_per_tournament: Field = "",
    dwz_per_game: Field = "",
    dwz_per_non_member: Field = "",
    fide_per_player: Field = "",
    tiers: Field = "",
    fide_late_report: Field = "",
    note: Field = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    body = _schedule_body(dict(locals_form(locals())))
    office_writes.create_schedule(session, caller, body)
    return back_to("/staff/fees", "created")


@router.post("/staff/fees/schedules/{schedule_id}")
def change_schedule(
    request: Request,
    session: RequestSession,
    schedule_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
    *,
    federation: Field = "",
    valid_from: Field = "",
    valid_until: Field = "",
    dwz_per_tournament: Field = "",
    dwz_per_game: Field = "",
    dwz_per_non_member: Field = "",
    fide_per_player: Field = "",
    tiers: Field = "",
    fide_late_report: Field = "",
    note: Field = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    body = _schedule_body(dict(locals_form(locals())))
    office_writes.change_schedule(session, caller, schedule_id, body)
    return back_to("/staff/fees", "saved")


@router.post("/staff/fees/settlement")
def settlement(request: Request, session: RequestSession) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    office_writes.settle_fees(session, caller)
    return back_to("/staff/fees", "settled")


@router.post("/staff/fees/invoices")
def new_invoice(
    request: Request, session: RequestSession, *, payer: Field, period_from: Field, period_to: Field
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    made = issue_invoice(
        session, payer, day("period_from", period_from), day("period_to", period_to), by=writer_name(caller)
    )
    out = invoice_out(session, made)
    record_entry(
        session,
        caller.token_id,
        "fees.invoice.issue",
        f"invoice {made.number}",
        before=None,
        after={"payer": made.payer, "total": str(out.total), "lines": len(out.lines)},
    )
    return RedirectResponse(f"/staff/fees/invoices/{made.number}", status_code=303)


@router.get("/staff/fees/invoices/{number}.csv")
def invoice_file(request: Request, session: RequestSession, number: Number) -> Response:
    admin(request, session)
    text = invoice_csv(session, find_invoice(session, number))
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="rechnung-{number}.csv"'},
    )


@router.get("/staff/fees/invoices/{number}", response_class=HTMLResponse)
def invoice_page(request: Request, session: RequestSession, number: Number) -> HTMLResponse:
    """The printable invoice."""
    admin(request, session)
    return render(
        request,
        "staff_invoice.html",
        {"invoice": invoice_out(session, find_invoice(session, number)), "words": FEE_WORDS},
    )


_FORM_FIELDS = (
    "federation",
    "valid_from",
    "valid_until",
    "dwz_per_tournament",
    "dwz_per_game",
    "dwz_per_non_member",
    "fide_per_player",
    "tiers",
    "fide_late_report",
    "note",
)


def locals_form(names: dict[str, Any]) -> dict[str, str]:
    """The schedule form's fields among a handler's arguments."""
    return {k: str(names[k]) for k in _FORM_FIELDS}
