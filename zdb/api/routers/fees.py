"""FIDE registrations of announced tournaments, fee schedules, the fees of each tournament, and
invoices.

A referee (of the announcement's or tournament's federation) registers an announced tournament
with FIDE and reads the fees of his tournaments; the rating office keeps the fee schedules, books
the fees (a settlement) and issues invoices (their list, CSV for the bookkeeping, and the
printable page ``/staff/fees/invoices/{number}``). Every write is audited. Thin: the domain is
``zdb.fide`` and ``zdb.fees``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from zdb.api.conditional import conditional_bytes, conditional_json
from zdb.api.openapi import problems
from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.endpoints import referee_writes as writes
from zdb.endpoints.dependencies import Caller, Paging, RequestSession, TournamentId
from zdb.endpoints.pagination import Page
from zdb.fees import office_writes
from zdb.fees.invoices import find_invoice, invoice_csv, invoice_out, issue_invoice, list_invoices, open_fees
from zdb.fees.schedules import list_schedules, schedule_out
from zdb.fees.schemas import FeeScheduleIn, FeeScheduleOut, InvoiceIn, InvoiceOut, OpenFeesOut, TournamentFeesOut
from zdb.fees.tournament_fees import tournament_fees
from zdb.fide.registration import find_registration, register_by, registration_out
from zdb.fide.schemas import FideRegistrationIn, FideRegistrationOut
from zdb.submissions.store import writer_name
from zdb.tournaments.announcements import find_announcement

__all__ = ["router"]

router = APIRouter(tags=["fees"])

Code = Annotated[str, Path(min_length=1, max_length=12, description="the announcement's code", examples=["2026-0001"])]
Number = Annotated[str, Path(min_length=1, max_length=12, description="the invoice's number", examples=["2026-0001"])]


def _admin(caller: Caller) -> Principal:
    caller.require("admin")
    return caller


Admin = Annotated[Principal, Depends(_admin)]


def _listed(request: Request, items: list[BaseModel]) -> Response:
    body = b"[" + b",".join(item.model_dump_json().encode("utf-8") for item in items) + b"]"
    return conditional_bytes(request, body)


@router.post(
    "/announcements/{code}/fide-registration",
    status_code=201,
    response_model=FideRegistrationOut,
    tags=["tournaments"],
    summary="Register an announced tournament as FIDE-rated (referee, admin)",
    description="Chief arbiter and deputy with their FIDE ids (an id unknown to FIDE's list ZDB holds is a warning), "
    "rate of play and category, system, rounds. Later than six weeks before the start: a warning, or a refusal (422) "
    "where the federation's rule `fide_registration` says `refuse` (the rating office is only warned). "
    "A second registration is a 409.",
    responses=problems(401, 403, 404, 409, 422),
)
def create_registration(*, session: RequestSession, caller: Caller, code: Code, body: FideRegistrationIn) -> Response:
    caller.require("admin", "referee")
    announcement = find_announcement(session, code)
    writes.authorize(caller, announcement.federation_prefix)
    out = registration_out(session, announcement, register_by(session, caller, announcement, body))
    return JSONResponse(
        out.model_dump(mode="json"),
        status_code=201,
        headers={"Location": f"/api/v1/announcements/{code}/fide-registration"},
    )


@router.get(
    "/announcements/{code}/fide-registration",
    response_model=FideRegistrationOut,
    tags=["tournaments"],
    summary="An announced tournament's FIDE registration and where it stands (results received, late, evaluated)",
    responses=problems(404),
)
def one_registration(*, request: Request, session: RequestSession, code: Code) -> Response:
    announcement = find_announcement(session, code)
    made = find_registration(session, announcement)
    return conditional_json(request, registration_out(session, announcement, made))


@router.get("/fees/schedules", response_model=list[FeeScheduleOut], summary="The fee schedules, by federation and date")
def schedules(
    *,
    request: Request,
    session: RequestSession,
    federation: Annotated[str | None, Query(max_length=4, description="one federation's (club-code prefix)")] = None,
) -> Response:
    return _listed(request, [schedule_out(s) for s in list_schedules(session, federation)])


@router.post(
    "/fees/schedules",
    status_code=201,
    response_model=FeeScheduleOut,
    summary="A new fee schedule (admin); one overlapping another of its federation is refused (422)",
    description="The fees computed so far are booked first, with the schedules as they were.",
    responses=problems(401, 403, 422),
)
def create_schedule(*, session: RequestSession, caller: Admin, body: FeeScheduleIn) -> Response:
    out = office_writes.create_schedule(session, caller, body)
    return JSONResponse(
        out.model_dump(mode="json"), status_code=201, headers={"Location": f"/api/v1/fees/schedules/{out.id}"}
    )


@router.put(
    "/fees/schedules/{schedule_id}",
    response_model=FeeScheduleOut,
    summary="Change a fee schedule (admin); fees computed with it before stay as they were",
    responses=problems(401, 403, 404, 422),
)
def change_schedule(*, session: RequestSession, caller: Admin, schedule_id: int, body: FeeScheduleIn) -> FeeScheduleOut:
    return office_writes.change_schedule(session, caller, schedule_id, body)


class SettlementOut(BaseModel):
    """What a settlement booked."""

    booked: int


@router.post(
    "/fees/settlement",
    response_model=SettlementOut,
    summary="Book the fees of every tournament evaluated and not booked yet, and credit withdrawals (admin)",
    responses=problems(401, 403),
)
def settlement(*, session: RequestSession, caller: Admin) -> SettlementOut:
    return SettlementOut(booked=office_writes.settle_fees(session, caller))


@router.get(
    "/tournaments/{tournament_id}/fees",
    response_model=TournamentFeesOut,
    tags=["tournaments"],
    summary="A tournament's fees: each computed record with its basis, charges and credits (referee, admin)",
    responses=problems(401, 403, 404),
)
def fees_of_tournament(
    *, request: Request, session: RequestSession, caller: Caller, tournament_id: TournamentId
) -> Response:
    caller.require("admin", "referee")
    writes.authorize(caller, writes.stored_federation(session, tournament_id, for_change=False))
    return conditional_json(request, tournament_fees(session, tournament_id))


@router.get(
    "/fees/open",
    response_model=list[OpenFeesOut],
    summary="What each payer owes and has not been invoiced for (admin)",
    responses=problems(401, 403),
)
def open_by_payer(*, request: Request, session: RequestSession, caller: Admin) -> Response:
    return _listed(request, list(open_fees(session)))


@router.post(
    "/fees/invoices",
    status_code=201,
    response_model=InvoiceOut,
    summary="Issue an invoice: a payer's fees booked in a period and on no invoice yet (admin)",
    description="Books the fees evaluated so far first. Numbered by year; never changed once issued. "
    "Nothing to invoice: 422; the period's fees on an invoice already: 409 naming it.",
    responses=problems(401, 403, 409, 422),
)
def create_invoice(*, session: RequestSession, caller: Admin, body: InvoiceIn) -> Response:
    made = issue_invoice(session, body.payer, body.period_from, body.period_to, by=writer_name(caller))
    out = invoice_out(session, made)
    record_entry(
        session,
        caller.token_id,
        "fees.invoice.issue",
        f"invoice {made.number}",
        before=None,
        after={"payer": made.payer, "total": str(out.total), "lines": len(out.lines)},
    )
    return JSONResponse(
        out.model_dump(mode="json"), status_code=201, headers={"Location": f"/api/v1/fees/invoices/{made.number}"}
    )


@router.get(
    "/fees/invoices",
    response_model=Page[InvoiceOut],
    summary="The invoices, newest first (admin)",
    responses=problems(401, 403),
)
def invoices(
    *,
    request: Request,
    session: RequestSession,
    caller: Admin,
    paging: Paging,
    payer: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    found, total = list_invoices(session, payer, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page([invoice_out(session, i) for i in found], total))


#: what the bookkeeping reads (an example: the shape of ``zdb.fees.invoices.invoice_csv``)
_CSV_EXAMPLE = (
    "Rechnung;Datum;Zahler;Turnier;Turniername;Position;Art;Menge;Einzelpreis;Betrag;Gutschrift zu;Gebucht\r\n"
    "2026-0001;2026-12-01;Post SV Sankt Rosenheim;302;Winter-Rundenturnier;7;fide_player;4;3,00;12,00;;2026-11-30\r\n"
)


@router.get(
    "/fees/invoices/{number}.csv",
    summary="One invoice as CSV for the bookkeeping (admin): ';' between fields, decimal comma",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}, "example": _CSV_EXAMPLE}}},
        **problems(401, 403, 404),
    },
)
def invoice_file(*, session: RequestSession, caller: Admin, number: Number) -> Response:
    text = invoice_csv(session, find_invoice(session, number))
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="rechnung-{number}.csv"'},
    )


@router.get(
    "/fees/invoices/{number}",
    response_model=InvoiceOut,
    summary="One invoice (admin)",
    responses=problems(401, 403, 404),
)
def one_invoice(*, request: Request, session: RequestSession, caller: Admin, number: Number) -> Response:
    return conditional_json(request, invoice_out(session, find_invoice(session, number)))
