"""The staff's endpoints for a federation's rating list and FIDE's: upload it (a dry run shows
the difference, a real run applies it) and follow the import.

Thin: the upload is stored as an import waiting for the worker (``zdb.lists.models``), with a
message in the outbox in the same transaction (``zdb.lists.queue``); the relay asks the worker to
run it once the request's unit of work has committed. The worker's answer is the
difference (``zdb.lists.difference``), read with ``GET /lists/imports/{id}`` like the
recalculation's status. Admin only.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Form, Path, Request, UploadFile
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from zdb.api.openapi import problems
from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.common.utc import UtcDateTime
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page
from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.lists.lost_imports import rerun_import
from zdb.lists.models import ListImport
from zdb.lists.queries import import_page
from zdb.lists.queue import queue_list_import

__all__ = ["router"]

router = APIRouter(prefix="/lists", tags=["federations and clubs"])

#: an upload's and a re-run's answer: 202, the import named in ``Location``
_ACCEPTED: dict[int | str, dict[str, Any]] = {
    202: {"headers": {"Location": {"description": "the import", "schema": {"type": "string"}}}}
}


class ImportProgress(BaseModel):
    """A rating list's phases ended of its phases (reading, comparing, then the writes: 2 for a
    dry run, 9 for an import); FIDE's players read, of a total known only at the end (0 until
    then). An import that is done shows its total done."""

    done: int = Field(examples=[3])
    total: int = Field(examples=[9])


class _ImportFacts(BaseModel):
    """What both answers tell of an import before its outcome (the field order is the answers')."""

    id: int = Field(examples=[1])
    kind: Literal["list", "fide"] = Field(description="the federation's rating list or FIDE's list", examples=["list"])
    file_name: str = Field(examples=["LV-0-csv.zip"])
    list_date: date | None = Field(
        description="the epoch of the starting states it brings; of FIDE's list, its edition", examples=["2026-11-30"]
    )
    dry_run: bool
    skip_problems: bool
    status: Literal["waiting", "running", "done", "refused", "failed"] = Field(examples=["done"])
    progress: ImportProgress


class ListImportSummary(_ImportFacts):
    """An import as the list of imports shows it: without its difference."""

    created_at: UtcDateTime = Field(examples=["2026-12-02T08:00:00Z"])
    finished_at: UtcDateTime | None = Field(examples=["2026-12-02T08:00:09Z"])


class ListImportOut(_ImportFacts):
    """An import of a rating list: waiting for the worker, running, or ended with its answer."""

    result: dict[str, Any] | None = Field(
        description="the difference: counts per kind, the first lines of each, the problems and warnings (file:line: "
        "column: text; `problem_texts` and `warning_texts` hold the same with file, line, column and the text's "
        "template and values apart), lines left out; for a refused list the difference it would have made and "
        "why it was refused",
    )
    error: str | None = Field(description="why an import without a difference was refused or failed")
    created_at: UtcDateTime = Field(examples=["2026-12-02T08:00:00Z"])
    finished_at: UtcDateTime | None = Field(examples=["2026-12-02T08:00:09Z"])


def _facts(record: ListImport) -> dict[str, Any]:
    return {
        "id": record.id,
        "kind": record.kind,
        "file_name": record.file_name,
        "list_date": record.list_date,
        "dry_run": record.dry_run,
        "skip_problems": record.skip_problems,
        "status": record.status,
        "progress": ImportProgress(done=record.progress_done, total=record.progress_total),
        "created_at": record.created_at,
        "finished_at": record.finished_at,
    }


def _summary(record: ListImport) -> ListImportSummary:
    return ListImportSummary(**_facts(record))


def _out(record: ListImport) -> ListImportOut:
    return ListImportOut(**_facts(record), result=record.result, error=record.error)


@router.post(
    "/imports",
    status_code=202,
    response_model=ListImportOut,
    summary="Upload the federation's rating-list ZIP (admin)",
    description="The ZIP (`spieler.csv`, `vereine.csv`, `verbaende.csv` in any layout in use) is imported by the "
    "worker: the first list of a federation, or a later one as a sync. `dry_run` answers the difference and "
    "stores nothing. A list with problems stores nothing unless `skip_problems`. Follow it at `Location`.",
    responses={**_ACCEPTED, **problems(401, 403, 422)},
)
def upload_list(
    *,
    request: Request,
    session: RequestSession,
    caller: Caller,
    file: Annotated[UploadFile, File(description="the rating-list ZIP")],
    list_date: Annotated[date | None, Form(description="the list's date (default: the ZIP's own)")] = None,
    encoding: Annotated[Literal["utf-8", "cp1252", "latin-1"] | None, Form()] = None,
    dry_run: Annotated[bool, Form()] = False,
    skip_problems: Annotated[bool, Form()] = False,
) -> JSONResponse:
    caller.require("admin")
    data, name = _payload(file, "list.zip")
    record = ListImport(kind="list", file_name=name, list_date=list_date, encoding=encoding, payload=data)
    record.dry_run, record.skip_problems = dry_run, skip_problems
    return _store(request, session, caller, record)


def _store(
    request: Request,
    session: Session,
    caller: Principal,
    record: ListImport,
) -> JSONResponse:
    """Store the upload as an import waiting for the worker, who is asked after the commit."""
    record.status, record.progress_done, record.progress_total = "waiting", 0, 0
    record.actor_token_id = caller.token_id
    session.add(record)
    session.flush()
    session.refresh(record)
    return _queued(request, session, caller, record, "upload", file=record.file_name, dry_run=record.dry_run)


def _queued(
    request: Request, session: Session, caller: Principal, record: ListImport, verb: str, **detail: Any
) -> JSONResponse:
    """The import audited (``list.<verb>`` or ``fide.<verb>``) and queued for the worker, who is
    asked after the commit; answered 202 with the import at ``Location``."""
    action = f"{'fide' if record.kind == 'fide' else 'list'}.{verb}"
    record_entry(session, caller.token_id, action, f"import {record.id}", **detail)
    queue_list_import(session, record.id)
    location = f"{request.scope.get('root_path', '')}/api/v1/lists/imports/{record.id}"
    return JSONResponse(_out(record).model_dump(mode="json"), status_code=202, headers={"Location": location})


def _payload(file: UploadFile, default_name: str) -> tuple[bytes, str]:
    data = file.file.read()
    if not data:
        raise ValidationError([ValidationProblem("body.file", "the file is empty")])
    return data, (file.filename or default_name).rsplit("/", 1)[-1][:200]


@router.post(
    "/fide-imports",
    status_code=202,
    response_model=ListImportOut,
    summary="Upload FIDE's rating list (admin)",
    description="FIDE's combined list as published: the text list (`players_list_foa.txt`), the XML, or FIDE's "
    "ZIP of either (the text list is about 320 MB, its ZIP a tenth of it). The worker stores it as the edition "
    "of `edition` (default: the first day of the month it runs), replacing an edition of that date. "
    "`dry_run` reads and counts, storing nothing. Lines that cannot be read refuse the list unless "
    "`skip_problems`. Follow it at `Location` (`GET /lists/imports/{id}`).",
    responses={**_ACCEPTED, **problems(401, 403, 422)},
)
def upload_fide_list(
    *,
    request: Request,
    session: RequestSession,
    caller: Caller,
    file: Annotated[UploadFile, File(description="FIDE's list: .txt, .xml, or a ZIP of one")],
    edition: Annotated[date | None, Form(description="the edition's date (default: the first of the month)")] = None,
    dry_run: Annotated[bool, Form()] = False,
    skip_problems: Annotated[bool, Form()] = False,
) -> JSONResponse:
    caller.require("admin")
    data, name = _payload(file, "players_list_foa.txt")
    record = ListImport(kind="fide", file_name=name, list_date=edition, payload=data)
    record.dry_run, record.skip_problems = dry_run, skip_problems
    return _store(request, session, caller, record)


@router.get(
    "/imports",
    response_model=Page[ListImportSummary],
    summary="Every import, newest first (admin)",
    description="Uploads and the imports of `zdb lists import` and `zdb fide import`, paged, the newest first; "
    "each import's difference is at `GET /lists/imports/{id}`.",
    responses=problems(401, 403, 422),
)
def list_imports(*, session: RequestSession, caller: Caller, paging: Paging) -> Page[ListImportSummary]:
    caller.require("admin")
    records, total = import_page(session, limit=paging.limit, offset=paging.offset)
    return paging.page([_summary(record) for record in records], total)


@router.get(
    "/imports/{import_id}",
    response_model=ListImportOut,
    summary="An import: its state, progress and difference (admin)",
    responses=problems(401, 403, 404),
)
def list_import(
    *, session: RequestSession, caller: Caller, import_id: Annotated[int, Path(ge=1, le=2**31 - 1)]
) -> ListImportOut:
    caller.require("admin")
    record = session.get(ListImport, import_id)
    if record is None:
        raise NotFoundError(f"no import has the id {import_id}")
    return _out(record)


@router.post(
    "/imports/{import_id}/rerun",
    status_code=202,
    response_model=ListImportOut,
    summary="Run a failed import again (admin)",
    description="An import that failed (its worker was lost, or it broke off) is run again with its kept file: "
    "it waits for the worker as an upload does. Only a failed import runs again, and only when asked: the "
    "worker never resumes one by itself. Follow it at `Location`.",
    responses={**_ACCEPTED, **problems(401, 403, 404, 409)},
)
def rerun_list_import(
    *,
    request: Request,
    session: RequestSession,
    caller: Caller,
    import_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
) -> JSONResponse:
    caller.require("admin")
    record = rerun_import(session, import_id)
    return _queued(request, session, caller, record, "rerun", file=record.file_name)
