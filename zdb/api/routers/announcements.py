"""The calendar of announced tournaments and the federations' rules about announcements.

A referee or organiser (a referee token of the federation's subtree, or the rating office)
announces a tournament before it starts and gets its code; everyone reads the calendar. The
rating office sets a federation's rule (inherited down the tree). Thin: the domain is
``zdb.tournaments.announcements`` and ``zdb.federations.settings``.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.endpoints import referee_writes as writes
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page
from zdb.federations.settings import FederationSetting, effective_settings, require_federation, set_settings
from zdb.submissions.store import writer_name
from zdb.tournaments.announcements import (
    announce,
    announcement_out,
    calendar,
    cancel_announcement,
    edit_announcement,
    find_announcement,
)
from zdb.tournaments.lifecycle_schemas import (
    AnnouncementIn,
    AnnouncementOut,
    FederationSettingsIn,
    FederationSettingsOut,
)

__all__ = ["router"]

router = APIRouter(tags=["tournaments"])

Code = Annotated[str, Path(min_length=1, max_length=12, description="the announcement's code", examples=["2026-0001"])]
Prefix = Annotated[str, Path(max_length=4, description="the federation's club-code prefix", examples=["1"])]


def _announcer(caller: Caller) -> Principal:
    caller.require("admin", "referee")
    return caller


def _admin(caller: Caller) -> Principal:
    caller.require("admin")
    return caller


@router.post(
    "/announcements",
    status_code=201,
    response_model=AnnouncementOut,
    summary="Announce a tournament before it starts (referee, admin)",
    description="The tournament appears in the public calendar and gets a code; its submission names it "
    "(`announcement=`) or is matched to it (the one unclaimed announcement of its federation whose dates overlap). "
    "Whether an announcement is required, and how many days before the start, is the federation's rule "
    "(`GET /federations/{prefix}/settings`).",
    responses=problems(401, 403),
)
def create_announcement(
    *, session: RequestSession, caller: Annotated[Principal, Depends(_announcer)], body: AnnouncementIn
) -> Response:
    writes.authorize(caller, body.federation)
    made = announce(session, body, by=writer_name(caller))
    out = announcement_out(made)
    record_entry(
        session,
        caller.token_id,
        "announcement.create",
        f"announcement {made.code}",
        before=None,
        after=out.model_dump(),
    )
    return JSONResponse(
        out.model_dump(mode="json"), status_code=201, headers={"Location": f"/api/v1/announcements/{made.code}"}
    )


@router.get(
    "/announcements",
    response_model=Page[AnnouncementOut],
    summary="The calendar: announced tournaments by start date",
)
def announcements(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    date_from: Annotated[date | None, Query(alias="from", description="ending on or after this day")] = None,
    date_to: Annotated[date | None, Query(alias="to", description="starting on or before this day")] = None,
    federation: Annotated[str | None, Query(max_length=4, description="club-code prefix of the subtree")] = None,
) -> Response:
    items, total = calendar(
        session,
        date_from=date_from,
        date_to=date_to,
        federation=federation,
        limit=paging.limit,
        offset=paging.offset,
    )
    return conditional_json(request, paging.page(items, total))


@router.get(
    "/announcements/{code}", response_model=AnnouncementOut, summary="One announcement", responses=problems(404)
)
def one_announcement(*, request: Request, session: RequestSession, code: Code) -> Response:
    return conditional_json(request, announcement_out(find_announcement(session, code)))


@router.put(
    "/announcements/{code}",
    response_model=AnnouncementOut,
    summary="Change an announcement before its tournament is submitted (referee of its federation, admin)",
    description="Its code and the day it was made stay. Once a tournament holds it, the tournament is corrected "
    "instead (409); a cancelled one is not changed (409).",
    responses=problems(401, 403, 404, 409),
)
def change_announcement(
    *, session: RequestSession, caller: Annotated[Principal, Depends(_announcer)], code: Code, body: AnnouncementIn
) -> AnnouncementOut:
    writes.authorize(caller, find_announcement(session, code).federation_prefix)
    writes.authorize(caller, body.federation)
    changed, before, after = edit_announcement(session, code, body)
    record_entry(session, caller.token_id, "announcement.edit", f"announcement {code}", before=before, after=after)
    return announcement_out(changed)


@router.delete(
    "/announcements/{code}",
    response_model=AnnouncementOut,
    summary="Cancel an announcement: out of the calendar, kept for the record (referee of its federation, admin)",
    responses=problems(401, 403, 404, 409),
)
def cancel(
    *,
    session: RequestSession,
    caller: Annotated[Principal, Depends(_announcer)],
    code: Code,
    reason: Annotated[str | None, Query(max_length=500, description="why: shown on its page")] = None,
) -> AnnouncementOut:
    writes.authorize(caller, find_announcement(session, code).federation_prefix)
    cancelled = cancel_announcement(session, code, by=writer_name(caller), reason=reason)
    record_entry(
        session,
        caller.token_id,
        "announcement.cancel",
        f"announcement {code}",
        before={"cancelled_at": None},
        after={"cancelled_at": cancelled.cancelled_at, "reason": reason},
    )
    return announcement_out(cancelled)


def _settings_out(session: RequestSession, prefix: str) -> FederationSettingsOut:
    require_federation(session, prefix)
    own = session.get(FederationSetting, prefix)
    rules = effective_settings(session, prefix)
    return FederationSettingsOut(
        prefix=prefix,
        own=FederationSettingsIn(
            announcement=None if own is None else own.announcement,  # type: ignore[arg-type]
            announcement_days=None if own is None else own.announcement_days,
            fide_registration=None if own is None else own.fide_registration,  # type: ignore[arg-type]
        ),
        announcement=rules.announcement,  # type: ignore[arg-type]  # the table's check keeps it a rule
        announcement_from=rules.announcement_from,
        announcement_days=rules.announcement_days,
        announcement_days_from=rules.announcement_days_from,
        fide_registration=rules.fide_registration,  # type: ignore[arg-type]  # the table's check keeps it a rule
        fide_registration_from=rules.fide_registration_from,
    )


@router.get(
    "/federations/{prefix}/settings",
    response_model=FederationSettingsOut,
    tags=["federations and clubs"],
    summary="A federation's rules: its own, and those that apply (inherited from the nearest ancestor)",
    responses=problems(404),
)
def federation_settings(*, request: Request, session: RequestSession, prefix: Prefix) -> Response:
    return conditional_json(request, _settings_out(session, prefix))


@router.put(
    "/federations/{prefix}/settings",
    response_model=FederationSettingsOut,
    tags=["office"],
    summary="Set a federation's own rules; null inherits the parent's (admin)",
    responses=problems(401, 403, 404),
)
def put_federation_settings(
    *,
    session: RequestSession,
    caller: Annotated[Principal, Depends(_admin)],
    prefix: Prefix,
    body: FederationSettingsIn,
) -> FederationSettingsOut:
    _settings_out(session, prefix)  # 404 for an unknown federation
    before, after = set_settings(
        session,
        prefix,
        announcement=body.announcement,
        announcement_days=body.announcement_days,
        fide_registration=body.fide_registration,
    )
    record_entry(session, caller.token_id, "federation.settings", f"federation {prefix}", before=before, after=after)
    return _settings_out(session, prefix)
