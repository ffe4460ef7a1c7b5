"""The club page: its members with rating and index, sortable by a link in each column head
(the server sorts: it works without JavaScript), and the CSV download of the API's file."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path, Query, Request
from fastapi.responses import HTMLResponse

from zdb.auth.principal import PUBLIC
from zdb.endpoints.dependencies import RequestSession
from zdb.players.club_queries import club
from zdb.ratings.club_list_queries import club_ratings
from zdb.ratings.schemas import ClubMemberRating
from zdb.web.federation_names import federation_name
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

#: a club's member list is shown whole: the API's own limit for it
MEMBER_LIMIT = 5000
Sort = Literal["rating", "name", "member_no", "birth_year"]


def _sorted(members: list[ClubMemberRating], sort: Sort) -> list[ClubMemberRating]:
    if sort == "name":
        return sorted(members, key=lambda m: (m.surname.casefold(), m.given_name.casefold(), m.pkz))
    if sort == "member_no":
        return sorted(members, key=lambda m: (m.member_no is None, m.member_no or 0, m.pkz))
    if sort == "birth_year":
        return sorted(members, key=lambda m: (m.birth_year is None, -(m.birth_year or 0), m.pkz))
    return sorted(members, key=lambda m: (m.rating is None, -(m.rating or 0), m.surname.casefold(), m.pkz))


@router.get("/clubs/{code}", response_class=HTMLResponse)
def club_page(
    request: Request,
    session: RequestSession,
    code: Annotated[str, Path(min_length=5, max_length=5)],
    sort: Annotated[Sort, Query()] = "rating",
) -> HTMLResponse:
    found = club(session, code)
    days = request.app.state.settings.complaint_days
    members, total, _ = club_ratings(
        session, code, PUBLIC, changed_since=None, limit=MEMBER_LIMIT, offset=0, complaint_days=days
    )
    return render(
        request,
        "club.html",
        {
            "club": found,
            "members": _sorted(members, sort),
            "total": total,
            "sort": sort,
            "federation_name": federation_name(session, found.federation_prefix),
        },
    )
