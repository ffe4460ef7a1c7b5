"""The portal door's token endpoint (``POST …/rs/auth/token``, OAuth2 client credentials and
refresh tokens), form-encoded as the portal takes it; ``zdb.auth.portal_tokens`` decides.

A refusal is answered here, not raised: the request's unit of work then commits its audit
entry (a refusal writes nothing else). A wrong secret is a 401, which the rate limits count as
a failed sign-in of the client's address (``zdb.api.rate_limits``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import JSONResponse

from zdb.auth.portal_tokens import PortalTokenError, issue_token
from zdb.endpoints.dependencies import RequestSession
from zdb.portal.route import PortalRoute, portal_error

__all__ = ["router"]

router = APIRouter(prefix="/auth", route_class=PortalRoute, include_in_schema=False)

Field = Annotated[str, Form(max_length=4096)]
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@router.post("/token")
def token(
    *,
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
        return portal_error(refused.status, refused.error, refused.description, _NO_STORE)
    body = {"access_token": issued.access_token, "refresh_token": issued.refresh_token, "expires_in": issued.expires_in}
    return JSONResponse({**body, "token_type": "bearer", "scope": scope}, headers=_NO_STORE)
