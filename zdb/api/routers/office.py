"""The rating office's endpoints (admin): persons, memberships, clubs and federations.

Thin on purpose: ``zdb.office`` checks and changes the record and audits each change with
who, when, before and after; the request's unit of work commits once and then asks for the
recalculation when a change reached into the time line (a birth year, a guest who became a
member). Each answer that can reach into the time line says from which tournament it is redone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from zdb.api.openapi import problems
from zdb.auth.principal import Principal
from zdb.endpoints.dependencies import INT32_MAX, Caller, PersonNumber, RequestSession
from zdb.errors import ValidationProblem
from zdb.federations.models import Federation
from zdb.federations.schemas import ClubOut, FederationOut
from zdb.office import memberships, persons, tree
from zdb.office.merge import merge_persons
from zdb.office.person_export import person_document
from zdb.office.reach import recalculation_from
from zdb.office.schemas import (
    ClubIn,
    ClubPatch,
    DissolutionIn,
    DissolutionOut,
    FederationIn,
    FederationPatch,
    MembershipIn,
    MembershipOut,
    MembershipPatch,
    MergeIn,
    MergeOut,
    PersonIn,
    PersonOut,
    PersonPatch,
    PersonWarningOut,
    TransferIn,
    TransferOut,
)
from zdb.players import club_queries
from zdb.players.models import Membership, Player
from zdb.rating import OrderKey

__all__ = ["requires_admin", "router"]

router = APIRouter(tags=["office"])

MembershipId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the membership's id")]
ClubCodePath = Annotated[str, Path(min_length=5, max_length=5, description="the 5-character club code (VKZ/ZPS)")]
PrefixPath = Annotated[str, Path(min_length=1, max_length=4, description="the federation's club-code prefix")]


ComplaintRef = Annotated[
    int | None,
    Query(
        ge=1,
        le=2**31 - 1,
        description="the open complaint (about this person; a merge: about either record) the change is made for: "
        "linked to it, and the audit entries name it",
    ),
]


def requires_admin(caller: Caller) -> Principal:
    """Staff only: refused before the body is looked at (401 without a token, 403 with another role)."""
    caller.require("admin")
    return caller


Admin = Annotated[Principal, Depends(requires_admin)]
_WRITE_PROBLEMS = problems(401, 403, 404, 409)


def _person(
    session: Session, pkz: int, reach: OrderKey | None, warnings: Sequence[ValidationProblem] = ()
) -> PersonOut:
    player = session.get(Player, pkz)
    assert player is not None
    return PersonOut(
        pkz=pkz,
        **persons.person_values(player),
        recalculation_from=recalculation_from(reach),  # type: ignore[arg-type]
        warnings=[PersonWarningOut(place=w.place, message=w.message) for w in warnings],
    )


def _membership(membership: Membership, reach: OrderKey | None = None) -> MembershipOut:
    m = membership
    return MembershipOut(
        id=m.id,
        pkz=m.player_pkz,
        club_code=m.club_code,
        member_no=m.member_no,
        status=m.status,
        valid_from=m.valid_from,
        valid_until=m.valid_until,
        recalculation_from=recalculation_from(reach),  # type: ignore[arg-type]
    )


_EXPORT: dict[str, Any] = {
    "description": "The person's data as one document.",
    "content": {
        "application/json": {
            "schema": {"type": "object"},
            "example": {
                "pkz": 10000042,
                "exported_at": "2026-12-02T21:00:00+00:00",
                "record": {"pkz": 10000042, "surname": "Neumann", "given_name": "Nina", "birth_date": "2011-03-04"},
                "merged_into_this": [],
                "memberships": [],
                "participations": [],
                "current_rating": [],
                "rating_history": [],
                "published_editions": [],
                "audit": [],
            },
        }
    },
}


def _created(body: Any, location: str) -> JSONResponse:
    return JSONResponse(body, status_code=201, headers={"Location": location})


@router.post(
    "/players",
    status_code=201,
    response_model=PersonOut,
    summary="Create a person (admin)",
    description="Refused (409, naming the record) when a record has the same name and birth date, unless "
    "`allow_duplicate` insists; a record of the same or a similar name and the same birth year is named in `warnings`.",
    responses=problems(401, 403, 409),
)
def create_person(*, request: Request, session: RequestSession, caller: Admin, body: PersonIn) -> JSONResponse:
    created = persons.create_person(session, caller, body.model_dump())
    location = str(request.app.url_path_for("player_card", pkz=str(created.pkz)))
    return _created(_person(session, created.pkz, None, created.warnings).model_dump(mode="json"), location)


@router.patch(
    "/players/{pkz}",
    response_model=PersonOut,
    summary="Correct a person's record (admin)",
    description="Only the fields sent change. A new birth year or guest status is an input of evaluations: every "
    "tournament of the person is redone, and `recalculation_from` names the first.",
    responses=_WRITE_PROBLEMS,
)
def edit_person(
    *, session: RequestSession, caller: Admin, pkz: PersonNumber, body: PersonPatch, complaint: ComplaintRef = None
) -> PersonOut:
    edit = persons.edit_person(session, caller, pkz, body.model_dump(exclude_unset=True), complaint=complaint)
    return _person(session, pkz, edit.reach, edit.warnings)


@router.post(
    "/players/{pkz}/merge",
    response_model=MergeOut,
    summary="Merge another record of the same person into this one (admin)",
    description="Participations, games, memberships and a start state move to this person number; the absorbed "
    "number answers with a redirect (308) to this one from now on. Refused (409) when both records played in one "
    "tournament or their birth years, birth dates or FIDE ids differ. The time line is redone from the earliest "
    "event of either record.",
    responses=_WRITE_PROBLEMS,
)
def merge(
    *, session: RequestSession, caller: Admin, pkz: PersonNumber, body: MergeIn, complaint: ComplaintRef = None
) -> MergeOut:
    done = merge_persons(session, caller, pkz, body.absorb, complaint=complaint)
    return MergeOut(
        survivor=done.survivor,
        absorbed=done.absorbed,
        participations_moved=done.participations,
        memberships_moved=done.memberships,
        recalculation_from=recalculation_from(done.reach),  # type: ignore[arg-type]
    )


@router.get(
    "/players/{pkz}/export",
    summary="Everything held on a person, as one JSON document (admin)",
    description="The record with its non-public fields, memberships, participations, the rating history, the "
    "published editions that list him and the audit entries on his record: a data subject's request for his data.",
    responses={**problems(401, 403, 404), 200: _EXPORT},
)
def export_person(*, session: RequestSession, caller: Admin, pkz: PersonNumber) -> JSONResponse:
    return JSONResponse(
        person_document(session, pkz), headers={"Content-Disposition": f'attachment; filename="person-{pkz}.json"'}
    )


@router.get(
    "/players/{pkz}/memberships",
    response_model=list[MembershipOut],
    summary="A person's memberships with their ids (admin)",
    responses=problems(401, 403, 404),
)
def person_memberships(*, session: RequestSession, caller: Admin, pkz: PersonNumber) -> list[MembershipOut]:
    return [_membership(m) for m in memberships.memberships_of(session, pkz)]


@router.post(
    "/players/{pkz}/memberships",
    status_code=201,
    response_model=MembershipOut,
    summary="A person joins a club (admin)",
    responses=_WRITE_PROBLEMS,
)
def join_club(
    *, session: RequestSession, caller: Admin, pkz: PersonNumber, body: MembershipIn, complaint: ComplaintRef = None
) -> JSONResponse:
    joined = memberships.join(
        session,
        caller,
        pkz,
        body.club_code,
        member_no=body.member_no,
        status=body.status,
        valid_from=body.valid_from,
        complaint=complaint,
    )
    out = _membership(joined.membership, joined.reach)
    return _created(out.model_dump(mode="json"), f"/api/v1/players/{pkz}/memberships")


@router.patch(
    "/memberships/{membership_id}",
    response_model=MembershipOut,
    summary="Change or end a membership (admin)",
    responses=_WRITE_PROBLEMS,
)
def edit_membership(
    *,
    session: RequestSession,
    caller: Admin,
    membership_id: MembershipId,
    body: MembershipPatch,
    complaint: ComplaintRef = None,
) -> MembershipOut:
    given = body.model_dump(exclude_unset=True)
    return _membership(memberships.edit_membership(session, caller, membership_id, given, complaint=complaint))


@router.post(
    "/players/{pkz}/transfers",
    response_model=TransferOut,
    summary="A person moves to another club (admin)",
    responses=_WRITE_PROBLEMS,
)
def transfer(
    *, session: RequestSession, caller: Admin, pkz: PersonNumber, body: TransferIn, complaint: ComplaintRef = None
) -> TransferOut:
    ended, joined = memberships.transfer(
        session,
        caller,
        pkz,
        from_club=body.from_club,
        to_club=body.to_club,
        on=body.date,
        member_no=body.member_no,
        status=body.status,
        complaint=complaint,
    )
    return TransferOut(ended=_membership(ended), joined=_membership(joined.membership, joined.reach))


@router.post(
    "/clubs",
    status_code=201,
    response_model=ClubOut,
    summary="Create a club (admin)",
    responses=problems(401, 403, 409),
)
def create_club(*, session: RequestSession, caller: Admin, body: ClubIn) -> JSONResponse:
    club = tree.create_club(session, caller, body.code, body.name, body.federation_prefix)
    out = club_queries.club(session, club.code)
    return _created(out.model_dump(mode="json"), f"/api/v1/clubs/{club.code}")


@router.patch(
    "/clubs/{code}",
    response_model=ClubOut,
    summary="Rename a club or move it in the tree (admin)",
    responses=_WRITE_PROBLEMS,
)
def edit_club(*, session: RequestSession, caller: Admin, code: ClubCodePath, body: ClubPatch) -> ClubOut:
    club = tree.edit_club(session, caller, code, body.model_dump(exclude_unset=True))
    return club_queries.club(session, club.code)


@router.post(
    "/clubs/{code}/dissolution",
    response_model=DissolutionOut,
    summary="Dissolve a club, ending its members' memberships (admin)",
    responses=_WRITE_PROBLEMS,
)
def dissolve_club(*, session: RequestSession, caller: Admin, code: ClubCodePath, body: DissolutionIn) -> DissolutionOut:
    return DissolutionOut(
        dissolved_on=body.date, memberships_ended=tree.dissolve_club(session, caller, code, body.date)
    )


def _federation_out(federation: Federation) -> FederationOut:
    f = federation
    return FederationOut(prefix=f.prefix, name=f.name, level=f.level, parent_prefix=f.parent_prefix)


@router.post(
    "/federations",
    status_code=201,
    response_model=FederationOut,
    summary="Create a federation (admin)",
    responses=problems(401, 403, 409),
)
def create_federation(*, session: RequestSession, caller: Admin, body: FederationIn) -> JSONResponse:
    made = tree.create_federation(session, caller, body.prefix, body.name, body.parent_prefix)
    return _created(_federation_out(made).model_dump(mode="json"), f"/api/v1/federations?under={made.prefix}")


@router.patch(
    "/federations/{prefix}",
    response_model=FederationOut,
    summary="Rename a federation or move it in the tree (admin)",
    responses=_WRITE_PROBLEMS,
)
def edit_federation(
    *, session: RequestSession, caller: Admin, prefix: PrefixPath, body: FederationPatch
) -> FederationOut:
    return _federation_out(tree.edit_federation(session, caller, prefix, body.model_dump(exclude_unset=True)))


@router.post(
    "/federations/{prefix}/dissolution",
    response_model=DissolutionOut,
    summary="Dissolve a federation with its sub-federations and clubs (admin)",
    responses=_WRITE_PROBLEMS,
)
def dissolve_federation(
    *, session: RequestSession, caller: Admin, prefix: PrefixPath, body: DissolutionIn
) -> DissolutionOut:
    ended = tree.dissolve_federation(session, caller, prefix, body.date)
    return DissolutionOut(dissolved_on=body.date, memberships_ended=ended)
