"""The federation's established files for club software: the rating-list ZIP and a club's
members in the legacy ``|`` layout (layouts and their sources: ``zdb.formats.dsb_files``).

Club scripts mirror these files every night, so both answer conditional GETs: the ``ETag`` is a
hash of the exact bytes (encoding included), ``Last-Modified`` the moment the file's content
last changed (``zdb.ratings.file_stamps``: a preview or a write that leaves the file as it was
never moves it), and ``If-None-Match`` with the tag, or else ``If-Modified-Since`` with that
date, answers a bodiless 304. The ZIP's entries carry the same moment. Only public data is
written, the same for every caller, so a token changes nothing here (an invalid one is still
refused).

A caller that asks for ``application/json`` (and not for the file's own type) gets a
description of the file instead of its bytes: name, type, size, the file's ETag and the number
of lines, for scripts that look before they download.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.utils import format_datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field

from zdb.api.conditional import conditional_json, not_modified
from zdb.api.openapi import problems
from zdb.api.routers.federations import ClubCode
from zdb.api.routers.ratings import AtDate, EditionName
from zdb.editions.sources import list_source
from zdb.endpoints.dependencies import RequestSession, get_principal
from zdb.formats import dsb_files, portal_files
from zdb.ratings import list_queries
from zdb.ratings.file_stamps import content_tag, last_modified, variant_key

__all__ = ["router"]

router = APIRouter(tags=["federations and clubs"], dependencies=[Depends(get_principal)])

#: the header telling how many characters were transliterated for a legacy encoding
TRANSLITERATED_HEADER = "X-Transliterated-Characters"

EncodingName = Literal["utf-8", "utf8", "cp1252", "windows-1252", "latin-1", "latin1", "iso-8859-1"]

Encoding = Annotated[
    EncodingName,
    Query(
        description="utf-8 (default), or a legacy encoding as the federation's old files have: cp1252 "
        "(windows-1252) or latin-1 (iso-8859-1). A character the legacy encoding lacks is transliterated "
        f"(č → c; ä stays ä); the {TRANSLITERATED_HEADER} header counts them."
    ),
]

ListEncoding = Annotated[
    EncodingName | None,
    Query(
        description="the layout's own (utf-8 for dewis, cp1252 for portal) by default, or any of utf-8, cp1252 "
        "(windows-1252), latin-1 (iso-8859-1). A character the encoding lacks is transliterated (č → c; ä stays "
        f"ä); the {TRANSLITERATED_HEADER} header counts them."
    ),
]

LayoutName = Literal["dewis", "portal"]

ListLayout = Annotated[
    LayoutName,
    Query(
        description="dewis (default): the DeWIS layout club software reads (UTF-8 unless `encoding=` says "
        "otherwise); portal: the 21-column 2026 layout of the DSB's rating portal, Windows-1252 unless "
        "`encoding=` says otherwise, CRLF line ends, `ID` the person's portal id (NU…) or, for a person "
        "without one, his person number."
    ),
]

_CHARSETS = {"utf-8": "utf-8", "cp1252": "windows-1252", "latin-1": "iso-8859-1"}


class FileDescription(BaseModel):
    """What a download would be, answered instead of it for ``Accept: application/json``."""

    filename: str = Field(examples=["C0327-members.csv"])
    media_type: str = Field(examples=["text/csv; charset=utf-8; header=present"])
    size: int = Field(description="bytes", examples=[1834])
    etag: str = Field(description="the ETag of the file itself", examples=['"5d41402abc4b2a76b9719d911017c592"'])
    lines: dict[str, int] = Field(
        description="data lines (without the header) of each file", examples=[{"C0327-members.csv": 4}]
    )
    transliterated_characters: int = Field(description="replaced for a legacy encoding", examples=[0])


def _wants_json(request: Request, media_type: str) -> bool:
    accept = request.headers.get("accept", "")
    return "application/json" in accept and media_type.split(";", maxsplit=1)[0] not in accept


def _etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _variant(request: Request, **shaping: object) -> str:
    """The key of a file's variant: its path and the query values that shape its bytes."""
    return variant_key(request.url.path.removeprefix("/api/v1"), **shaping)


def _file(
    request: Request,
    *,
    written: dsb_files.Written,
    media_type: str,
    filename: str,
    lines: dict[str, int],
    modified: datetime,
) -> Response:
    etag = _etag(written.data)
    if _wants_json(request, media_type):
        description = FileDescription(
            filename=filename,
            media_type=media_type,
            size=len(written.data),
            etag=etag,
            lines=lines,
            transliterated_characters=written.transliterated,
        )
        answer = conditional_json(request, description, modified)
        answer.headers["Vary"] = "Accept, Authorization"
        return answer
    headers = {
        "ETag": etag,
        "Last-Modified": format_datetime(modified.replace(microsecond=0), usegmt=True),
        "Cache-Control": "no-cache",
        "Vary": "Accept",
        "Content-Disposition": f'attachment; filename="{filename}"',
        TRANSLITERATED_HEADER: str(written.transliterated),
    }
    if not_modified(request, etag, modified):
        return Response(status_code=304, headers=headers)
    return Response(written.data, media_type=media_type, headers=headers)


def _binary(media_type: str, description: str, example: FileDescription) -> dict[int | str, dict[str, Any]]:
    return {
        200: {
            "description": description + " With Accept: application/json, a description of the file instead.",
            "model": FileDescription,
            "content": {
                media_type: {"schema": {"type": "string", "format": "binary"}},
                "application/json": {"example": example.model_dump()},
            },
            "headers": {
                "ETag": {"schema": {"type": "string"}, "description": "hash of the exact bytes"},
                "Last-Modified": {"schema": {"type": "string"}, "description": "the data's latest change"},
                "Content-Disposition": {"schema": {"type": "string"}, "description": "the file's name"},
                TRANSLITERATED_HEADER: {
                    "schema": {"type": "integer"},
                    "description": "characters transliterated for a legacy encoding (0 for UTF-8)",
                },
            },
        }
    }


_ZIP_EXAMPLE = FileDescription(
    filename="rating-list-C.zip",
    media_type="application/zip",
    size=48213,
    etag='"9c953a33b1bb894f979ad61e3875ae80"',
    lines={"spieler.csv": 1204, "vereine.csv": 41, "verbaende.csv": 6},
    transliterated_characters=0,
)
_CLUB_EXAMPLE = FileDescription(
    filename="C0327-members.csv",
    media_type="text/csv; charset=windows-1252; header=present",
    size=355,
    etag='"43d0dce23e50e52f099c08b92ce17fb6"',
    lines={"C0327-members.csv": 4},
    transliterated_characters=2,
)

_ZIP_DESCRIPTION = """\
The DSB's rating-list ZIP: `spieler.csv` (`ID,VKZ,Mgl-Nr,Status,Spielername,Geschlecht,\
Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ,Index,FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land`, one line per \
current membership), `vereine.csv` (`ZPS,LV,Verband,Vereinname`) and `verbaende.csv` \
(`Verband,LV,Uebergeordnet,Verbandname`), comma-separated, LF line ends, with the headers club software compares. \
`Letzte-Auswertung` is the ISO year and week (`YYYYWW`) of the last evaluated tournament's end; absent values are \
empty fields. Spielberechtigung is not kept by this database and is empty; FIDE-Elo and FIDE-Titel come from \
the person's newest FIDE edition. Public data only: the birth year, never the birth date.

With `layout=portal`: the same lists in the 2026 layout of the DSB's rating portal, Windows-1252 by default. \
`spieler.csv` has the 21 columns `ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,\
Geburtsjahr,"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,FIDE-Frauentitel,\
FIDE-Elozahl-Schnellschach,FIDE-Elozahl-Blitz,Vorname,Nachname,Titel`, one line per membership; `ID` is the \
person's portal id (`NU…`) or, for a person without one, his eight-digit person number, by which a re-import \
finds him again. `vereine.csv` (`ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname`) lists the \
federations too (codes ending in `00`), `verbaende.csv` \
(`Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname`) starts with the root `000`."""

_CLUB_DESCRIPTION = """\
A club's current members in the legacy `|`-separated layout of the DSB's club list \
(`id|nachname|vorname|titel|verein|mglnr|status|dwz|dwzindex|turniercode|turnierende|fideid|fideelo|fidetitel`, \
14 fields, CRLF line ends, no quoting): one line per current member, by membership number. `turniercode` is the id \
of the last evaluated tournament here, `turnierende` its end date (YYYY-MM-DD). Public data only. With `at=` (from \
the history) or `edition=` (as published): the members of that day with the ratings of that day."""


@router.get(
    "/files/rating-list.zip",
    summary="The rating-list ZIP (spieler.csv, vereine.csv, verbaende.csv)",
    description=_ZIP_DESCRIPTION,
    response_class=Response,
    responses={**_binary("application/zip", "The ZIP of the three files.", _ZIP_EXAMPLE), **problems(404)},
)
def rating_list(
    *,
    request: Request,
    session: RequestSession,
    federation: Annotated[
        str, Query(max_length=4, description="club-code prefix of the federation subtree; empty: the whole DSB")
    ] = "",
    layout: ListLayout = "dewis",
    encoding: ListEncoding = None,
    at: AtDate = None,
    edition: EditionName = None,
) -> Response:
    if federation:
        list_queries.require_federation(session, federation)
    source = list_source(session, at=at, edition=edition)
    members, _ = list_queries.federation_members(session, federation, source)
    clubs = list_queries.federation_clubs(session, federation)
    federations = list_queries.federations_of(session, federation)
    codec = dsb_files.codec_of(encoding or ("cp1252" if layout == "portal" else "utf-8"))
    # the ZIP's entries carry the moment its data last changed: its tag is taken from the data
    key = _variant(request, federation=federation, layout=layout, encoding=codec, at=at, edition=edition)
    stamp = last_modified(session, key, content_tag(members, clubs, federations))
    if layout == "portal":
        written = portal_files.portal_rating_list_zip(members, clubs, federations, codec, stamp)
        lines = {
            "spieler.csv": len(members),
            "vereine.csv": len(clubs) + sum(1 for f in federations if f.prefix),  # the federations too
            "verbaende.csv": len(federations),  # the root 000 too
        }
    else:
        written = dsb_files.rating_list_zip(members, clubs, federations, codec, stamp)
        lines = {
            "spieler.csv": len(members),
            "vereine.csv": len(clubs),
            "verbaende.csv": sum(1 for f in federations if f.prefix),  # the DSB itself has no line
        }
    suffix = "-portal" if layout == "portal" else ""
    name = f"rating-list-{federation}{suffix}.zip" if federation else f"rating-list{suffix}.zip"
    return _file(request, written=written, media_type="application/zip", filename=name, lines=lines, modified=stamp)


@router.get(
    "/clubs/{code}/members.csv",
    summary="A club's members in the legacy |-separated layout",
    description=_CLUB_DESCRIPTION,
    response_class=Response,
    responses={**_binary("text/csv", "The club's members, one line each.", _CLUB_EXAMPLE), **problems(404)},
)
def club_members(
    *,
    request: Request,
    session: RequestSession,
    code: ClubCode,
    encoding: Encoding = "utf-8",
    at: AtDate = None,
    edition: EditionName = None,
) -> Response:
    codec = dsb_files.codec_of(encoding)
    members, _ = list_queries.club_members(session, code, list_source(session, at=at, edition=edition))
    written = dsb_files.club_members_csv(members, codec)
    media_type = f"text/csv; charset={_CHARSETS[codec]}; header=present"
    modified = last_modified(session, _variant(request, encoding=codec, at=at, edition=edition), _etag(written.data))
    name = f"{code}-members.csv"
    return _file(
        request, written=written, media_type=media_type, filename=name, lines={name: len(members)}, modified=modified
    )
