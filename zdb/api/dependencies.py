"""What a request depends on: its unit of work, the caller, the page asked for.

The session is one unit of work per request (``zdb.db.unit_of_work``): committed once, when the
endpoint has finished and before the response is sent, so that a client never sees a success
for a write that was not committed; a recalculation requested by the write is dispatched only
after that commit. An error rolls everything back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Path, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from zdb.api.pagination import PageParams, page_params
from zdb.auth.errors import AuthenticationError
from zdb.auth.principal import PUBLIC, Principal
from zdb.auth.service import authenticate
from zdb.db import unit_of_work

__all__ = ["Caller", "Paging", "RequestSession", "get_principal", "get_session"]

_bearer = HTTPBearer(
    auto_error=False,
    description="An API token from `zdb token create`. Without one, public data is answered.",
)


def get_session(request: Request) -> Iterator[Session]:
    with unit_of_work(request.app.state.engine) as session:
        yield session


RequestSession = Annotated[Session, Depends(get_session, scope="function")]


def get_principal(
    request: Request,
    session: RequestSession,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
) -> Principal:
    if "authorization" not in request.headers:
        return PUBLIC
    if credentials is None or not credentials.credentials:
        raise AuthenticationError("the Authorization header must read 'Bearer <token>'")
    return authenticate(session, credentials.credentials)


Caller = Annotated[Principal, Depends(get_principal)]
Paging = Annotated[PageParams, Depends(page_params)]


#: The largest values the database's columns hold: larger ones are refused as invalid input
#: (422), never passed on to the database (where they would be a 500).
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

TournamentId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the tournament's id (kept across corrections)")]
PersonNumber = Annotated[int, Path(ge=1, le=INT64_MAX, description="person number (PKZ)")]
