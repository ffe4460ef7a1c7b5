"""Templates to HTML responses: one Jinja2 environment with the i18n extension, and the
context every page gets (its language, the catalogue's gettext, the language switch).

The catalogue's functions are handed to each render as context variables, not installed in
the environment, so that requests in different languages never share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import HTMLResponse

from zdb.web.formatting import format_day, format_moment, format_number, signed
from zdb.web.i18n import LANGUAGES, language_of, translations

__all__ = ["environment", "render", "translate"]

environment = Environment(
    loader=PackageLoader("zdb.web", "templates"),
    autoescape=select_autoescape(default=True),
    extensions=["jinja2.ext.i18n"],
    trim_blocks=True,
    lstrip_blocks=True,
)


@pass_context
def _number(context: Context, value: float | None, digits: int = 0) -> str:
    return format_number(value, digits, context["lang"])


@pass_context
def _day(context: Context, value: date | None) -> str:
    return format_day(value, context["lang"])


@pass_context
def _moment(context: Context, value: datetime | None) -> str:
    return format_moment(value, context["lang"])


environment.filters["number"] = _number
environment.filters["day"] = _day
environment.filters["moment"] = _moment
environment.filters["signed"] = signed


def translate(request: Request, message: str) -> str:
    """``message`` in the request's language (for texts made in Python)."""
    return translations(language_of(request)).gettext(message)


def _switch_links(request: Request) -> dict[str, str]:
    """For each language, the address of the language switch that comes back to this page."""
    here = request.url.path
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    if query and request.method == "GET":
        here += "?" + urlencode(query)
    return {code: f"/language/{code}?" + urlencode({"next": here}) for code in LANGUAGES}


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    *,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    language = language_of(request)
    catalogue = translations(language)
    values = {
        "request": request,
        "lang": language,
        "languages": LANGUAGES,
        "switch": _switch_links(request),
        "gettext": catalogue.gettext,
        "ngettext": catalogue.ngettext,
        **context,
    }
    html = environment.get_template(template).render(values)
    return HTMLResponse(html, status_code=status, headers=dict(headers or {}))
