"""The rating-list ZIP in the DSB portal's 2026 layout, written from the database's rows.

A federation that reads its list with software made for the new rating portal gets the same
three files from ZDB: the layout, header, encoding (Windows-1252), quoting and line ends of
``zdb.formats.list_layouts`` (``portal``), written by ``zdb.formats.list_writer`` from the rows
``zdb.ratings.list_queries`` selects for the DeWIS layout (``zdb.formats.dsb_files``). What the
portal writes and this database does not keep is written empty: ``Spielberechtigung`` and
``Titel``. The FIDE columns come from the person's newest FIDE edition, as in the DeWIS layout.

``ID`` is the person's external id — the portal's ``NU…`` he came in with — where he has one.
A person ZDB created (from a tournament file, say) has none; his ``ID`` is his person number,
eight digits, which no portal id is. So every line carries an id (the portal's readers, this
database's too, refuse a line without one), the id is stable from one export to the next, and a
re-import of the file finds him again by that number instead of creating him twice
(``zdb.lists.sync_plan``).

Lines are ordered by club, membership number (lines without one last) and ``ID``: values of the
file itself, so that a database filled from the file writes it again in the same order.
``vereine.csv`` lists the federations as the portal does (code and ``00``: ``C0000``, ``C0300``)
between the clubs, by code; ``verbaende.csv`` starts with the root ``000``. Values that a
spreadsheet would run as formulas are neutralised as in every file of ``dsb_files``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from zdb.formats.dsb_files import (
    ClubRow,
    Codec,
    FederationRow,
    Fitter,
    MemberRow,
    Written,
    federation_code,
    inert,
    state_code,
)
from zdb.formats.list_model import ListClub, ListFederation, ListMember, RatingList, YearWeek
from zdb.formats.list_writer import file_format, write_rating_list

__all__ = ["LAYOUT", "person_id", "portal_rating_list_zip"]

LAYOUT = "portal"


def person_id(row: MemberRow) -> str:
    """The ``ID`` of a person: his external id, else his person number."""
    return row.external_id or str(row.pkz)


class _CellFitter(Fitter):
    """A value as every file of the database writes it: transliterated for the encoding, a
    leading formula character neutralised, a carriage return a space."""

    def __call__(self, text: str) -> str:
        return inert(super().__call__(text)).replace("\r\n", " ").replace("\r", " ")


def _member(row: MemberRow) -> ListMember:
    rated = row.rating is not None
    return ListMember(
        person_id=person_id(row),
        club_code=row.club_code,
        member_no=row.member_no,
        status=row.status,
        surname=row.surname,
        given_name=row.given_name,
        sex=row.sex,
        eligibility=row.eligibility,
        birth_year=row.birth_year,
        last_evaluation=None if row.last_evaluation is None else YearWeek.of(row.last_evaluation),
        rating=row.rating,
        rating_index=row.rating_index if rated else None,
        fide_rating=row.fide_rating,
        fide_title=row.fide_title,
        fide_id=row.fide_id,
        fide_nation=row.fide_nation,
        fide_women_title=row.fide_women_title,
        fide_rapid=row.fide_rapid,
        fide_blitz=row.fide_blitz,
        title=row.title,
    )


def _order(member: ListMember) -> tuple[str, bool, int, str]:
    return (member.club_code, member.member_no is None, member.member_no or 0, member.person_id or "")


def _clubs(clubs: Iterable[ClubRow], federations: Iterable[FederationRow]) -> list[ListClub]:
    rows = [ListClub(c.code, state_code(c.code), federation_code(c.federation_prefix), c.name) for c in clubs]
    rows += [
        ListClub(federation_code(f.prefix) + "00", state_code(f.prefix), federation_code(f.parent_prefix or ""), f.name)
        for f in federations
        if f.prefix
    ]
    return sorted(rows, key=lambda club: club.code)


def _federations(federations: Iterable[FederationRow]) -> list[ListFederation]:
    rows = [
        ListFederation(
            federation_code(f.prefix),
            state_code(f.prefix),
            "" if f.parent_prefix is None else federation_code(f.parent_prefix),
            f.name,
        )
        for f in federations
    ]
    return sorted(rows, key=lambda federation: federation.code)


def portal_rating_list_zip(
    members: Iterable[MemberRow],
    clubs: Iterable[ClubRow],
    federations: Iterable[FederationRow],
    codec: Codec = "cp1252",
    stamp: datetime | None = None,
) -> Written:
    """The ZIP of the three files in the portal's layout; its entries carry ``stamp`` (or
    1980-01-01), so that equal data give equal bytes."""
    chosen = list(federations)
    rating_list = RatingList(
        members=tuple(sorted((_member(row) for row in members), key=_order)),
        clubs=tuple(_clubs(clubs, chosen)),
        federations=tuple(_federations(chosen)),
        people=(),
        problems=(),
        formats=tuple(file_format(name, LAYOUT, codec) for name in ("spieler.csv", "vereine.csv", "verbaende.csv")),
        stamp=stamp,
    )
    return write_rating_list(rating_list, fitter=_CellFitter)
