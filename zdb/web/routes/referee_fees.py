"""The referees' pages of FIDE-rated tournaments and fees: registering an announced tournament
with FIDE (the arbiters, rate of play, category, system, rounds) and its state (registered,
results received or late, evaluated, with FIDE's report file), and the fees of the tournaments
of his region with their basis. The same as the API (``zdb.api.routers.fees``), in the page's
language; each registration audited.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import ValidationError as SchemaError
from sqlalchemy import select

from zdb.endpoints.dependencies import RequestSession, TournamentId
from zdb.endpoints.referee_writes import authorize, stored_federation
from zdb.errors import ValidationError, ValidationProblem
from zdb.fees.invoices import lines_out
from zdb.fees.models import FeeLine
from zdb.fees.tournament_fees import tournament_fees
from zdb.fide.registration import register_by, registration_for, registration_out, stored_warnings
from zdb.fide.schemas import FideRegistrationIn
from zdb.messages import Message
from zdb.tournaments.announcements import find_announcement
from zdb.tournaments.models import TournamentVersion
from zdb.web.fee_words import FEE_WORDS
from zdb.web.referee_session import referee, require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router", "schema_problems"]

router = page_router()

Code = Annotated[str, Path(min_length=1, max_length=12)]
Field = Annotated[str, Form(max_length=200)]
#: the fee lines the referee's list shows, newest first
SHOWN = 200


def schema_problems(error: SchemaError, prefix: str = "form") -> ValidationError:
    """A form's values refused by the API's schema, each naming its field."""
    problems = [
        ValidationProblem(".".join([prefix, *(str(p) for p in e["loc"])]), Message("{reason}", reason=e["msg"]))
        for e in error.errors()
    ]
    return ValidationError(problems)


@router.get("/referee/fide", response_class=HTMLResponse)
def find_registration(
    request: Request, session: RequestSession, code: Annotated[str, Query(max_length=12)] = ""
) -> RedirectResponse:
    referee(request, session)
    return RedirectResponse(f"/referee/fide/{code.strip()}", status_code=303)


@router.get("/referee/fide/{code}", response_class=HTMLResponse)
def registration_page(request: Request, session: RequestSession, code: Code) -> HTMLResponse:
    caller = referee(request, session)
    announcement = find_announcement(session, code)
    made = registration_for(session, announcement)
    return render(
        request,
        "referee_fide.html",
        {
            "caller": caller,
            "announcement": announcement,
            "registration": None if made is None else registration_out(session, announcement, made),
            "warnings": [] if made is None else stored_warnings(made),
            "words": FEE_WORDS,
        },
    )


@router.post("/referee/fide/{code}")
def registration_form(
    request: Request,
    session: RequestSession,
    code: Code,
    *,
    chief_fide_id: Field,
    chief_name: Field,
    deputy_fide_id: Field = "",
    deputy_name: Field = "",
    rate_of_play: Field,
    category: Field,
    system: Field,
    rounds: Field,
) -> RedirectResponse:
    require_same_origin(request)
    caller = referee(request, session)
    announcement = find_announcement(session, code)
    authorize(caller, announcement.federation_prefix)
    values: dict[str, object] = {
        "chief_arbiter": {"fide_id": chief_fide_id.strip(), "name": chief_name},
        "rate_of_play": rate_of_play,
        "category": category,
        "system": system,
        "rounds": rounds.strip(),
    }
    if deputy_fide_id.strip() or deputy_name.strip():
        values["deputy_arbiter"] = {"fide_id": deputy_fide_id.strip(), "name": deputy_name}
    try:
        body = FideRegistrationIn.model_validate(values)
    except SchemaError as error:
        raise schema_problems(error) from None
    register_by(session, caller, announcement, body)
    return RedirectResponse(f"/referee/fide/{code}", status_code=303)


@router.get("/referee/tournaments/{tournament_id}/fees", response_class=HTMLResponse)
def tournament_fees_page(request: Request, session: RequestSession, tournament_id: TournamentId) -> HTMLResponse:
    caller = referee(request, session)
    authorize(caller, stored_federation(session, tournament_id, for_change=False))
    return render(
        request,
        "referee_fees.html",
        {"caller": caller, "fees": tournament_fees(session, tournament_id), "words": FEE_WORDS, "lines": None},
    )


@router.get("/referee/fees", response_class=HTMLResponse)
def fees_page(request: Request, session: RequestSession) -> HTMLResponse:
    """The fee lines of the tournaments of the referee's region (every region for staff)."""
    caller = referee(request, session)
    f, v = FeeLine, TournamentVersion
    query = select(f).order_by(f.id.desc()).limit(SHOWN)
    if caller.role != "admin":
        ours = select(v.tournament_id).where(v.federation_prefix.startswith(caller.scope or "", autoescape=True))
        query = query.where(f.tournament_id.in_(ours))
    lines = lines_out(session, list(session.execute(query).scalars()))
    return render(request, "referee_fees.html", {"caller": caller, "fees": None, "words": FEE_WORDS, "lines": lines})
