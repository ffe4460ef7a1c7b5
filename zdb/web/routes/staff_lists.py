"""The staff's rating-list page: upload the federation's list, see the difference before it is
applied (a dry run), apply it, follow the import, and run a failed one again. For a signed-in admin (the referees'
sign-in, with an admin token).

The page writes what the API writes (``zdb.api.routers.lists``): an import waiting for the
worker, handed over after the commit. A dry run keeps the uploaded bytes, so that "apply" takes
exactly the file whose difference was shown; they are dropped once it is applied.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import File, Form, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select

from zdb.audit.writer import record_entry
from zdb.endpoints.dependencies import RequestSession
from zdb.errors import NotFoundError, ValidationProblem
from zdb.lists.difference import KINDS
from zdb.lists.lost_imports import rerun_import
from zdb.lists.models import ListImport
from zdb.lists.queue import queue_list_import
from zdb.messages import Message
from zdb.web.i18n import mark
from zdb.web.list_problem_texts import shown_samples, shown_texts
from zdb.web.page_route import problem_detail
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import admin

__all__ = ["router"]

router = page_router()

#: the words for the kinds of difference
KIND_WORDS = {
    "federations_new": mark("new federations"),
    "federations_changed": mark("renamed or moved federations"),
    "clubs_new": mark("new clubs"),
    "clubs_changed": mark("renamed or moved clubs"),
    "people_new": mark("new people"),
    "people_changed": mark("corrected people (name, sex, birth year, FIDE id)"),
    "people_linked": mark("people found by their FIDE id"),
    "people_unchanged": mark("unchanged people"),
    "memberships_new": mark("new memberships"),
    "memberships_changed": mark("memberships with a new status or number"),
    "memberships_ended": mark("ended memberships (leavers and transfers)"),
    "transfers": mark("transfers"),
    "start_ratings": mark("starting states (DWZ at the list's date)"),
    "ratings_differ": mark("ratings that differ from ZDB's (not changed)"),
}
STATUS_WORDS = {
    "waiting": mark("waiting for the worker"),
    "running": mark("running"),
    "done": mark("done"),
    "refused": mark("refused"),
    "failed": mark("failed"),
}
assert set(KIND_WORDS) == set(KINDS)
#: a list's problems are shown this many to a page (a broken list has thousands)
PROBLEMS_PER_PAGE = 50
#: the warnings shown (the first ones; the API answers all)
WARNINGS_SHOWN = 200


@router.get("/staff/lists", response_class=HTMLResponse)
def lists_page(request: Request, session: RequestSession) -> HTMLResponse:
    admin(request, session)
    recent = session.execute(select(ListImport).order_by(ListImport.id.desc()).limit(20)).scalars().all()
    return render(request, "staff_lists.html", {"recent": recent, "status_words": STATUS_WORDS})


@router.post("/staff/lists")
def upload(
    request: Request,
    session: RequestSession,
    *,
    file: Annotated[UploadFile, File()],
    list_date: Annotated[str, Form(max_length=10)] = "",
    apply: Annotated[str, Form(max_length=2)] = "",
    skip_problems: Annotated[str, Form(max_length=2)] = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    try:
        day = date.fromisoformat(list_date) if list_date else None
    except ValueError:
        day = None
    name = (file.filename or "list.zip").rsplit("/", 1)[-1][:200]
    record = ListImport(kind="list", file_name=name, list_date=day, payload=file.file.read())
    record.dry_run, record.skip_problems, record.status = apply != "on", skip_problems == "on", "waiting"
    record.progress_done, record.progress_total, record.actor_token_id = 0, 0, caller.token_id
    session.add(record)
    session.flush()
    record_entry(session, caller.token_id, "list.upload", f"import {record.id}", file=name, dry_run=record.dry_run)
    queue_list_import(session, record.id)
    return RedirectResponse(f"/staff/lists/{record.id}", status_code=303)


def _import(session: RequestSession, import_id: int) -> ListImport:
    record = session.get(ListImport, import_id)
    if record is None:
        raise NotFoundError(Message("no import has the id {id}", id=import_id))
    return record


ImportId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/staff/lists/{import_id}", response_class=HTMLResponse)
def import_page(
    request: Request, session: RequestSession, import_id: ImportId, page: Annotated[int, Query(ge=1, le=100_000)] = 1
) -> HTMLResponse:
    admin(request, session)
    record = _import(session, import_id)
    result = record.result or {}
    sample_texts = result.get("sample_texts")
    kinds = [
        (
            kind,
            KIND_WORDS[kind],
            result["counts"][kind],
            shown_samples(
                request, result["samples"].get(kind, []), None if sample_texts is None else sample_texts.get(kind)
            ),
        )
        for kind in KINDS
        if result.get("counts", {}).get(kind)
    ]
    applicable = record.dry_run and record.status == "done" and record.payload is not None
    rerunnable = record.status == "failed" and record.payload is not None
    problems: list[str] = result.get("problems") or []
    first = (page - 1) * PROBLEMS_PER_PAGE
    shown = slice(first, first + PROBLEMS_PER_PAGE)
    problem_texts, warning_texts = result.get("problem_texts"), result.get("warning_texts")
    warnings: list[str] = (result.get("warnings") or [])[:WARNINGS_SHOWN]
    context = {
        "record": record,
        "result": result,
        "kinds": kinds,
        "applicable": applicable,
        "rerunnable": rerunnable,
        "problems": shown_texts(request, problems[shown], None if problem_texts is None else problem_texts[shown]),
        "warnings": shown_texts(request, warnings, None if warning_texts is None else warning_texts[:WARNINGS_SHOWN]),
        "warnings_total": len(result.get("warnings") or []),
        "problems_total": len(problems),
        "first_problem": first + 1,
        "page": page,
        "pages": max(1, -(-len(problems) // PROBLEMS_PER_PAGE)),
    }
    refusal = [problem_detail(request, _stored_problem(stored)) for stored in record.refusal or ()]
    return render(request, "staff_list_import.html", {**context, "refusal": refusal, "status_words": STATUS_WORDS})


def _stored_problem(stored: dict[str, Any]) -> ValidationProblem:
    text = stored["text"]
    return ValidationProblem(stored["place"], Message.from_json(text) if isinstance(text, dict) else text)


@router.post("/staff/lists/{import_id}/apply")
def apply_import(request: Request, session: RequestSession, import_id: ImportId) -> RedirectResponse:
    """Apply the very file whose dry run was shown."""
    require_same_origin(request)
    caller = admin(request, session)
    shown = _import(session, import_id)
    if not (shown.dry_run and shown.status == "done" and shown.payload is not None):
        return RedirectResponse(f"/staff/lists/{import_id}", status_code=303)
    record = ListImport(
        kind="list",
        file_name=shown.file_name,
        list_date=shown.list_date,
        encoding=shown.encoding,
        payload=shown.payload,
    )
    record.dry_run, record.skip_problems, record.status = False, shown.skip_problems, "waiting"
    record.progress_done, record.progress_total, record.actor_token_id = 0, 0, caller.token_id
    shown.payload = None
    session.add(record)
    session.flush()
    record_entry(session, caller.token_id, "list.apply", f"import {record.id}", dry_run=import_id)
    queue_list_import(session, record.id)
    return RedirectResponse(f"/staff/lists/{record.id}", status_code=303)


@router.post("/staff/lists/{import_id}/rerun")
def rerun(request: Request, session: RequestSession, import_id: ImportId) -> RedirectResponse:
    """Run a failed import again with its kept file (``zdb.lists.lost_imports``)."""
    require_same_origin(request)
    caller = admin(request, session)
    record = rerun_import(session, import_id)
    action = "fide.rerun" if record.kind == "fide" else "list.rerun"
    record_entry(session, caller.token_id, action, f"import {record.id}", file=record.file_name)
    queue_list_import(session, record.id)
    return RedirectResponse(f"/staff/lists/{record.id}", status_code=303)
