"""The staff's page of the rating portal's clients: the clients that take tokens from the
portal's token endpoint (``/dsbwertungsportal/rs/auth/token``), a form to create one (its
secret shown once, on the answer to the form, never again) and a button to revoke one. For a
signed-in admin; each change audited by ``zdb.auth.portal_tokens``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from zdb.auth.portal_tokens import SCOPES, create_client, list_clients, revoke_client
from zdb.endpoints.dependencies import RequestSession
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import Text, admin, back_to

__all__ = ["router"]

router = page_router()

DONE = {"revoked": mark("Saved: the client is revoked.")}


def _page(request: Request, session: RequestSession, **context: Any) -> HTMLResponse:
    return render(request, "staff_portal_clients.html", {"clients": list_clients(session), "scopes": SCOPES, **context})


@router.get("/staff/portal-clients", response_class=HTMLResponse)
def clients_page(
    request: Request, session: RequestSession, done: Annotated[Literal["revoked"] | None, Query()] = None
) -> HTMLResponse:
    admin(request, session)
    return _page(request, session, done=None if done is None else DONE[done])


@router.post("/staff/portal-clients", response_class=HTMLResponse)
def new_client(
    request: Request,
    session: RequestSession,
    *,
    client_id: Annotated[str, Form(max_length=100)],
    scope: Annotated[list[str], Form()],
    vkz: Text = "",
    label: Text = "",
) -> HTMLResponse:
    require_same_origin(request)
    admin(request, session)
    made = create_client(session, client_id.strip(), scope, vkz.strip() or None, label.strip())
    # The secret is shown on this answer only (no redirect that would carry it in an address).
    return _page(request, session, created=made.client, secret=made.secret)


@router.post("/staff/portal-clients/{client_id}/revocation")
def revoke(request: Request, session: RequestSession, client_id: str) -> RedirectResponse:
    require_same_origin(request)
    admin(request, session)
    revoke_client(session, client_id)
    return back_to("/staff/portal-clients", "revoked")
