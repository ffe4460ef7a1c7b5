"""The pages' languages: German by default, English on request.

Texts are gettext catalogues (``locale/<language>/LC_MESSAGES/messages.po``), never strings
spread through the templates: the templates and the page code write English message ids, and
the German catalogue translates them. The ``.po`` file is compiled in memory when first needed
(Babel), so that no binary ``.mo`` file has to be kept in step with it. English needs no
catalogue: its texts are the message ids themselves.

The language is chosen by ``?lang=`` on any page, else by the cookie the language switch sets,
else German.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from starlette.requests import Request

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_COOKIE",
    "catalogue_path",
    "language_of",
    "mark",
    "translations",
]

DEFAULT_LANGUAGE = "de"
#: every language of the pages, with its own name for the switch
LANGUAGES = {"de": "Deutsch", "en": "English"}
LANGUAGE_COOKIE = "zdb_lang"
_LOCALE = Path(__file__).parent / "locale"


def mark(message: str) -> str:
    """Marks a text for the catalogue where it is defined; it is translated where it is shown."""
    return message


def catalogue_path(language: str) -> Path:
    return _LOCALE / language / "LC_MESSAGES" / "messages.po"


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of ``language``; English (the message ids) has none."""
    if language == "en":
        return gettext.NullTranslations()
    with catalogue_path(language).open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def language_of(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    kept = request.cookies.get(LANGUAGE_COOKIE)
    if kept in LANGUAGES:
        return kept
    return DEFAULT_LANGUAGE
