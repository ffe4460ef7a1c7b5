"""The federation's established files for club software, written from plain rows.

Club software has parsed the DSB's files for two decades; what it reads must look exactly like
them, byte for byte where parsers compare bytes. Nothing here touches the database: the rows
come from ``zdb.ratings.list_queries``, so the layouts can be tested on their own.

The rating-list ZIP (the DSB's ``LV-<x>-csv.zip``): three comma-separated files.

``spieler.csv`` — ``ID,VKZ,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,
Letzte-Auswertung,DWZ,Index,FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land``. This is the current
header: recent versions of the Chess League Manager (github.com/ChessLeagueManager/com_clm,
CLM Team 2008–2025: ``site/clm/js/dsb_import.js`` and ``site/clm/api/db_dsb_player.php``)
recognise it as the second version of the file beside the older ``ZPS,Mgl-Nr,Status,…`` one
(the same columns without ``ID``, the person number, and with ``ZPS`` for the club code), and
read its 15 fields in this order; other parsers of the DeWIS data name the same header. CLM compares the header
line with exactly this text after splitting the file at ``\\n``, so the header is not quoted
and lines end in LF (a CR would break that comparison).

``vereine.csv`` — ``ZPS,LV,Verband,Vereinname``; ``verbaende.csv`` —
``Verband,LV,Uebergeordnet,Verbandname`` (CLM ``db_dsb_club.php`` and ``dsb_import.js``;
``DSBZIPFileDataTransformer.java`` in github.com/spinetrak/enpassant reads all three files of
the DSB's ZIP with these columns). No newer header of these two files was found; they are kept.
A federation's code is the DSB's three characters: its club-code prefix filled with ``0``
(``""`` → ``000``, ``"C"`` → ``C00``, ``"C03"`` → ``C03``; a four-character prefix is written
whole), ``LV`` its first character (``0`` for the DSB). The DSB itself has no row: it appears as
``000`` in ``Uebergeordnet``, as in the DSB's files.

Values as the DSB writes them (sample rows of the older layout in the test data of the
Tournoire tournament program, and the parsers above): ``Spielername`` is ``Surname,Given``
without a space (so it is quoted); ``Letzte-Auswertung`` the year and week of the end of the
last evaluated tournament, ``YYYYWW`` (``200715``; enpassant reads it with the pattern
``YYYYww``: ISO weeks here, as the JSON club list's year-week); ``Mgl-Nr`` has at least three
digits, zero-filled (CLM's ``player_dewis_to_clm`` pads DeWIS numbers so); an absent value is
an empty field, never ``0`` (CLM reads ``0`` as "no rating" too). ``Status`` is written ``A``
(active) or ``P`` (passive): the sample rows leave active members blank and CLM turns a blank
DeWIS state into ``A``; every parser found tests only for ``P``, so ``A`` reads the same.
``Geschlecht`` is ``M`` or ``W`` (weiblich), ``D`` for diverse: no official definition was
found; these are the German letters the federation's data uses. ``FIDE-Land`` is the player's
nation, written also without a FIDE id.

The club CSV in the legacy ``|`` layout (DeWIS ``verein.php?zps=…&format=csv``):
``id|nachname|vorname|titel|verein|mglnr|status|dwz|dwzindex|turniercode|turnierende|fideid|
fideelo|fidetitel`` — 14 fields, no quoting, CRLF line ends (the contao-dewis-bundle's
re-implementation of that interface, github.com/Samson1964/contao-dewis-bundle
``src/Resources/public/api.php``; scripts in several repositories split the lines at ``|`` and
require exactly 14 fields; enpassant reads it as cp1252 with ``|`` as delimiter). A ``|`` or a
line break inside a value would break every such parser: it is written as ``/`` or a space.
``turniercode`` is this database's id of the tournament (DeWIS writes its own tournament code,
which this database does not have) and ``turnierende`` its end date as ``YYYY-MM-DD`` (no
definition found; ISO, which sorts as text, as the TYPO3 dwzlist extension relies on).

Not kept in this database, written empty: ``Spielberechtigung`` (the eligibility is a fact of
the member administration, not of the rating database), ``FIDE-Elo`` / ``fideelo`` and
``FIDE-Titel`` / ``fidetitel`` (no FIDE list is imported; a tournament's FIDE figure is not a
current rating), ``titel``. Birth dates are never written; the birth year is public.

Encodings: UTF-8 (no byte-order mark: it would break the header comparison) by default;
``cp1252`` or ``latin-1`` on request, as the legacy files are. A character the legacy encoding
cannot represent never fails the file and is never dropped silently: it is transliterated —
its accents removed (``č`` → ``c``, ``ő`` → ``o``; ``ä`` stays ``ä``, which Latin-1 has), a few
letters spelled out (``ł`` → ``l``, ``đ`` → ``d``, ``œ`` → ``oe``), anything else becomes
``?`` — and the number of characters so written is reported (``Written.transliterated``).
Values are transliterated before the CSV is assembled, so a replacement can never add a
delimiter.

A value that a spreadsheet would take for a formula (one starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return: a name typed so by someone who wants a club's treasurer to
run it) is written with a leading apostrophe in every file, so that it is shown as text.

Reading these files, and the layout of the DSB's new rating portal (2026), is the work of
``zdb.formats.list_reader`` and ``zdb.formats.list_writer``, which write every layout from what
they read, byte for byte; ``zdb.formats.portal_files`` writes the portal's layout from the same
rows as this module.
"""

from __future__ import annotations

import csv
import io
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

__all__ = [
    "CLUB_MEMBERS_HEADER",
    "SPIELER_HEADER",
    "VERBAENDE_HEADER",
    "VEREINE_HEADER",
    "ClubRow",
    "Codec",
    "FederationRow",
    "Fitter",
    "MemberRow",
    "Written",
    "club_member_values",
    "club_members_csv",
    "codec_of",
    "federation_code",
    "inert",
    "legacy_cell",
    "rating_list_zip",
    "spieler_csv",
    "stable_zip",
    "state_code",
    "verbaende_csv",
    "vereine_csv",
    "year_week",
]

SPIELER_HEADER = (
    "ID",
    "VKZ",
    "Mgl-Nr",
    "Status",
    "Spielername",
    "Geschlecht",
    "Spielberechtigung",
    "Geburtsjahr",
    "Letzte-Auswertung",
    "DWZ",
    "Index",
    "FIDE-Elo",
    "FIDE-Titel",
    "FIDE-ID",
    "FIDE-Land",
)
VEREINE_HEADER = ("ZPS", "LV", "Verband", "Vereinname")
VERBAENDE_HEADER = ("Verband", "LV", "Uebergeordnet", "Verbandname")
CLUB_MEMBERS_HEADER = (
    "id",
    "nachname",
    "vorname",
    "titel",
    "verein",
    "mglnr",
    "status",
    "dwz",
    "dwzindex",
    "turniercode",
    "turnierende",
    "fideid",
    "fideelo",
    "fidetitel",
)

#: the Python codecs of the encodings offered
Codec = Literal["utf-8", "cp1252", "latin-1"]

_ALIASES: dict[str, Codec] = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "cp1252": "cp1252",
    "windows-1252": "cp1252",
    "latin-1": "latin-1",
    "latin1": "latin-1",
    "iso-8859-1": "latin-1",
}

#: letters without a decomposition, spelled in Latin letters
_SPELLED = {
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ø": "o",
    "Ø": "O",
    "ı": "i",
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "þ": "th",
    "Þ": "Th",
    "ð": "d",
    "Ð": "D",
    "ħ": "h",
    "Ħ": "H",
    "ŧ": "t",
    "Ŧ": "T",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "‚": ",",
    "“": '"',
    "”": '"',
    "„": '"',
    "…": "...",
}

_SEX = {"M": "M", "F": "W", "D": "D"}
_STATUS = {"active": "A", "passive": "P"}


def codec_of(name: str) -> Codec:
    """The codec of an encoding's name (``utf-8``, ``cp1252``/``windows-1252``,
    ``latin-1``/``latin1``/``iso-8859-1``, any case); ``ValueError`` for any other."""
    try:
        return _ALIASES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown encoding {name!r}; one of {', '.join(sorted(_ALIASES))}") from None


@dataclass(frozen=True)
class MemberRow:
    """One current membership of a player with his public rating data: a line of
    ``spieler.csv`` and of the club CSV."""

    pkz: int
    club_code: str
    member_no: int | None
    status: str  # "active" or "passive"
    surname: str
    given_name: str
    sex: str | None  # "M", "F", "D"
    birth_year: int | None
    rating: int | None
    rating_index: int | None
    last_evaluation: date | None  # end date of the last evaluated tournament
    last_tournament_id: int | None
    fide_id: int | None
    fide_nation: str | None
    eligibility: str | None = None
    fide_rating: int | None = None
    fide_title: str | None = None
    title: str | None = None
    #: the id the person had in an imported list (the portal's ``NU…``), for the portal's layout
    external_id: str | None = None
    fide_women_title: str | None = None
    fide_rapid: int | None = None
    fide_blitz: int | None = None


@dataclass(frozen=True)
class ClubRow:
    code: str
    name: str
    federation_prefix: str


@dataclass(frozen=True)
class FederationRow:
    prefix: str
    name: str
    parent_prefix: str | None


@dataclass(frozen=True)
class Written:
    """An encoded file and how many characters had to be transliterated for its encoding."""

    data: bytes
    transliterated: int


def year_week(day: date | None) -> str:
    """``YYYYWW`` of the ISO week of ``day``, as in ``Letzte-Auswertung``; empty for none."""
    if day is None:
        return ""
    year, week, _ = day.isocalendar()
    return f"{year}{week:02d}"


def federation_code(prefix: str) -> str:
    """The DSB's three-character code of a federation: its prefix filled with ``0``."""
    return prefix.ljust(3, "0")


def state_code(prefix: str) -> str:
    """The ``LV`` of a federation or club code: its first character (``0`` for the DSB)."""
    return prefix[:1] or "0"


class Fitter:
    """Makes text representable in one codec, counting the characters it had to replace."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.replaced = 0

    def _fits(self, text: str) -> bool:
        try:
            text.encode(self.codec)
        except UnicodeEncodeError:
            return False
        return True

    def _char(self, char: str) -> str:
        spelled = _SPELLED.get(char)
        if spelled is not None and self._fits(spelled):
            return spelled
        stripped = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        if stripped and self._fits(stripped):
            return stripped
        return "?"

    def __call__(self, text: str) -> str:
        if self.codec == "utf-8" or self._fits(text):
            return text
        out = []
        for char in text:
            if self._fits(char):
                out.append(char)
            else:
                self.replaced += 1
                out.append(self._char(char))
        return "".join(out)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _member_no(number: int | None) -> str:
    return "" if number is None else f"{number:03d}"


def _index(row: MemberRow) -> str:
    return "" if row.rating is None else _text(row.rating_index)


#: what a spreadsheet takes for the start of a formula (CSV injection): such a cell is prefixed
#: with an apostrophe, so that a name like ``=HYPERLINK(…)`` is shown as text, never run
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: str) -> str:
    """``value`` as a spreadsheet shows it as text: a leading formula character neutralised."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def _csv(header: Sequence[str], rows: Iterable[Sequence[str]], fit: Fitter) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    # a carriage return would end the line for many readers, quoted or not (the writer does not
    # quote it): it becomes a space, as in the legacy layout
    writer.writerows([inert(fit(value)).replace("\r\n", " ").replace("\r", " ") for value in row] for row in rows)
    return buffer.getvalue().encode(fit.codec)


def _spieler(rows: Iterable[MemberRow], fit: Fitter) -> bytes:
    lines = (
        (
            _text(r.pkz),
            r.club_code,
            _member_no(r.member_no),
            _STATUS.get(r.status, ""),
            f"{r.surname},{r.given_name}",
            _SEX.get(r.sex or "", ""),
            _text(r.eligibility),
            _text(r.birth_year),
            year_week(r.last_evaluation),
            _text(r.rating),
            _index(r),
            _text(r.fide_rating),
            _text(r.fide_title),
            _text(r.fide_id),
            _text(r.fide_nation),
        )
        for r in rows
    )
    return _csv(SPIELER_HEADER, lines, fit)


def _vereine(rows: Iterable[ClubRow], fit: Fitter) -> bytes:
    lines = ((c.code, state_code(c.code), federation_code(c.federation_prefix), c.name) for c in rows)
    return _csv(VEREINE_HEADER, lines, fit)


def _verbaende(rows: Iterable[FederationRow], fit: Fitter) -> bytes:
    lines = (
        (federation_code(f.prefix), state_code(f.prefix), federation_code(f.parent_prefix or ""), f.name)
        for f in rows
        if f.prefix
    )
    return _csv(VERBAENDE_HEADER, lines, fit)


def spieler_csv(rows: Iterable[MemberRow], codec: Codec = "utf-8") -> Written:
    fit = Fitter(codec)
    return Written(_spieler(rows, fit), fit.replaced)


def vereine_csv(rows: Iterable[ClubRow], codec: Codec = "utf-8") -> Written:
    fit = Fitter(codec)
    return Written(_vereine(rows, fit), fit.replaced)


def verbaende_csv(rows: Iterable[FederationRow], codec: Codec = "utf-8") -> Written:
    """Every federation but the DSB itself (the empty prefix), which the files name as ``000``."""
    fit = Fitter(codec)
    return Written(_verbaende(rows, fit), fit.replaced)


def rating_list_zip(
    members: Iterable[MemberRow],
    clubs: Iterable[ClubRow],
    federations: Iterable[FederationRow],
    codec: Codec = "utf-8",
    stamp: datetime | None = None,
) -> Written:
    """The ZIP of ``spieler.csv``, ``vereine.csv`` and ``verbaende.csv``. Its entries carry
    ``stamp`` (the data's last change) or 1980-01-01, so that equal data give equal bytes."""
    fit = Fitter(codec)
    files = (
        ("spieler.csv", _spieler(members, fit)),
        ("vereine.csv", _vereine(clubs, fit)),
        ("verbaende.csv", _verbaende(federations, fit)),
    )
    return Written(stable_zip(files, stamp), fit.replaced)


def stable_zip(files: Sequence[tuple[str, bytes]], stamp: datetime | None = None) -> bytes:
    """A ZIP of ``files`` whose entries carry ``stamp`` (or 1980-01-01): equal data, equal bytes."""
    moment = (1980, 1, 1, 0, 0, 0) if stamp is None or stamp.year < 1980 else stamp.timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=moment)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def legacy_cell(value: str) -> str:
    """A value of a ``|`` file: a ``|`` becomes ``/``, a line break a space."""
    return _legacy(value)


def _legacy(value: str) -> str:
    return value.replace("|", "/").replace("\r\n", " ").replace("\r", " ").replace("\n", " ")


def club_member_values(r: MemberRow) -> tuple[str, ...]:
    """A member's 14 values of the legacy layout (``CLUB_MEMBERS_HEADER``), as text."""
    return (
        _text(r.pkz),
        r.surname,
        r.given_name,
        _text(r.title),
        r.club_code,
        _member_no(r.member_no),
        _STATUS.get(r.status, ""),
        _text(r.rating),
        _index(r),
        _text(r.last_tournament_id),
        "" if r.last_evaluation is None else r.last_evaluation.isoformat(),
        _text(r.fide_id),
        _text(r.fide_rating),
        _text(r.fide_title),
    )


def club_members_csv(rows: Iterable[MemberRow], codec: Codec = "utf-8") -> Written:
    """A club's members in the legacy ``|`` layout: 14 fields, CRLF line ends."""
    fit = Fitter(codec)
    lines = ["|".join(CLUB_MEMBERS_HEADER)]
    for r in rows:
        lines.append("|".join(_legacy(inert(fit(value))) for value in club_member_values(r)))
    text = "".join(line + "\r\n" for line in lines)
    return Written(text.encode(codec), fit.replaced)
