"""Keeping the catalogues in step with the pages: every text marked for translation in the
templates and the page code, the ``Message("...")`` templates of the problems the reader and the
tournament checks report (shown on the referee's pages) and of the refusals of the services the
pages write through (the rating office's, shown on the staff pages), and ``python -m
zdb.web.catalogue`` to add the new ones to each catalogue (keeping what is translated) and drop
those no page uses any more.

A test checks that every text has a translation, so a page never shows an English text in
German by accident.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from zdb.web.i18n import LANGUAGES, catalogue_path

__all__ = ["extract_messages", "update_catalogues"]

_ROOT = Path(__file__).parent
_PACKAGE = _ROOT.parent
#: the packages whose problem texts and refusals the pages show: their ``Message("...")`` templates
_MESSAGE_SOURCES = (
    "formats/trf",
    "formats/swt",
    "submissions",
    "tournaments",
    "lists",
    "office",
    "players",
    "federations",
    "fees",
    "fide",
    "editions",
    "auth",
    "endpoints",
    "reviews",
    "complaints",
    "notifications",
)
_METHODS = [("templates/**.html", "jinja2.ext:babel_extract"), ("**.py", "python")]
_OPTIONS = {
    "templates/**.html": {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"},
    "**.py": {},
}
#: the page code marks texts with ``translate(request, text)``, ``mark(text)`` and ``Message(text, ...)``
_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "translate": (2,), "mark": None, "Message": (1,)}
#: a list's problem is made in the pure reader as ``Problem.of(file, line, column, template)``
#: or from a bad value's ``_BadValueError(template)`` (``zdb.lists.problem_texts`` makes it a Message)
_MESSAGE_KEYWORDS = {"Message": (1,), "of": (4,), "_BadValueError": (1,), "FideReadError": (1,)}
#: the pure readers of the federation's list and of FIDE's, whose problems the staff's list page
#: shows (a FIDE value's problem is raised as ``FideReadError(template)``)
_PROBLEM_SOURCES = ("formats/list_reader.py", "formats/fide_list.py", "formats/fide_txt.py", "formats/fide_xml.py")


def extract_messages() -> Catalog:
    catalogue = Catalog(project="zdb", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        _ROOT, _METHODS, _OPTIONS, keywords=_KEYWORDS, strip_comment_tags=True
    ):
        catalogue.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for source in _MESSAGE_SOURCES:
        found = extract_from_dir(_PACKAGE / source, [("**.py", "python")], keywords=_MESSAGE_KEYWORDS)
        for filename, lineno, message, comments, context in found:
            catalogue.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for source in _PROBLEM_SOURCES:
        for lineno, message, comments, context in extract_from_file("python", _PACKAGE / source, _MESSAGE_KEYWORDS):
            catalogue.add(message, None, [(source, lineno)], auto_comments=comments, context=context)
    return catalogue


def update_catalogues() -> None:
    template = extract_messages()
    for language in LANGUAGES:
        if language == "en":
            continue
        path = catalogue_path(language)
        with path.open("rb") as handle:
            catalogue = read_po(handle, locale=language)
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.obsolete.clear()
        with path.open("wb") as handle:
            write_po(handle, catalogue, width=120, omit_header=False, sort_output=True)


if __name__ == "__main__":
    update_catalogues()
