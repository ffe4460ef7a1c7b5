"""The referee's sign-in on the pages: his API token is checked once, at sign-in, with the API's
own ``authenticate``; the browser then keeps only a server-side session's id
(``zdb.auth.web_sessions``) in an HttpOnly cookie (never readable by scripts, sent to this site
only: SameSite=Strict), never the token. A form posted from another site is refused."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlparse

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response

from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.auth.web_sessions import end_session, session_principal, start_session
from zdb.messages import Message

__all__ = ["SESSION_COOKIE", "referee", "require_same_origin", "sign_out", "signed_in", "start"]

SESSION_COOKIE = "zdb_session"


def signed_in(request: Request, session: Session) -> Principal | None:
    """The caller of the cookie's session; None without one, or when it expired, was ended or
    its token was revoked."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if not session_id:
        return None
    return session_principal(session, session_id)


def referee(request: Request, session: Session) -> Principal:
    """The signed-in referee (or admin): ``AuthenticationError`` sends the user to the sign-in."""
    caller = signed_in(request, session)
    if caller is None:
        raise AuthenticationError("please sign in with your token")
    caller.require("admin", "referee")
    return caller


def require_same_origin(request: Request) -> None:
    """A state-changing form post must name this site as its sender (besides the SameSite cookie).

    The ``Origin`` decides when the browser sends one; a browser that sends none, or ``null``
    (a privacy setting, a redirect across sites), must send a ``Referer`` of this site instead.
    A post that names no sender at all is refused too: a rating officer's browser always names
    one, a forged post from a sandboxed frame or a script names none."""
    host = request.headers.get("host")
    origin = request.headers.get("origin")
    if origin and origin != "null":
        if urlparse(origin).netloc != host:
            raise PermissionDeniedError(Message("this form was sent from another site"))
        return
    referer = request.headers.get("referer")
    if not referer or urlparse(referer).netloc != host:
        raise PermissionDeniedError(Message("this form does not say that it was sent from this site"))


def start(request: Request, response: Response, session: Session, caller: Principal) -> None:
    """A new session for the signed-in caller, its id in the cookie; the cookie and the row
    expire together (``web_session_hours``)."""
    lifetime = timedelta(hours=request.app.state.settings.web_session_hours)
    session_id = start_session(session, caller, lifetime)
    response.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=int(lifetime.total_seconds()),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )


def sign_out(request: Request, response: Response, session: Session) -> None:
    """The session's row is deleted (its id opens nothing, even if the cookie was copied), and
    the cookie with it."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        end_session(session, session_id)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
