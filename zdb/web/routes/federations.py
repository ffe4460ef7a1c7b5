"""Federation pages: the subtree of a federation (its federations and clubs, the rating-list
file of the API) and its top list, filtered by age range and sex with a GET form."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from zdb.endpoints.dependencies import RequestSession
from zdb.errors import NotFoundError, ValidationProblem
from zdb.federations.queries import list_federations
from zdb.messages import Message
from zdb.players.club_queries import list_clubs
from zdb.ratings.top_list_queries import top_list
from zdb.web.form_values import optional_int
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

FEDERATION_LIMIT = 1000
CLUB_LIMIT = 300
TOP_LIMIT = 50
SEXES = ("M", "F", "D")

Field = Annotated[str, Query(max_length=10)]


def _page(request: Request, session: Session, prefix: str, *, age_min: str, age_max: str, sex: str) -> HTMLResponse:
    federations, _ = list_federations(session, under=prefix, limit=FEDERATION_LIMIT, offset=0)
    own = next((f for f in federations if f.prefix == prefix), None)
    if own is None:
        raise NotFoundError(Message("no federation has the prefix {prefix!r}", prefix=prefix))
    clubs, clubs_total = list_clubs(session, federation=prefix, text=None, limit=CLUB_LIMIT, offset=0)
    problems: list[ValidationProblem] = []
    low = optional_int(problems, "age_min", age_min, 0, 120)
    high = optional_int(problems, "age_max", age_max, 0, 120)
    chosen_sex = sex if sex in SEXES else None
    top: list[Any] = []
    top_total = 0
    if not problems:
        top, top_total, _ = top_list(
            session,
            federation=prefix or None,
            age_min=low,
            age_max=high,
            sex=chosen_sex,
            active=None,
            year=datetime.now(UTC).year,
            limit=TOP_LIMIT,
            offset=0,
            complaint_days=request.app.state.settings.complaint_days,
        )
    return render(
        request,
        "federation.html",
        {
            "federation": own,
            "below": [f for f in federations if f.prefix != prefix],
            "clubs": clubs,
            "clubs_total": clubs_total,
            "top": top,
            "top_total": top_total,
            "problems": problems,
            "age_min": age_min,
            "age_max": age_max,
            "sex": chosen_sex or "",
            "sexes": SEXES,
        },
        status=422 if problems else 200,
    )


@router.get("/federations", response_class=HTMLResponse)
def national_page(
    *, request: Request, session: RequestSession, age_min: Field = "", age_max: Field = "", sex: Field = ""
) -> HTMLResponse:
    return _page(request, session, "", age_min=age_min, age_max=age_max, sex=sex)


@router.get("/federations/{prefix}", response_class=HTMLResponse)
def federation_page(
    *,
    request: Request,
    session: RequestSession,
    prefix: Annotated[str, Path(min_length=1, max_length=4)],
    age_min: Field = "",
    age_max: Field = "",
    sex: Field = "",
) -> HTMLResponse:
    return _page(request, session, prefix, age_min=age_min, age_max=age_max, sex=sex)
