"""The tournament paths of the portal door (``/dwz/tournaments…``) and a person's history
(``/dwz/persons/{id}/history``), scope ``dsb_tournament``; read by
``zdb.tournaments.portal_queries`` and ``zdb.ratings.portal_queries``.

``ratingState=PENDING`` names tournaments submitted (or corrected) and not yet evaluated.
"""

from __future__ import annotations

from datetime import date
from typing import Any, cast

from fastapi import APIRouter, Request

from zdb.endpoints.dependencies import RequestSession
from zdb.errors import NotFoundError
from zdb.portal.access import TournamentAccess, limited_vkz
from zdb.portal.paging import list_answer, window_of
from zdb.portal.route import PortalRoute, bad_parameter
from zdb.ratings import portal_queries as person_queries
from zdb.tournaments import portal_queries

__all__ = ["router"]

router = APIRouter(prefix="/dwz", route_class=PortalRoute, include_in_schema=False)

_INT32_MAX = 2**31 - 1


def _date(request: Request, name: str) -> date | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise bad_parameter(name, f"must be a date YYYY-MM-DD, got {text!r}") from None


def _tournament_id(uuid: str) -> int:
    """ZDB's tournament id behind a ``uuid``; anything else names no tournament (404)."""
    if not uuid.isdigit() or not 1 <= int(uuid) <= _INT32_MAX:
        raise NotFoundError(f"tournament {uuid} does not exist")
    return int(uuid)


@router.get("/tournaments")
def tournaments(*, request: Request, session: RequestSession, access: TournamentAccess) -> dict[str, Any]:
    window = window_of(request)
    state = request.query_params.get("ratingState")
    if state is not None and state not in portal_queries.RATING_STATES.values():
        raise bad_parameter("ratingState", f"must be RATED, UNRATED or PENDING, got {state!r}")
    vkz = request.query_params.get("vkz")
    if vkz is not None and len(vkz) > 5:
        raise bad_parameter("vkz", f"a club-code prefix has at most 5 characters, got {vkz!r}")
    wanted = portal_queries.TournamentFilter(
        rating_state=cast("portal_queries.RatingState | None", state),
        from_date=_date(request, "fromDate"),
        to_date=_date(request, "toDate"),
        vkz=limited_vkz(access, vkz),
    )
    found, total = portal_queries.list_tournaments(session, wanted, limit=window.limit, offset=window.offset)
    return list_answer(request, window, found, total)


@router.get("/tournaments/{uuid}")
def tournament(*, session: RequestSession, access: TournamentAccess, uuid: str) -> dict[str, Any]:
    del access  # checked by the dependency
    return portal_queries.tournament(session, _tournament_id(uuid))


@router.get("/tournaments/{uuid}/evaluation")
def evaluation(*, session: RequestSession, access: TournamentAccess, uuid: str) -> dict[str, Any]:
    del access
    return portal_queries.evaluation(session, _tournament_id(uuid))


@router.get("/tournaments/{uuid}/matches")
def matches(*, request: Request, session: RequestSession, access: TournamentAccess, uuid: str) -> dict[str, Any]:
    del access
    window = window_of(request)
    text = request.query_params.get("round")
    if text is not None and (not text.isdigit() or not 1 <= int(text) <= _INT32_MAX):
        raise bad_parameter("round", f"must be a round number from 1, got {text!r}")
    found, total = portal_queries.matches(
        session,
        _tournament_id(uuid),
        round_no=None if text is None else int(text),
        limit=window.limit,
        offset=window.offset,
    )
    return list_answer(request, window, found, total)


@router.get("/persons/{person_id}/history")
def history(*, session: RequestSession, access: TournamentAccess, person_id: str) -> dict[str, Any]:
    del access
    return person_queries.person_history(session, person_id)
