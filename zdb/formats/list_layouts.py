"""The layouts of the three files of a rating-list ZIP, by the names of their columns.

Readers match columns by header name, never by position: the portal's export grew columns in
2026 and will grow more, and older files leave some out. A layout lists its columns in the
published order (what the writers write) with the value each one carries; the reader takes the
layout whose names the header shares most.

- ``portal`` — the 2026 export of the DSB's new rating portal, Windows-1252. ``spieler.csv``
  has 21 columns: the 15 of its first version (``ID`` is the portal's person id ``NU…``,
  ``"Name,Vorname"`` the name as DeWIS wrote it), the three FIDE columns added in 2026
  (``FIDE-Frauentitel``, ``FIDE-Elozahl-Schnellschach``, ``FIDE-Elozahl-Blitz``), the name again
  in ``Vorname`` and ``Nachname``, and ``Titel``. The first twenty are the published names; the
  name of the 21st was not available here and is taken as ``Titel`` (the ``titel`` of the
  DeWIS club file): a reader ignores a column it does not know, so a different 21st name costs
  nothing but that value. The published header quotes ``"Letzte Auswertung"``, which has no
  comma: the portal quotes every field with a comma or a space, so the writer does that too,
  and ends lines in CRLF as Windows exports do. ``vereine.csv`` lists the federations as well
  (codes ending in ``00``).
- ``dewis`` — today's DeWIS layout (``ID,VKZ,Mgl-Nr,…``, ``ID`` the person number) and
  ``dewis-old`` its predecessor (``ZPS,Mgl-Nr,…`` without a person number), as written by
  ``zdb.formats.dsb_files``: LF line ends, quotes only where CSV needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from zdb.formats.dsb_files import Codec

__all__ = ["LAYOUTS", "NAME_COLUMNS", "Layout", "layout", "layouts_of", "normalised"]


@dataclass(frozen=True, slots=True)
class Layout:
    """A layout of one file: ``columns`` are (header name, value key) in the published order;
    ``required`` the header names without which the file cannot be read."""

    name: str
    file: str
    columns: tuple[tuple[str, str], ...]
    required: frozenset[str]
    codec: Codec
    newline: str
    quote_space: bool

    @property
    def header(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.columns)

    def key_of(self, header: str) -> str | None:
        wanted = normalised(header)
        return next((key for name, key in self.columns if normalised(name) == wanted), None)


def normalised(header: str) -> str:
    """A header name as compared: without surrounding blanks, byte-order mark and case."""
    return header.strip().lstrip("\ufeff").strip().casefold()


_PORTAL_BASE = (
    ("ID", "person_id"),
    ("ZPS", "club_code"),
    ("Mitgliedsnummer", "member_no"),
    ("Status", "status"),
    ("Name,Vorname", "full_name"),
    ("Geschlecht", "sex"),
    ("Spielberechtigung", "eligibility"),
    ("Geburtsjahr", "birth_year"),
    ("Letzte Auswertung", "last_evaluation"),
    ("DWZ", "rating"),
    ("Index", "rating_index"),
    ("FIDE-Elozahl", "fide_rating"),
    ("FIDE-Titel", "fide_title"),
    ("FIDE-ID", "fide_id"),
    ("FIDE-Land", "fide_nation"),
)
_PORTAL_2026 = (
    ("FIDE-Frauentitel", "fide_women_title"),
    ("FIDE-Elozahl-Schnellschach", "fide_rapid"),
    ("FIDE-Elozahl-Blitz", "fide_blitz"),
    ("Vorname", "given_name"),
    ("Nachname", "surname"),
    ("Titel", "title"),
)
_DEWIS = (
    ("ID", "person_id"),
    ("VKZ", "club_code"),
    ("Mgl-Nr", "member_no"),
    ("Status", "status"),
    ("Spielername", "full_name"),
    ("Geschlecht", "sex"),
    ("Spielberechtigung", "eligibility"),
    ("Geburtsjahr", "birth_year"),
    ("Letzte-Auswertung", "last_evaluation"),
    ("DWZ", "rating"),
    ("Index", "rating_index"),
    ("FIDE-Elo", "fide_rating"),
    ("FIDE-Titel", "fide_title"),
    ("FIDE-ID", "fide_id"),
    ("FIDE-Land", "fide_nation"),
)
_DEWIS_OLD = (("ZPS", "club_code"), *_DEWIS[2:])

#: the name columns: ``full_name`` ("Surname,Given") or both of the others is enough
NAME_COLUMNS = ("full_name", "surname", "given_name")


def _required(columns: tuple[tuple[str, str], ...]) -> frozenset[str]:
    return frozenset(name for name, key in columns if key not in NAME_COLUMNS)


LAYOUTS: tuple[Layout, ...] = (
    Layout("portal", "spieler.csv", _PORTAL_BASE + _PORTAL_2026, _required(_PORTAL_BASE), "cp1252", "\r\n", True),
    Layout("dewis", "spieler.csv", _DEWIS, _required(_DEWIS), "utf-8", "\n", False),
    Layout("dewis-old", "spieler.csv", _DEWIS_OLD, _required(_DEWIS_OLD), "utf-8", "\n", False),
    Layout(
        "portal",
        "vereine.csv",
        (
            ("ZPS-Nummer", "code"),
            ("Landesverband", "state"),
            ("UebergeordneterVerband", "parent"),
            ("Vereinsname", "name"),
        ),
        frozenset({"ZPS-Nummer", "Landesverband", "UebergeordneterVerband", "Vereinsname"}),
        "cp1252",
        "\r\n",
        True,
    ),
    Layout(
        "dewis",
        "vereine.csv",
        (("ZPS", "code"), ("LV", "state"), ("Verband", "parent"), ("Vereinname", "name")),
        frozenset({"ZPS", "LV", "Verband", "Vereinname"}),
        "utf-8",
        "\n",
        False,
    ),
    Layout(
        "portal",
        "verbaende.csv",
        (
            ("Verbandnummer", "code"),
            ("Landesverband", "state"),
            ("UebergeordneterVerband", "parent"),
            ("Verbandname", "name"),
        ),
        frozenset({"Verbandnummer", "Landesverband", "UebergeordneterVerband", "Verbandname"}),
        "cp1252",
        "\r\n",
        True,
    ),
    Layout(
        "dewis",
        "verbaende.csv",
        (("Verband", "code"), ("LV", "state"), ("Uebergeordnet", "parent"), ("Verbandname", "name")),
        frozenset({"Verband", "LV", "Uebergeordnet", "Verbandname"}),
        "utf-8",
        "\n",
        False,
    ),
)


def layouts_of(file: str) -> tuple[Layout, ...]:
    return tuple(layout for layout in LAYOUTS if layout.file == file)


def layout(file: str, name: str) -> Layout:
    """The layout ``name`` of ``file``; ``KeyError`` for one that does not exist."""
    for candidate in layouts_of(file):
        if candidate.name == name:
            return candidate
    raise KeyError(f"{file} has no layout {name!r}")
