"""The language switch: a link that keeps the choice in a cookie and returns to the page."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query
from fastapi.responses import RedirectResponse

from zdb.errors import NotFoundError
from zdb.messages import Message
from zdb.web.i18n import LANGUAGE_COOKIE, LANGUAGES
from zdb.web.routes.router import page_router

__all__ = ["local_path", "router"]

router = page_router()

ONE_YEAR = 365 * 24 * 3600


def local_path(target: str) -> str:
    """Only a path of this site: never an address elsewhere (an open redirect)."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


@router.get("/language/{language}")
def switch_language(
    language: Annotated[str, Path(max_length=5)],
    next_page: Annotated[str, Query(alias="next", max_length=2000)] = "/",
) -> RedirectResponse:
    if language not in LANGUAGES:
        raise NotFoundError(Message("no language {language!r}", language=language))
    response = RedirectResponse(local_path(next_page), status_code=303)
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=ONE_YEAR, httponly=True, samesite="lax")
    return response
