"""Writes rating-list files from ``zdb.formats.list_model`` in any layout, the portal's 2026
layout included, so that what was read can be written again byte for byte.

``zdb.formats.dsb_files`` writes today's DeWIS layouts from the database's rows; this module
writes every layout (``zdb.formats.list_layouts``) from the values a reader returns, with the
columns, encoding, byte-order mark and line end a ``FileFormat`` states — those of the file it
was read from, or a layout's defaults (``file_format``). Write, read and write again gives the
same bytes. Characters the encoding lacks are transliterated as ``dsb_files`` does and counted.

Values are written as the DSB writes them: ``Mitgliedsnummer``/``Mgl-Nr`` zero-filled to three
digits, ``Status`` ``A``/``P``, ``Geschlecht`` ``M``/``W``/``D``, the last evaluation ``YYYYWW``,
the name ``Surname,Given`` without a space, nothing for an absent value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from zdb.formats.dsb_files import Codec, Fitter, Written, stable_zip
from zdb.formats.list_layouts import layout
from zdb.formats.list_model import FileFormat, ListClub, ListFederation, ListMember, RatingList
from zdb.formats.list_text import csv_text, encode

__all__ = [
    "file_format",
    "list_zip",
    "write_rating_list",
]


def file_format(
    file: str, layout_name: str, codec: Codec | None = None, bom: bool = False, columns: Sequence[str] | None = None
) -> FileFormat:
    """The format of ``file`` in a layout: by default its published columns, encoding and line end."""
    chosen = layout(file, layout_name)
    return FileFormat(file, chosen.name, tuple(columns or chosen.header), codec or chosen.codec, bom, chosen.newline)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _member_no(member: ListMember) -> str:
    return "" if member.member_no is None else f"{member.member_no:03d}"


_MEMBER_FIELDS: dict[str, Callable[[ListMember], str]] = {
    "person_id": lambda m: _text(m.person_id),
    "club_code": lambda m: m.club_code,
    "member_no": _member_no,
    "status": lambda m: "P" if m.status == "passive" else "A",
    "full_name": lambda m: f"{m.surname},{m.given_name}",
    "surname": lambda m: m.surname,
    "given_name": lambda m: m.given_name,
    "sex": lambda m: {"M": "M", "F": "W", "D": "D"}.get(m.sex or "", ""),
    "eligibility": lambda m: _text(m.eligibility),
    "birth_year": lambda m: _text(m.birth_year),
    "last_evaluation": lambda m: _text(m.last_evaluation),
    "rating": lambda m: _text(m.rating),
    "rating_index": lambda m: _text(m.rating_index),
    "fide_rating": lambda m: _text(m.fide_rating),
    "fide_title": lambda m: _text(m.fide_title),
    "fide_id": lambda m: _text(m.fide_id),
    "fide_nation": lambda m: _text(m.fide_nation),
    "fide_women_title": lambda m: _text(m.fide_women_title),
    "fide_rapid": lambda m: _text(m.fide_rapid),
    "fide_blitz": lambda m: _text(m.fide_blitz),
    "title": lambda m: _text(m.title),
}


def _write(fmt: FileFormat, lines: Iterable[Sequence[str]], fit: Fitter) -> bytes:
    chosen = layout(fmt.name, fmt.layout)
    header = [fmt.columns]
    text = csv_text((*header, *([fit(v) for v in line] for line in lines)), chosen.quote_space, fmt.newline)
    return encode(text, fmt.codec, fmt.bom)


def _keys(fmt: FileFormat) -> list[str]:
    chosen = layout(fmt.name, fmt.layout)
    keys = []
    for column in fmt.columns:
        key = chosen.key_of(column)
        if key is None:
            raise ValueError(f"{fmt.name} in layout {fmt.layout} has no column {column!r}")
        keys.append(key)
    return keys


def _spieler(members: Iterable[ListMember], fmt: FileFormat, fit: Fitter) -> bytes:
    fields = [_MEMBER_FIELDS[key] for key in _keys(fmt)]
    return _write(fmt, ([field(m) for field in fields] for m in members), fit)


def _units(units: Iterable[ListClub | ListFederation], fmt: FileFormat, fit: Fitter) -> bytes:
    keys = _keys(fmt)
    return _write(fmt, ([str(getattr(unit, key)) for key in keys] for unit in units), fit)


def list_zip(files: Sequence[tuple[str, bytes]], stamp: datetime | None = None) -> bytes:
    """A ZIP of ``files`` whose entries carry ``stamp`` (or 1980-01-01): equal data, equal bytes."""
    return stable_zip(files, stamp)


def write_rating_list(
    rating_list: RatingList,
    formats: Sequence[FileFormat] | None = None,
    fitter: Callable[[Codec], Fitter] = Fitter,
) -> Written:
    """The ZIP of a rating list in ``formats`` (by default those it was read in, which must
    name all three files), stamped as it was. ``fitter`` makes each value fit its file (by
    default: transliterated for the encoding, nothing else)."""
    chosen = {f.name: f for f in (rating_list.formats if formats is None else formats)}
    fits = {name: fitter(chosen[name].codec) for name in ("spieler.csv", "vereine.csv", "verbaende.csv")}
    files = (
        ("spieler.csv", _spieler(rating_list.members, chosen["spieler.csv"], fits["spieler.csv"])),
        ("vereine.csv", _units(rating_list.clubs, chosen["vereine.csv"], fits["vereine.csv"])),
        ("verbaende.csv", _units(rating_list.federations, chosen["verbaende.csv"], fits["verbaende.csv"])),
    )
    return Written(list_zip(files, rating_list.stamp), sum(fit.replaced for fit in fits.values()))
