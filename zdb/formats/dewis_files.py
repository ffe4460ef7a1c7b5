"""The older DeWIS files (``php/dewis/verein.php``, ``verband.php``, ``spieler.php``) in each of
their formats, written from plain tables (``client-interfaces.md`` §2).

``format=csv``: ``|``-separated, lines end in CRLF, each table led by its header line (the
player's four blocks one after the other, no empty line between them: clients find a block by
its header's exact text). ``format=json``: the same keys — a list of objects, for a player
``{"spieler", "rang", "mitgliedschaft", "turnier"}`` where the tournament's key for the games
not rated is ``ungewertet``. ``format=xml``: ``<Liste>`` with one element per line under the
same names. ``format=array``: PHP's ``serialize()`` of the JSON's structure.

Values are text in every format, as the PHP scripts handed out the database's columns (an
absent value is an empty text). The XML of a player (``<Liste><spieler/><rang><Eintrag/>…``)
and the names of its elements were not confirmed; they follow the JSON's keys.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from xml.etree import ElementTree

from zdb.formats.dsb_files import CLUB_MEMBERS_HEADER, inert, legacy_cell

__all__ = [
    "MEMBERSHIP_HEADER",
    "PERSON_HEADER",
    "RANK_HEADER",
    "TOURNAMENT_HEADER",
    "DewisFormat",
    "Table",
    "error_text",
    "members_file",
    "person_file",
    "php_serialize",
]

DewisFormat = Literal["csv", "json", "xml", "array"]

PERSON_HEADER = (
    "id",
    "nachname",
    "vorname",
    "titel",
    "dwz",
    "dwzindex",
    "fideid",
    "fideelo",
    "fidetitel",
    "fidenation",
)
RANK_HEADER = ("zpsver", "organisation", "rang", "auswerter")
MEMBERSHIP_HEADER = ("zpsver", "vereinsname", "zpsmgl", "status")
TOURNAMENT_HEADER = (
    "turniercode",
    "turniername",
    "dwzalt",
    "dwzaltindex",
    "punkte",
    "partien",
    "nichtgewertet",
    "erwartungswert",
    "gegner",
    "koeffizient",
    "dwzneu",
    "dwzneuindex",
    "leistung",
)


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]

    def objects(self, renamed: Mapping[str, str] | None = None) -> list[dict[str, str]]:
        names = [(renamed or {}).get(name, name) for name in self.header]
        return [dict(zip(names, row, strict=True)) for row in self.rows]


def _csv(tables: Sequence[Table]) -> str:
    lines = []
    for table in tables:
        lines.append("|".join(table.header))
        lines.extend("|".join(legacy_cell(inert(value)) for value in row) for row in table.rows)
    return "".join(line + "\r\n" for line in lines)


def _xml(root: ElementTree.Element) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _elements(parent: ElementTree.Element, name: str, values: Mapping[str, str]) -> None:
    item = ElementTree.SubElement(parent, name)
    for key, value in values.items():
        ElementTree.SubElement(item, key).text = value


def php_serialize(value: Any) -> str:
    """PHP's ``serialize()`` of text, whole numbers, None, lists and string-keyed maps (a string's
    length is counted in UTF-8 bytes, as PHP counts it)."""
    if value is None:
        return "N;"
    if isinstance(value, bool):
        return f"b:{int(value)};"
    if isinstance(value, int):
        return f"i:{value};"
    if isinstance(value, str):
        return f's:{len(value.encode("utf-8"))}:"{value}";'
    if isinstance(value, Mapping):
        items = "".join(php_serialize(k) + php_serialize(v) for k, v in value.items())
        return f"a:{len(value)}:{{{items}}}"
    if isinstance(value, Sequence):
        items = "".join(php_serialize(i) + php_serialize(v) for i, v in enumerate(value))
        return f"a:{len(value)}:{{{items}}}"
    raise TypeError(f"cannot serialise {type(value).__name__}")


def members_file(rows: Sequence[tuple[str, ...]], form: DewisFormat) -> str:
    """A list of members (``verein.php``, ``verband.php``): 14 columns, one line each."""
    table = Table(CLUB_MEMBERS_HEADER, rows)
    if form == "csv":
        return _csv([table])
    if form == "json":
        return json.dumps(table.objects(), ensure_ascii=False)
    if form == "array":
        return php_serialize(table.objects())
    root = ElementTree.Element("Liste")
    for item in table.objects():
        _elements(root, "Spieler", item)
    return _xml(root)


def person_file(
    person: tuple[str, ...], ranks: Table, memberships: Table, tournaments: Table, form: DewisFormat
) -> str:
    """One player (``spieler.php``): his line, his ranks, his memberships, his tournaments."""
    tables = [Table(PERSON_HEADER, [person]), ranks, memberships, tournaments]
    if form == "csv":
        return _csv(tables)
    line = dict(zip(PERSON_HEADER, person, strict=True))
    blocks = {
        "rang": ranks.objects(),
        "mitgliedschaft": memberships.objects(),
        "turnier": tournaments.objects({"nichtgewertet": "ungewertet"}),
    }
    structure: dict[str, Any] = {"spieler": line, **blocks}
    if form == "json":
        return json.dumps(structure, ensure_ascii=False)
    if form == "array":
        return php_serialize(structure)
    root = ElementTree.Element("Liste")
    _elements(root, "spieler", line)
    for key, items in blocks.items():
        block = ElementTree.SubElement(root, key)
        for item in items:
            _elements(block, "Eintrag", item)
    return _xml(root)


def error_text(message: str) -> str:
    """An error as the DeWIS scripts answer it: a plain text starting with ``Fehler: ``."""
    return f"Fehler: {message}"
