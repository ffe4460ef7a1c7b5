"""Reading the federation's rating-list ZIP: every layout and encoding, generated with made-up
names, read back into the values written; the same bytes when written again."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from datetime import date, datetime

import pytest

from zdb.formats.dsb_files import ClubRow, FederationRow, Fitter, MemberRow, rating_list_zip
from zdb.formats.list_model import ListMember, RatingList, YearWeek
from zdb.formats.list_reader import read_rating_list
from zdb.formats.list_writer import write_rating_list
from zdb.synthetic.rating_lists import SyntheticList, list_zip_bytes, synthetic_list

LAYOUTS = [("portal", "portal"), ("dewis", "dewis"), ("dewis-old", "none")]
CODECS = ["utf-8", "cp1252", "latin-1"]


@pytest.fixture(scope="module", params=LAYOUTS, ids=[layout for layout, _ in LAYOUTS])
def generated(request: pytest.FixtureRequest) -> tuple[str, SyntheticList]:
    layout, ids = request.param
    return layout, synthetic_list(7, 600, ids)


def _as_written(member: ListMember, layout: str, codec: str) -> ListMember:
    """The member as a layout and encoding can write him: the legacy encodings transliterate the
    letters they lack, the DeWIS layouts have no columns for the portal's additions."""
    fit = Fitter(codec)
    member = replace(member, surname=fit(member.surname), given_name=fit(member.given_name))
    if layout == "portal":
        return member
    return replace(member, fide_women_title=None, fide_rapid=None, fide_blitz=None, title=None)


@pytest.mark.parametrize(
    ("codec", "bom"),
    [("utf-8", False), ("utf-8", True), ("cp1252", False), ("latin-1", False)],
    ids=["utf-8", "utf-8-bom", "cp1252", "latin-1"],
)
def test_every_layout_and_encoding_reads_back_what_was_written(
    generated: tuple[str, SyntheticList], codec: str, bom: bool
) -> None:
    layout, data = generated
    written = list_zip_bytes(data, layout, codec=codec, bom=bom)
    read = read_rating_list(written)
    assert read.problems == ()
    assert read.members == tuple(_as_written(m, layout, codec) for m in data.members)
    units = "portal" if layout == "portal" else "dewis"
    assert [f.layout for f in read.formats] == [layout, units, units]
    assert {(f.codec, f.bom) for f in read.formats} == {("utf-8" if codec == "utf-8" else "cp1252", bom)}
    assert write_rating_list(read).data == written


@pytest.mark.parametrize("codec", CODECS)
def test_a_stated_encoding_is_used_and_kept(codec: str) -> None:
    data = synthetic_list(3, 80, "portal")
    written = list_zip_bytes(data, "portal", codec=codec)
    read = read_rating_list(written, codec=codec)
    assert {f.codec for f in read.formats} == {codec}
    assert write_rating_list(read).data == written


def test_the_portal_file_starts_with_the_published_header_in_windows_1252() -> None:
    written = list_zip_bytes(synthetic_list(1, 40, "portal"), "portal")
    spieler = zipfile.ZipFile(io.BytesIO(written)).read("spieler.csv")
    header, first = spieler.split(b"\r\n")[:2]
    assert header == (
        b'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,"Letzte Auswertung",'
        b"DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,FIDE-Frauentitel,FIDE-Elozahl-Schnellschach,"
        b"FIDE-Elozahl-Blitz,Vorname,Nachname,Titel"
    )
    assert len(header.split(b",")) == 22  # 21 columns, one of them with a comma
    assert first.startswith(b"NU")


def test_people_group_their_memberships_and_the_active_one_counts() -> None:
    data = synthetic_list(5, 1500, "portal")
    read = read_rating_list(list_zip_bytes(data, "portal", codec="utf-8"))
    twice = [person for person in read.people if len(person.memberships) == 2]
    assert twice, "the generator gives some people a passive second membership"
    assert any(person.memberships[0].status == "passive" for person in twice)  # the P line comes first
    for person in twice:
        assert {m.status for m in person.memberships} == {"active", "passive"}
        assert person.member.status == "active"
        assert person.memberships[0].club_code != person.memberships[1].club_code
    assert sum(len(p.memberships) for p in read.people) == len(read.members)


def test_the_portal_club_file_lists_the_federations_too() -> None:
    data = synthetic_list(5, 300, "portal")
    read = read_rating_list(list_zip_bytes(data, "portal"))
    federations = [club for club in read.clubs if club.is_federation]
    assert {club.code[:3] for club in federations} == {f.code for f in read.federations if f.code != "000"}
    assert not any(club.is_federation for club in data.clubs)


def test_a_repeated_district_is_kept_and_a_different_repeat_is_a_problem() -> None:
    data = synthetic_list(5, 300, "portal", conflicting_district=True)
    read = read_rating_list(list_zip_bytes(data, "portal"))
    codes = [f.code for f in read.federations]
    repeated = sorted({code for code in codes if codes.count(code) > 1})
    assert len(repeated) == 2
    (problem,) = read.problems
    assert (problem.file, problem.column) == ("verbaende.csv", "Verbandnummer")
    conflicting = [f for f in read.federations if f.code in repeated and "(alt)" in f.name]
    assert problem.line == conflicting[0].line
    first = read.federation(conflicting[0].code)
    assert first is not None and first.line < problem.line and "(alt)" not in first.name


def test_the_dsb_writer_s_zip_reads_and_writes_again_byte_for_byte() -> None:
    members = [
        MemberRow(
            pkz=10000001,
            club_code="C0327",
            member_no=7,
            status="active",
            surname="Müller",
            given_name="Anna",
            sex="F",
            birth_year=1980,
            rating=1733,
            rating_index=15,
            last_evaluation=date(2007, 4, 12),
            last_tournament_id=42,
            fide_id=4600001,
            fide_nation="GER",
        ),
        MemberRow(
            pkz=10000009,
            club_code="C0327",
            member_no=None,
            status="passive",
            surname="van der Berg",
            given_name="Łukasz",
            sex="M",
            birth_year=None,
            rating=None,
            rating_index=None,
            last_evaluation=None,
            last_tournament_id=None,
            fide_id=None,
            fide_nation=None,
        ),
    ]
    clubs = [ClubRow("C0327", "SK Lindenau, 1923", "C03")]
    federations = [FederationRow("C", "Sächsischer Schachverband", ""), FederationRow("C03", "Bezirk", "C")]
    for codec in CODECS:
        written = rating_list_zip(members, clubs, federations, codec, datetime(2026, 3, 1, 12, 0, 0)).data
        read = read_rating_list(written)
        assert read.problems == ()
        assert read.formats[0].layout == "dewis"
        assert read.stamp == datetime(2026, 3, 1, 12, 0, 0)
        assert read.members[0].last_evaluation == YearWeek(2007, 15)
        assert (read.members[1].surname, read.members[1].status) == ("van der Berg", "passive")
        assert read.clubs[0].name == "SK Lindenau, 1923"
        assert write_rating_list(read).data == written


def test_an_empty_list_is_a_list_without_values() -> None:
    written = list_zip_bytes(SyntheticList((), (), ()), "dewis")
    read = read_rating_list(written)
    assert read == RatingList((), (), (), (), (), read.formats, read.stamp)
    assert write_rating_list(read).data == written
