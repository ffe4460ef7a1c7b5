"""The portal door's token endpoint (``POST …/rs/auth/token``, OAuth2 client credentials and
refresh tokens), form-encoded as the portal takes it; ``zdb.auth.portal_tokens`` decides.

A refusal is answered here, not raised: the request's unit of work then commits its audit
entry (a refusal writes nothing else). A wrong secret is a 401 counted as a failed sign-in of
that client id from that address, and of the address where the id names no client
(``zdb.endpoints.failed_sign_ins``); the failure over the limit is answered 429 with
``Retry-After`` instead. A right secret is never refused for others' failures.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import JSONResponse

from zdb.auth.portal_tokens import PortalTokenError, issue_token
from zdb.endpoints.dependencies import RequestSession
from zdb.endpoints.failed_sign_ins import FailedSignIns
from zdb.portal.route import PortalRoute, portal_error

__all__ = ["router"]

router = APIRouter(prefix="/auth", route_class=PortalRoute, include_in_schema=False)

Field = Annotated[str, Form(max_length=4096)]
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@router.post("/token")
def token(
    *,
    request: Request,
    session: RequestSession,
    grant_type: Field = "",
    client_id: Field = "",
    client_secret: Field = "",
    scope: Field = "",
    refresh_token: Field = "",
) -> JSONResponse:
    try:
        issued = issue_token(
            session,
            grant_type=grant_type,
            client_id=client_id,
            client_secret=client_secret,
            scope=scope,
            refresh_token=refresh_token or None,
            now=datetime.now(UTC),
        )
    except PortalTokenError as refused:
        if refused.status == 401 and (wait := _over_the_limit(request, client_id, known=refused.known_client)):
            description = f"Too many failed sign-ins; try again in {wait} s"
            return portal_error(429, "too_many_requests", description, {**_NO_STORE, "Retry-After": str(wait)})
        return portal_error(refused.status, refused.error, refused.description, _NO_STORE)
    body = {"access_token": issued.access_token, "refresh_token": issued.refresh_token, "expires_in": issued.expires_in}
    return JSONResponse({**body, "token_type": "bearer", "scope": scope}, headers=_NO_STORE)


def _over_the_limit(request: Request, client_id: str, *, known: bool) -> int:
    """Count a wrong client secret as a failed sign-in; the seconds to wait when this failure is
    over the limit, else 0."""
    failures: FailedSignIns | None = getattr(request.app.state, "failed_sign_ins", None)
    if failures is None:
        return 0
    address = request.client.host if request.client else "unknown"
    credential = f"portal-client:{client_id}"
    if failures.count_failed_sign_in(address, credential, known=known):
        return 0
    return failures.retry_after(address, credential, known=known)
