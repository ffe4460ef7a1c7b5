"""Who may call a path of the portal door: a Bearer access token from the token endpoint
(``zdb.auth.portal_tokens``) with the path's scope.

``/dwz/tournaments…`` and ``/dwz/persons/{id}/history`` need ``dsb_tournament``. The rating
list's paths (``/dwz/dwzliste/…``, scope ``dwz_liste``) need a token only where the setting
``portal_list_token`` says so: the real service answered them without one in 2026, so ZDB does
by default. Where no token is needed, a valid one still limits a club's client to its ``vkz``;
an invalid one is ignored there, as a path that needs no token does not look at it.

A club's client (``vkz`` set) sees only its own club-code prefix in the lists: a list asked for
without ``vkz`` is limited to it, one asked for another prefix is refused (403).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, Request

from zdb.auth.portal_tokens import PortalAccess, access_of
from zdb.endpoints.dependencies import RequestSession
from zdb.portal.route import PortalError

__all__ = ["ListAccess", "TournamentAccess", "limited_vkz"]

_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="dsbwertungsportal"'}


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    kind, _, token = header.partition(" ")
    return token.strip() if kind.lower() == "bearer" and token.strip() else ""


def _access(request: Request, session: RequestSession, scope: str, required: bool) -> PortalAccess | None:
    token = _bearer(request)
    found = None if not token else access_of(session, token, datetime.now(UTC))
    if not required:
        return found
    if token is None:
        raise PortalError(401, "unauthorized", "Full authentication is required to access this resource", _CHALLENGE)
    if found is None:
        raise PortalError(401, "invalid_token", "Invalid access token", _CHALLENGE)
    if scope not in found.scopes:
        raise PortalError(403, "insufficient_scope", "Insufficient scope for this resource")
    return found


def _tournament_access(request: Request, session: RequestSession) -> PortalAccess | None:
    return _access(request, session, "dsb_tournament", required=True)


def _list_access(request: Request, session: RequestSession) -> PortalAccess | None:
    return _access(request, session, "dwz_liste", required=request.app.state.settings.portal_list_token)


TournamentAccess = Annotated[PortalAccess | None, Depends(_tournament_access)]
ListAccess = Annotated[PortalAccess | None, Depends(_list_access)]


def limited_vkz(access: PortalAccess | None, vkz: str | None) -> str | None:
    """The club-code prefix a list is read for: the one asked for, within the client's own."""
    own = None if access is None else access.vkz
    if own is None:
        return vkz
    if not vkz or vkz.startswith(own):
        return vkz or own
    if own.startswith(vkz):
        return own
    raise PortalError(403, "access_denied", f"vkz {vkz}: this client may read {own} only")
