"""The rating list's paths of the portal door (``/dwz/dwzliste/…``): persons, one person,
clubs, and the list's ZIP in the portal's layout.

The persons and clubs are read by ``zdb.ratings.portal_queries`` and ``zdb.ratings.list_queries``;
the ZIP is the one ZDB writes for ``layout=portal`` (``zdb.formats.portal_files``), for the
whole federation (``LV-0-…``) or one regional federation (``LV-<region>-…``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from zdb.editions.sources import list_source
from zdb.endpoints.dependencies import RequestSession
from zdb.errors import NotFoundError
from zdb.formats import dsb_files, portal_files
from zdb.portal.access import ListAccess, limited_vkz
from zdb.portal.paging import list_answer, window_of
from zdb.portal.route import PortalRoute, bad_parameter
from zdb.ratings import list_queries, portal_queries
from zdb.ratings.file_stamps import content_tag, last_modified, variant_key

__all__ = ["router"]

router = APIRouter(prefix="/dwz/dwzliste", route_class=PortalRoute, include_in_schema=False)

Text = Annotated[str | None, Query(max_length=200)]
#: ``LV-0-dwzliste.zip``: the whole federation; ``LV-C-dwzliste.zip``: the regional federation C
_LIST_FILE = re.compile(r"LV-([0-9A-Za-z])-[0-9A-Za-z_.-]*\.zip")


def _age(request: Request, name: str) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    if not text.isdigit() or int(text) > 150:
        raise bad_parameter(name, f"must be an age in years (0 to 150), got {text!r}")
    return int(text)


def _gender(text: str | None) -> str | None:
    if text is None:
        return None
    if text.upper() not in portal_queries.GENDERS.values():
        raise bad_parameter("gender", f"must be M, W or D, got {text!r}")
    return text.upper()


@router.get("/persons")
def persons(
    *,
    request: Request,
    session: RequestSession,
    access: ListAccess,
    lastname: Text = None,
    firstname: Text = None,
    vkz: Annotated[str | None, Query(max_length=5)] = None,
    nuLigaPersonId: Annotated[str | None, Query(max_length=64)] = None,  # noqa: N803 - the interface's name
    gender: Annotated[str | None, Query(max_length=1)] = None,
) -> dict[str, Any]:
    window = window_of(request)
    wanted = portal_queries.PersonFilter(
        # ages by birth year: this year's birth year minus the year of birth
        year=datetime.now(UTC).year,
        lastname=lastname,
        firstname=firstname,
        vkz=limited_vkz(access, vkz),
        person_id=nuLigaPersonId,
        gender=_gender(gender),
        min_age=_age(request, "minAge"),
        max_age=_age(request, "maxAge"),
    )
    found, total = portal_queries.search_persons(session, wanted, limit=window.limit, offset=window.offset)
    return list_answer(request, window, found, total)


@router.get("/persons/{person_id}")
def person(*, session: RequestSession, access: ListAccess, person_id: str) -> dict[str, Any]:
    del access  # checked by the dependency; one person is answered whatever the client's vkz
    return portal_queries.person(session, person_id)


@router.get("/clubs")
def clubs(
    *,
    request: Request,
    session: RequestSession,
    access: ListAccess,
    vkz: Annotated[str | None, Query(max_length=5)] = None,
) -> dict[str, Any]:
    window = window_of(request)
    prefix = limited_vkz(access, vkz) or ""
    rows = list_queries.federation_clubs(session, prefix)
    names = {f.prefix: f.name for f in list_queries.federations_of(session, "")}
    data = [
        {
            "clubVkz": row.code,
            "clubName": row.name,
            "federation": dsb_files.state_code(row.code),
            "parentFederation": dsb_files.federation_code(row.federation_prefix),
            "parentFederationName": names.get(row.federation_prefix, ""),
        }
        for row in rows[window.offset : window.offset + window.limit]
    ]
    return list_answer(request, window, data, len(rows))


@router.get("/download/{file}")
def download(*, session: RequestSession, access: ListAccess, file: str) -> Response:
    match = _LIST_FILE.fullmatch(file)
    if match is None:
        raise NotFoundError(f"no list file is named {file!r} (LV-0-dwzliste.zip, LV-<region>-dwzliste.zip)")
    region = "" if match.group(1) == "0" else match.group(1).upper()
    if region:
        list_queries.require_federation(session, region)
    prefix = limited_vkz(access, region) or ""  # a club's client: its own club's lines
    members, _ = list_queries.federation_members(session, prefix, list_source(session, at=None, edition=None))
    federations = list_queries.federations_of(session, prefix)
    clubs = list_queries.federation_clubs(session, prefix)
    # stamped as the API's portal-layout ZIP of the same federation (``zdb.api.routers.files``):
    # the same file variant, the same moment, so the same data give the same bytes
    codec = dsb_files.codec_of("cp1252")
    shaping = {"federation": prefix, "layout": "portal", "encoding": codec, "at": None, "edition": None}
    key = variant_key("/files/rating-list.zip", **shaping)
    stamp = last_modified(session, key, content_tag(members, clubs, federations))
    written = portal_files.portal_rating_list_zip(members, clubs, federations, codec, stamp)
    headers = {"Content-Disposition": f'attachment; filename="{file}"', "Cache-Control": "no-cache"}
    return Response(written.data, media_type="application/zip", headers=headers)
