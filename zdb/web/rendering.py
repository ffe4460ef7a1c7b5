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

from zdb.messages import Message
from zdb.web.formatting import format_count, format_day, format_moment, format_number, signed
from zdb.web.i18n import LANGUAGES, language_of, mark, translations
from zdb.web.words import word

__all__ = ["environment", "render", "translate", "translate_message"]

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


@pass_context
def _count(context: Context, value: int | None) -> str:
    return format_count(value, context["lang"])


environment.filters["number"] = _number
environment.filters["count"] = _count
environment.filters["day"] = _day
environment.filters["moment"] = _moment
environment.filters["signed"] = signed


@pass_context
def _in_language(context: Context, text: Message | str) -> str:
    """A problem's text in the page's language (a plain text is shown as it is)."""
    return text.translated(context["gettext"]) if isinstance(text, Message) else text


environment.filters["in_language"] = _in_language


@pass_context
def _word(context: Context, code: str | None) -> str:
    """The word for a code of the rating data (``zdb.web.words``) in the page's language."""
    return word(code, context["gettext"])


environment.filters["word"] = _word

#: places a problem names besides fields and lines; the pages show them in their language
PLACES = (mark("file"), mark("record 052 (end date)"), mark("record 122 (time control)"))


def translate(request: Request, message: str) -> str:
    """``message`` in the request's language (for texts made in Python)."""
    return translations(language_of(request)).gettext(message)


def translate_message(request: Request, message: Message | str) -> str:
    """A ``Message`` (or a plain text, shown as it is) in the request's language."""
    if isinstance(message, Message):
        return message.translated(translations(language_of(request)).gettext)
    return message


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
