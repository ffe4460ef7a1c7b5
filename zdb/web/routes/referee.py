"""The referees' area: sign in with an API token, upload a TRF or JSON file (drag and drop, or
the plain form), see every problem with its line, preview the evaluation, submit, correct,
withdraw, follow the tournament until it is evaluated, and download FIDE's report file.

Every page runs in the request's unit of work (``zdb.endpoints.dependencies``), as the other
pages and the API do: a stored upload is committed once, before the answer, and the recalculation
it asks for through the outbox follows the commit; a refusal the page answers itself (an upload's
problems, a failed sign-in) is marked refused, so that what was flushed before it is rolled back
whole.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from typing import Annotated, Any

from fastapi import File, Form, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy.orm import Session
from starlette.responses import Response

from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.auth.service import authenticate, token_standing
from zdb.endpoints import referee_writes
from zdb.endpoints.dependencies import RequestSession, TournamentId, mark_refused
from zdb.endpoints.failed_sign_ins import FailedSignIns
from zdb.endpoints.idempotency import request_hash
from zdb.errors import ValidationError, ValidationProblem
from zdb.fide.report import fide_report, report_file_name
from zdb.formats.trf.writer import TrfVersion
from zdb.messages import Message
from zdb.ratings.evaluation_report import evaluation_report
from zdb.reviews.waiting_duplicates import duplicate_and_waiting_notes
from zdb.submissions.preview import preview, record_preview
from zdb.submissions.readers import Submitted
from zdb.tournaments.queries import list_tournaments, tournament_detail
from zdb.tournaments.states import tournament_states
from zdb.web.referee_session import referee, require_same_origin, sign_out, start
from zdb.web.rendering import render, translate
from zdb.web.routes.language import local_path
from zdb.web.routes.router import page_router
from zdb.web.submission_impact import submission_impact
from zdb.web.uploads import UploadForm, read_upload

__all__ = ["router"]

router = page_router()

RECENT = 20
Text = Annotated[str, Form(max_length=200)]


@router.get("/referee/sign-in", response_class=HTMLResponse)
def sign_in_page(
    request: Request,
    next_page: Annotated[str, Query(alias="next", max_length=2000)] = "/referee",
    expired: Annotated[str, Query(max_length=1)] = "",
) -> HTMLResponse:
    message = translate(request, "Please sign in with your token.") if expired else None
    return render(request, "sign_in.html", {"next": local_path(next_page), "message": message})


@router.post("/referee/sign-in", response_class=HTMLResponse)
def sign_in(
    request: Request,
    session: RequestSession,
    token: Annotated[str, Form(max_length=500)],
    next_page: Annotated[str, Form(alias="next")] = "/",
) -> Response:
    require_same_origin(request)
    target = local_path(next_page)
    response = RedirectResponse("/referee" if target == "/" else target, status_code=303)
    try:
        caller = authenticate(session, token.strip())
        caller.require("admin", "referee")
        start(request, response, session, caller)
    except AuthenticationError:
        mark_refused(request)
        wait = _counted_failure(request, session, token.strip())
        if wait:
            message = translate(request, "Too many failed sign-ins from this address: try again in {seconds} seconds.")
            context = {"next": local_path(next_page), "message": message.format(seconds=wait)}
            return render(request, "sign_in.html", context, status=429, headers={"Retry-After": str(wait)})
        message = translate(request, "This token is not known or was revoked.")
        return render(request, "sign_in.html", {"next": local_path(next_page), "message": message}, status=401)
    except PermissionDeniedError:
        mark_refused(request)
        message = translate(request, "This token is not a referee's token.")
        return render(request, "sign_in.html", {"next": local_path(next_page), "message": message}, status=403)
    return response


def _counted_failure(request: Request, session: Session, token: str) -> int:
    """Count a failed sign-in (``zdb.endpoints.failed_sign_ins``); the seconds to wait when it is
    over the limit, else 0."""
    failures: FailedSignIns | None = request.app.state.failed_sign_ins
    if failures is None:
        return 0
    address = request.client.host if request.client else "unknown"
    known = token_standing(session, token) == "revoked"
    if failures.count_failed_sign_in(address, token, known=known):
        return 0
    return failures.retry_after(address, token, known=known)


@router.post("/referee/sign-out")
def sign_out_form(request: Request, session: RequestSession) -> RedirectResponse:
    require_same_origin(request)
    response = RedirectResponse("/", status_code=303)
    sign_out(request, response, session)
    return response


@router.get("/referee", response_class=HTMLResponse)
def referee_home(
    request: Request, session: RequestSession, page: Annotated[int, Query(ge=1, le=100_000)] = 1
) -> HTMLResponse:
    caller = referee(request, session)
    scope = None if caller.role == "admin" else caller.scope
    recent, total, _ = list_tournaments(
        session,
        period_from=None,
        period_to=None,
        federation=scope,
        text=None,
        status=None,
        limit=RECENT,
        offset=(page - 1) * RECENT,
    )
    return render(
        request,
        "referee.html",
        {
            "caller": caller,
            "recent": recent,
            "total": total,
            "page": page,
            "pages": max(1, -(-total // RECENT)),
            "first_shown": (page - 1) * RECENT + 1,
            "form": UploadForm(federation=scope or ""),
        },
    )


def _file_data(file: UploadFile | None, data: str) -> tuple[str, bytes]:
    if file is not None and file.filename:
        return file.filename, file.file.read()
    try:
        return "", base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError(
            [ValidationProblem("file", Message("the kept file was damaged: upload it again"))]
        ) from None


def _correction(text: str) -> int | None:
    return int(text) if text.isdigit() and 0 < int(text) < 2**31 else None


@router.post("/referee/upload", response_class=HTMLResponse)
def upload(
    *,
    request: Request,
    session: RequestSession,
    file: Annotated[UploadFile | None, File()] = None,
    data: Annotated[str, Form(max_length=20_000_000)] = "",
    filename: Text = "",
    acronym: Text = "",
    federation: Text = "",
    name: Text = "",
    end_date: Text = "",
    time_control: Text = "",
    youth_u12: Text = "",
    tournament_id: Text = "",
    action: Text = "preview",
    key: Text = "",
    confirm_duplicate: Text = "",
    announcement: Annotated[str, Form(max_length=12)] = "",
) -> Response:
    """``action=preview`` checks and evaluates, storing nothing; ``action=submit`` stores."""
    require_same_origin(request)
    form = UploadForm(acronym, federation, name, end_date, time_control, youth_u12 == "on")
    correction = _correction(tournament_id)
    context: dict[str, Any] = {
        "form": form,
        "tournament_id": correction,
        "problems": [],
        "announcement": announcement.strip(),
    }
    try:
        kept_name, content = _file_data(file, data)
        context["filename"] = kept_name or filename
        caller = referee(request, session)
        read = read_upload(kept_name or filename, content, form)
        if action == "submit":
            stored = _store(
                request,
                session,
                caller,
                read,
                key=key or None,
                tournament_id=correction,
                confirm_duplicate=confirm_duplicate == "on",
                announcement=announcement.strip() or None,
            )
        else:
            if correction is not None:
                referee_writes.authorize(caller, referee_writes.stored_federation(session, correction, for_change=True))
            referee_writes.authorize(caller, read.federation)
            intake = read.intake(session, create=False, caller=caller, tournament_id=correction)
            context["preview"] = preview(session, intake)
            record_preview(session, caller, intake)
            duplicates = duplicate_and_waiting_notes(session, intake.submission)
            context["confirmable"] = duplicates.confirmable
            context["warnings"] = (*intake.warnings, *duplicates.warnings)
    except ValidationError as error:
        mark_refused(request)
        context["problems"] = error.problems
        context["warnings"] = error.warnings
        return render(request, "upload_problems.html", context, status=422)
    if action == "submit":
        return RedirectResponse(stored, status_code=303)
    context |= {"data": base64.b64encode(content).decode("ascii"), "key": uuid.uuid4().hex}
    return render(request, "upload_preview.html", context)


@router.get("/referee/tournaments/{tournament_id}", response_class=HTMLResponse)
def follow_page(request: Request, session: RequestSession, tournament_id: TournamentId) -> HTMLResponse:
    caller = referee(request, session)
    detail = tournament_detail(session, tournament_id)
    # the referee sees the names of his own tournament's players, objectors' too
    report = evaluation_report(session, tournament_id, public=False)
    waiting = detail.status in ("received", "evaluating")
    impact, moved = submission_impact(session, tournament_id)
    return render(
        request,
        "follow.html",
        {
            "caller": caller,
            "detail": detail,
            "report": report,
            "waiting": waiting,
            "impact": impact,
            "moved": moved,
            "states": tournament_states(session, tournament_id),
            "form": UploadForm(
                acronym=detail.acronym,
                federation=detail.federation_prefix or "",
                name=detail.name,
                time_control=detail.time_control or "",
            ),
        },
    )


@router.get("/referee/tournaments/{tournament_id}/fide-report.trf")
def fide_report_download(
    request: Request, session: RequestSession, tournament_id: TournamentId, version: TrfVersion | None = None
) -> Response:
    """FIDE's report file, for the referee of the tournament's region (as in the API, the
    version as the link chose it)."""
    caller = referee(request, session)
    referee_writes.authorize(caller, referee_writes.stored_federation(session, tournament_id, for_change=False))
    return Response(
        fide_report(session, tournament_id, version).encode("utf-8"),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{report_file_name(tournament_id)}"'},
    )


def _digest(upload: Submitted, tournament_id: int | None) -> str:
    meta = "" if upload.meta is None else repr(upload.meta)
    return request_hash("POST", f"/referee/upload/{tournament_id or ''}", meta, upload.data)


def _store(
    request: Request,
    session: Session,
    caller: Principal,
    upload: Submitted,
    *,
    key: str | None,
    tournament_id: int | None,
    confirm_duplicate: bool = False,
    announcement: str | None = None,
) -> str:
    """Submit (or, with ``tournament_id``, correct) the upload through the same sequence as the
    API's (``zdb.endpoints.referee_writes``); the page to go on to: the tournament's, or the
    review's where the submission waits in review. The idempotency key is made
    when the preview is shown, so that a second click on "submit" (or a reload of the answer)
    stores nothing twice and leads to the same tournament. ``confirm_duplicate``: the referee
    ticked that it is not the stored tournament it resembles."""
    if tournament_id is not None:
        referee_writes.authorize(caller, referee_writes.stored_federation(session, tournament_id, for_change=True))
    referee_writes.authorize(caller, upload.federation)
    answer = referee_writes.store(
        request,
        session,
        caller,
        key=key,
        digest=_digest(upload, tournament_id),
        make=lambda: upload.intake(session, create=True, caller=caller, learn=False, tournament_id=tournament_id),
        correction=tournament_id is not None,
        confirm_duplicate=confirm_duplicate,
        announcement=announcement,
        announcement_place="announcement",
    )
    if answer.status == 202:
        return f"/referee/reviews/{int(answer.body['review'])}"
    return f"/referee/tournaments/{int(answer.body['id'])}"


@router.post("/referee/tournaments/{tournament_id}/withdraw")
def withdraw(
    request: Request,
    session: RequestSession,
    tournament_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
    confirm: Text = "",
) -> Response:
    require_same_origin(request)
    if confirm != "yes":
        raise ValidationError([ValidationProblem("confirm", Message("tick the box to confirm the withdrawal"))])
    referee_writes.withdraw(session, referee(request, session), tournament_id)
    return RedirectResponse(f"/referee/tournaments/{tournament_id}", status_code=303)
