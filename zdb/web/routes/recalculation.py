"""The recalculation's status: idle, running (with its progress) or pending; the last run and
what it changed."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from zdb.endpoints.dependencies import RequestSession
from zdb.ratings.impact_queries import runs
from zdb.ratings.status_queries import recalc_status
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()


@router.get("/recalculation", response_class=HTMLResponse)
def recalculation_page(request: Request, session: RequestSession) -> HTMLResponse:
    status = recalc_status(session)
    percent = None
    if status.progress is not None and status.progress.total:
        percent = round(100 * status.progress.done / status.progress.total)
    last, _ = runs(session, limit=1, offset=0)
    impact = last[0] if last else None
    return render(request, "recalculation.html", {"status": status, "percent": percent, "impact": impact})
