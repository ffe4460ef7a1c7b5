"""Round trips of the rating-list formats for any values: written in any layout, encoding and
column order, read without a problem, and written again to the same bytes."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from zdb.formats.list_layouts import layout
from zdb.formats.list_model import ListClub, ListFederation, ListMember, RatingList, YearWeek
from zdb.formats.list_reader import read_rating_list
from zdb.formats.list_writer import file_format, write_rating_list

_CHARACTERS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))
TEXT = st.text(_CHARACTERS, min_size=1, max_size=12).map(str.strip).filter(bool)
NAME = TEXT.filter(lambda text: "," not in text)  # a surname holds no comma: "Surname,Given" splits at it
CODE = st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=5)
WEEK = st.dates(date(1990, 1, 1), date(2030, 12, 31)).map(YearWeek.of)


def _optional(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.none() | strategy


@st.composite
def _member(draw: st.DrawFn, person: int, ids: str) -> ListMember:
    positive = st.integers(1, 3500)
    return ListMember(
        person_id={"portal": f"NU{person:08d}", "dewis": str(10_000_000 + person)}.get(ids),
        club_code=draw(CODE),
        member_no=draw(_optional(st.integers(0, 99_999))),
        status=draw(st.sampled_from(("active", "passive"))),
        surname=draw(NAME),
        given_name=draw(st.just("") | TEXT),
        sex=draw(st.sampled_from((None, "M", "F", "D"))),
        eligibility=draw(_optional(TEXT)),
        birth_year=draw(_optional(st.integers(1850, 2200))),
        last_evaluation=draw(_optional(WEEK)),
        rating=draw(_optional(positive)),
        rating_index=draw(_optional(st.integers(0, 300))),
        fide_rating=draw(_optional(positive)),
        fide_title=draw(_optional(TEXT)),
        fide_id=draw(_optional(st.integers(1, 10**9))),
        fide_nation=draw(_optional(TEXT)),
        fide_women_title=draw(_optional(TEXT)),
        fide_rapid=draw(_optional(positive)),
        fide_blitz=draw(_optional(positive)),
        title=draw(_optional(TEXT)),
    )


@st.composite
def _lists(draw: st.DrawFn) -> tuple[RatingList, str]:
    name, ids = draw(st.sampled_from((("portal", "portal"), ("dewis", "dewis"), ("dewis-old", "none"))))
    count = draw(st.integers(0, 6))
    members = tuple(draw(_member(person, ids)) for person in range(1, count + 1))
    units = st.tuples(TEXT, TEXT, TEXT)
    codes = draw(st.lists(CODE, max_size=4, unique=True))
    clubs = tuple(ListClub(code, *draw(units)) for code in codes)
    federations = tuple(ListFederation(code, *draw(units)) for code in codes)
    codec = draw(st.sampled_from(("utf-8", "cp1252", "latin-1")))
    bom = codec == "utf-8" and draw(st.booleans())
    header = layout("spieler.csv", name).header
    columns = draw(st.permutations(header))
    if name == "portal" and draw(st.booleans()):  # the joined name alone, or the separate ones alone
        drop = draw(st.sampled_from((("Name,Vorname",), ("Vorname", "Nachname"))))
        columns = [column for column in columns if column not in drop]
    unit_layout = "portal" if name == "portal" else "dewis"
    formats = (
        file_format("spieler.csv", name, codec, bom, columns),
        file_format("vereine.csv", unit_layout, codec, bom),
        file_format("verbaende.csv", unit_layout, codec, bom),
    )
    return RatingList(members, clubs, federations, (), (), formats), codec


@settings(max_examples=60, deadline=None)
@given(_lists())
def test_write_read_write_gives_the_same_bytes(drawn: tuple[RatingList, str]) -> None:
    rating_list, _ = drawn
    written = write_rating_list(rating_list).data
    read = read_rating_list(written)
    assert read.problems == ()
    # the encoding is detected: a file in plain ASCII reads as UTF-8, which gives the same bytes
    assert [replace(f, codec="utf-8") for f in read.formats] == [replace(f, codec="utf-8") for f in rating_list.formats]
    assert write_rating_list(read).data == written


@settings(max_examples=40, deadline=None)
@given(_lists())
def test_utf_8_lists_read_back_the_values_written(drawn: tuple[RatingList, str]) -> None:
    rating_list, codec = drawn
    formats = tuple(replace(f, codec="utf-8") for f in rating_list.formats)
    read = read_rating_list(write_rating_list(rating_list, formats).data)
    keys = {
        key
        for name, key in layout("spieler.csv", rating_list.formats[0].layout).columns
        if name in rating_list.formats[0].columns
    }
    absent = {key: None for key in ("fide_women_title", "fide_rapid", "fide_blitz", "title") if key not in keys}
    assert read.members == tuple(replace(m, **absent) for m in rating_list.members)
    assert (read.clubs, read.federations) == (rating_list.clubs, rating_list.federations)
    del codec
