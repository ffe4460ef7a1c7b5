"""The referee's sign-in on the pages: his API token, kept in an HttpOnly cookie (never
readable by scripts, sent to this site only: SameSite=Strict), checked on every request with
the API's own ``authenticate``; a form posted from another site is refused."""

from __future__ import annotations

from urllib.parse import urlparse

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response

from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.auth.service import authenticate

__all__ = ["TOKEN_COOKIE", "forget_token", "keep_token", "referee", "require_same_origin", "signed_in"]

TOKEN_COOKIE = "zdb_token"
#: a sign-in lasts a working day
SIGN_IN_SECONDS = 10 * 3600


def signed_in(request: Request, session: Session) -> Principal | None:
    """The caller of the cookie's token; None without one or with one no longer valid."""
    secret = request.cookies.get(TOKEN_COOKIE)
    if not secret:
        return None
    try:
        return authenticate(session, secret)
    except AuthenticationError:
        return None


def referee(request: Request, session: Session) -> Principal:
    """The signed-in referee (or admin): ``AuthenticationError`` sends the user to the sign-in."""
    caller = signed_in(request, session)
    if caller is None:
        raise AuthenticationError("please sign in with your token")
    caller.require("admin", "referee")
    return caller


def require_same_origin(request: Request) -> None:
    """A form posted from another site is refused (besides the SameSite cookie)."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlparse(origin).netloc != request.headers.get("host"):
        raise PermissionDeniedError("this form was sent from another site")


def keep_token(request: Request, response: Response, secret: str) -> None:
    response.set_cookie(
        TOKEN_COOKIE,
        secret,
        max_age=SIGN_IN_SECONDS,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )


def forget_token(response: Response) -> None:
    response.delete_cookie(TOKEN_COOKIE, path="/", httponly=True, samesite="strict")
