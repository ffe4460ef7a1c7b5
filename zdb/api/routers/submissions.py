"""The referees' endpoints: submit a tournament (JSON or a TRF file), preview its evaluation,
correct it (a new version under the same id) and withdraw it.

Thin on purpose: the intake (``zdb.submissions.intake``) reads, checks and matches, the service
(``zdb.tournaments.service``) stores a version and marks the time line dirty, and the request's
unit of work commits once and then asks for the recalculation. A refused submission (422 with
every problem, each with its field path or TRF line) rolls back and stores nothing, newcomers
included. Every write is recorded in the audit log with the token and the time.

Who may write: an ``admin``, or a ``referee`` whose scope (a club-code prefix) covers the
tournament's federation; for a correction both the stored and the new federation.

One handler per verb (submit, preview, preview a correction, correct, withdraw), each made for
a reader chosen by the route's content type: JSON (``application/json``) or a tournament file
(TRF or SWT: the body, or a form upload's field). Each route keeps its own path, summary and
documented body; the handler reads what was sent (``zdb.submissions.readers``), authorises, and
hands the intake to the shared writes (``zdb.endpoints.referee_writes``: idempotency, review,
store, answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from zdb.api.openapi import problems
from zdb.auth.principal import Principal
from zdb.endpoints import referee_writes as writes
from zdb.endpoints.dependencies import Caller, QueryDate, RequestSession, TournamentId
from zdb.endpoints.idempotency import MAX_KEY_LENGTH, StoredAnswer, request_hash
from zdb.errors import ValidationError, ValidationProblem
from zdb.reviews.schemas import ReviewSubmittedOut
from zdb.reviews.waiting_duplicates import duplicate_and_waiting_notes
from zdb.submissions.intake import Intake, TrfMeta
from zdb.submissions.preview import preview, record_preview
from zdb.submissions.readers import Submitted, read_file, read_json
from zdb.submissions.schemas import PreviewOut, SubmissionOut, WarningOut

__all__ = ["requires_token", "router"]

router = APIRouter(prefix="/tournaments", tags=["tournaments"])

_TRF_EXAMPLE = (
    "012 Vereinsmeisterschaft 2026\n"
    "042 2026/09/18\n"
    "052 2026/09/20\n"
    "122 40/5400+30:1800+30\n"
    "001    1 m    Mueller, Anna                     2100 GER  4600001 1980/05/17  1.0    1     2 w 1\n"
    "001    2 m    Schmidt, Dieter                   1900 GER     1234 1975/01/02  0.0    2     1 b 0\n"
)
#: the form field of a form upload (``multipart/form-data``) that carries the file
FILE_FIELD = "file"
_TRF_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "A FIDE TRF16 / TRF26 file as it is (any of the usual encodings), the national `GER` lines "
        "carrying DWZ, club code + membership number or person number included: the body itself, or the field "
        f"`{FILE_FIELD}` of a form upload (`curl -F {FILE_FIELD}=@t.trf`, a browser's file input). Every problem is "
        "answered in one 422 with its line number.",
        "content": {
            "text/plain": {"schema": {"type": "string"}, "example": _TRF_EXAMPLE},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {FILE_FIELD: {"type": "string", "format": "binary", "description": "the TRF file"}},
                    "required": [FILE_FIELD],
                },
            },
        },
    }
}
_WRITE_DESCRIPTION = (
    "Players are matched by `pkz`, by `club_code` + `member_no` (a current membership), by `fide_id`, then by "
    "name + birth date; a player found by none is created from name, birth date, sex and `club`. An ambiguous "
    "match is refused (422) with the candidates in `errors`. Everything is checked before anything is stored "
    "(spec §3 time control, dates, pairings, results): one 422 lists every problem. With an `Idempotency-Key` "
    "header a retry is answered with the first answer; the key with another request is a 409. A tournament "
    "whose players, dates and results equal a stored tournament's is refused (409, naming it), whatever its "
    "format; one that shares at least half of its games with a stored tournament of overlapping dates is a 409 "
    "naming that one, stored only when sent again with `confirm_duplicate=true`."
)
_TRF_DESCRIPTION = (
    "What the file does not say is given as query parameters (`acronym`, `federation`, `kind`, `youth_u12`); "
    "`name`, `start_date`, `end_date` and `time_control` override the file's records 012, 042, 052 and 122. "
    "Players are matched by the `GER` national line (person number, or club code + membership number), then by "
    "FIDE id, then by name + birth date; newcomers are created from the file's data."
)

IdempotencyKeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=MAX_KEY_LENGTH,
        description="any text, unique per intended write (a UUID): a retry with the same key and request is answered "
        "with the first answer and stores nothing; the same key with another request is a 409",
    ),
]


ComplaintRef = Annotated[
    int | None,
    Query(
        ge=1,
        le=2**31 - 1,
        description="the complaint (about this tournament) the correction is made for: linked to it, and named in "
        "the audit log",
    ),
]


def requires_token(caller: Caller) -> Principal:
    """Refuses a caller who may not submit at all before the body is looked at (401/403); a
    request without a token is refused even before that (``zdb.api.request_guard``)."""
    caller.require("admin", "referee")
    return caller


Writer = Annotated[Principal, Depends(requires_token)]


async def _raw_body(request: Request) -> bytes:
    """The TRF file: the body itself, or the one field ``file`` of a form upload."""
    content_type = request.headers.get("content-type", "").lower()
    if not content_type.startswith("multipart/"):
        return await request.body()
    if not content_type.startswith("multipart/form-data"):
        raise ValidationError(
            [ValidationProblem("header.Content-Type", "a form upload is multipart/form-data, e.g. curl -F file=@t.trf")]
        )
    async with request.form() as form:
        uploads = form.getlist(FILE_FIELD)
        if len(uploads) != 1:
            found = "no field" if not uploads else f"{len(uploads)} fields"
            raise ValidationError(
                [
                    ValidationProblem(
                        f"body.{FILE_FIELD}",
                        f"the form has {found} {FILE_FIELD!r}: send one TRF file as "
                        f"{FILE_FIELD}, e.g. curl -F {FILE_FIELD}=@t.trf",
                    )
                ]
            )
        (upload,) = uploads
        return upload.encode("utf-8") if isinstance(upload, str) else await upload.read()


RawBody = Annotated[bytes, Depends(_raw_body)]

AnnouncementCode = Annotated[
    str | None,
    Query(
        max_length=12,
        description="the code of the tournament's announcement (`POST /announcements`); without it the submission is "
        "matched to the one unclaimed announcement of its federation whose dates overlap",
        examples=["2026-0001"],
    ),
]
ConfirmDuplicate = Annotated[
    bool,
    Query(
        description="store a tournament that shares most of its games with a stored tournament of overlapping "
        "dates (the 409 named it): the referee confirms it is another tournament"
    ),
]


def _answer(answer: StoredAnswer) -> JSONResponse:
    headers = {} if answer.location is None else {"Location": answer.location}
    return JSONResponse(answer.body, status_code=answer.status, headers=headers)


def _json_digest(request: Request, body: Any) -> str:
    return request_hash(request.method, request.url.path, "", {"body": body})


#: the JSON body: read by ``read_tournament_json`` so that its schema's problems and the rules'
#: are answered in one 422 (the schema is documented as ``TournamentIn``)
_JSON_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TournamentIn"}}},
    }
}
JsonBody = Annotated[Any, Body()]


def _trf_digest(request: Request, data: bytes) -> str:
    query = urlencode(sorted(request.query_params.multi_items()))
    return request_hash(request.method, request.url.path, query, data)


def _trf_meta(
    *,
    acronym: Annotated[str, Query(min_length=1, max_length=3, description="three characters", examples=["VMS"])],
    federation: Annotated[
        str, Query(max_length=4, description="the organising federation (club-code prefix)", examples=["C03"])
    ],
    kind: Annotated[Literal["individual", "team_season"], Query()] = "individual",
    youth_u12: Annotated[bool, Query(description="a U12 youth tournament (spec §3: 60 minutes)")] = False,
    name: Annotated[str | None, Query(max_length=200, description="overrides record 012")] = None,
    start_date: Annotated[QueryDate | None, Query(description="overrides record 042")] = None,
    end_date: Annotated[
        QueryDate | None, Query(description="overrides record 052 (needed when the file lacks it)")
    ] = None,
    time_control: Annotated[
        str | None,
        Query(max_length=100, description="overrides record 122; PGN notation or '90 min + 30 s'"),
    ] = None,
) -> TrfMeta:
    return TrfMeta(acronym, federation, kind, youth_u12, name, start_date, end_date, time_control)


_CREATED: dict[int | str, dict[str, Any]] = {
    201: {
        "description": "Stored; the recalculation follows. `Location` names the tournament.",
        "headers": {"Location": {"description": "the tournament", "schema": {"type": "string"}}},
    }
}


#: a submission or correction that waits in review (the federation's rule, ``zdb.reviews``)
_HELD: dict[int | str, dict[str, Any]] = {
    202: {
        "description": "Waits in review by the responsible rating officer: nothing is stored as a tournament "
        "until the officer approves it. `Location` names the review.",
        "model": ReviewSubmittedOut,
        "headers": {"Location": {"description": "the review", "schema": {"type": "string"}}},
    }
}

Meta = Annotated[TrfMeta, Depends(_trf_meta)]


@dataclass(frozen=True, slots=True)
class Sent:
    """What a request sent, before it is read: the digest its idempotency key is held to, and how
    to read it (``zdb.submissions.readers``). Read only once the stored tournament a correction
    names was found, so that a correction of a tournament that does not exist is a 404 before
    the problems of its body are looked at."""

    digest: str
    read: Callable[[], Submitted]


def _json_sent(request: Request, body: JsonBody) -> Sent:
    """The JSON reader (``application/json``)."""
    return Sent(_json_digest(request, body), lambda: read_json(body))


def _file_sent(request: Request, meta: Meta, data: RawBody) -> Sent:
    """The file reader (a TRF or SWT file: the body, or the field ``file`` of a form upload)."""
    return Sent(_trf_digest(request, data), lambda: read_file(data, meta))


#: a route's reader: the dependency that gives what its content type sends
Reader = Callable[..., Sent]


def _authorized(caller: Principal, sent: Sent, *stored: str | None) -> Submitted:
    """What was sent, read, after the caller is authorised for the stored federations given and
    for the one sent (a JSON body whose federation cannot be read is answered with the schema's
    problems alone)."""
    submitted = sent.read()
    for federation in (*stored, submitted.federation):
        writes.authorize(caller, federation)
    return submitted


def _previewed(session: Session, caller: Principal, intake: Intake) -> PreviewOut:
    """The preview's answer, recorded in the audit log; its warnings name the stored tournaments
    it equals or resembles, as its submission would be answered."""
    answer = preview(session, intake)
    answer.warnings += [
        WarningOut(place=w.place, message=w.message)
        for w in duplicate_and_waiting_notes(session, intake.submission).warnings
    ]
    record_preview(session, caller, intake)
    return answer


# One handler per verb, made for each reader: the handler's parameters are what the route
# documents, so the reader (a dependency) is bound when the route is made.


def _submit(reader: Reader) -> Callable[..., Response]:
    reads = Depends(reader)

    def submit(
        *,
        request: Request,
        session: RequestSession,
        caller: Writer,
        sent: Sent = reads,
        key: IdempotencyKeyHeader = None,
        confirm_duplicate: ConfirmDuplicate = False,
        announcement: AnnouncementCode = None,
    ) -> Response:
        submitted = _authorized(caller, sent)
        stored = writes.store(
            request,
            session,
            caller,
            key=key,
            digest=sent.digest,
            make=lambda: submitted.intake(session, create=True, caller=caller, learn=False),
            correction=False,
            confirm_duplicate=confirm_duplicate,
            announcement=announcement,
        )
        return _answer(stored)

    return submit


def _preview(reader: Reader) -> Callable[..., PreviewOut]:
    reads = Depends(reader)

    def preview_new(*, session: RequestSession, caller: Writer, sent: Sent = reads) -> PreviewOut:
        submitted = _authorized(caller, sent)
        return _previewed(session, caller, submitted.intake(session, create=False, caller=caller))

    return preview_new


def _preview_correction(reader: Reader) -> Callable[..., PreviewOut]:
    reads = Depends(reader)

    def preview_correction(
        *, session: RequestSession, caller: Writer, tournament_id: TournamentId, sent: Sent = reads
    ) -> PreviewOut:
        stored = writes.stored_federation(session, tournament_id, for_change=True)
        submitted = _authorized(caller, sent, stored)
        intake = submitted.intake(session, create=False, caller=caller, tournament_id=tournament_id)
        return _previewed(session, caller, intake)

    return preview_correction


def _correct(reader: Reader) -> Callable[..., Response]:
    reads = Depends(reader)

    def correct(
        *,
        request: Request,
        session: RequestSession,
        caller: Writer,
        tournament_id: TournamentId,
        sent: Sent = reads,
        key: IdempotencyKeyHeader = None,
        confirm_duplicate: ConfirmDuplicate = False,
        complaint: ComplaintRef = None,
    ) -> Response:
        submitted = _authorized(caller, sent, writes.stored_federation(session, tournament_id, for_change=True))
        stored = writes.store(
            request,
            session,
            caller,
            key=key,
            digest=sent.digest,
            make=lambda: submitted.intake(
                session, create=True, caller=caller, learn=False, tournament_id=tournament_id
            ),
            correction=True,
            confirm_duplicate=confirm_duplicate,
            complaint=complaint,
        )
        return _answer(stored)

    return correct


_WITHDRAWN: dict[int | str, dict[str, Any]] = {204: {"description": "Withdrawn; the recalculation follows."}}
_PREVIEW_DESCRIPTION = (
    "Checked as a submission is; the engine evaluates it on each participant's stored state just "
    "before its end date. Newcomers are not created (their `pkz` is null)."
)
_PREVIEW_CORRECTION_DESCRIPTION = (
    "As the preview of a new tournament, at the corrected tournament's place: each participant's "
    "stored state before it, never counting the stored version the correction replaces."
)

# The routes, in the order they are matched and documented; the names keep the operation ids.
router.add_api_route(
    "",
    _submit(_json_sent),
    methods=["POST"],
    name="submit_json",
    status_code=201,
    response_model=SubmissionOut,
    summary="Submit a tournament as JSON (referee, admin)",
    description=_WRITE_DESCRIPTION,
    responses=_CREATED | _HELD | problems(403, 409),
    openapi_extra=_JSON_BODY,
)
router.add_api_route(
    "/trf",
    _submit(_file_sent),
    methods=["POST"],
    name="submit_trf",
    status_code=201,
    response_model=SubmissionOut,
    summary="Submit a tournament as a TRF file (referee, admin)",
    description=_TRF_DESCRIPTION + "\n\n" + _WRITE_DESCRIPTION,
    responses=_CREATED | _HELD | problems(403, 409),
    openapi_extra=_TRF_BODY,
)
router.add_api_route(
    "/preview",
    _preview(_json_sent),
    methods=["POST"],
    name="preview_json",
    response_model=PreviewOut,
    summary="The evaluation a JSON tournament would get now, stored nowhere (referee, admin)",
    description=_PREVIEW_DESCRIPTION,
    responses=problems(403),
    openapi_extra=_JSON_BODY,
)
router.add_api_route(
    "/{tournament_id}/preview",
    _preview_correction(_json_sent),
    methods=["POST"],
    name="preview_correction_json",
    response_model=PreviewOut,
    summary="The evaluation a correction (JSON) would get now, stored nowhere (referee, admin)",
    description=_PREVIEW_CORRECTION_DESCRIPTION,
    responses=problems(403, 404, 409),
    openapi_extra=_JSON_BODY,
)
router.add_api_route(
    "/preview/trf",
    _preview(_file_sent),
    methods=["POST"],
    name="preview_trf",
    response_model=PreviewOut,
    summary="The evaluation a TRF tournament would get now, stored nowhere (referee, admin)",
    description=_TRF_DESCRIPTION,
    responses=problems(403),
    openapi_extra=_TRF_BODY,
)
router.add_api_route(
    "/{tournament_id}/preview/trf",
    _preview_correction(_file_sent),
    methods=["POST"],
    name="preview_correction_trf",
    response_model=PreviewOut,
    summary="The evaluation a correction (TRF) would get now, stored nowhere (referee, admin)",
    description=_TRF_DESCRIPTION,
    responses=problems(403, 404, 409),
    openapi_extra=_TRF_BODY,
)
router.add_api_route(
    "/{tournament_id}",
    _correct(_json_sent),
    methods=["PUT"],
    name="correct_json",
    response_model=SubmissionOut,
    summary="Correct a tournament with JSON: a new version under the same id (referee, admin)",
    description=_WRITE_DESCRIPTION,
    responses=_HELD | problems(403, 404, 409),
    openapi_extra=_JSON_BODY,
)
router.add_api_route(
    "/{tournament_id}/trf",
    _correct(_file_sent),
    methods=["PUT"],
    name="correct_trf",
    response_model=SubmissionOut,
    summary="Correct a tournament with a TRF file: a new version under the same id (referee, admin)",
    description=_TRF_DESCRIPTION,
    responses=_HELD | problems(403, 404, 409),
    openapi_extra=_TRF_BODY,
)


@router.delete(
    "/{tournament_id}",
    status_code=204,
    response_class=Response,
    summary="Withdraw a tournament (referee, admin)",
    description="The tournament's evaluation is removed by the recalculation that follows; its id is never "
    "reused (a correction of it is a 409).",
    responses=_WITHDRAWN | problems(403, 404, 409),
)
def withdraw(
    *,
    session: RequestSession,
    caller: Writer,
    tournament_id: TournamentId,
    reason: Annotated[
        str | None, Query(max_length=500, description="why: kept in the tournament's history and the audit log")
    ] = None,
) -> Response:
    writes.withdraw(session, caller, tournament_id, reason=reason)
    return Response(status_code=204)
