"""The writers of the federation's files for club software, without a database: exact headers
and line ends, the DSB's ways of writing values, transliteration for the legacy encodings, and
a ZIP whose bytes depend on its data only."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from zdb.formats.dsb_files import (
    ClubRow,
    FederationRow,
    MemberRow,
    club_members_csv,
    codec_of,
    federation_code,
    rating_list_zip,
    spieler_csv,
    verbaende_csv,
    vereine_csv,
    year_week,
)

ANNA = MemberRow(
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
)
NEW = MemberRow(
    pkz=10000009,
    club_code="C0327",
    member_no=None,
    status="passive",
    surname="Kowalczyk",
    given_name="Łukasz",
    sex="M",
    birth_year=None,
    rating=None,
    rating_index=None,
    last_evaluation=None,
    last_tournament_id=None,
    fide_id=None,
    fide_nation=None,
)


def _lines(data: bytes, encoding: str = "utf-8") -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(encoding), newline="")))


def test_spieler_header_and_a_full_line() -> None:
    written = spieler_csv([ANNA])
    assert (
        written.data
        == (
            "ID,VKZ,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ,Index,"
            "FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land\n"
            '10000001,C0327,007,A,"Müller,Anna",W,,1980,200715,1733,15,,,4600001,GER\n'
        ).encode()
    )
    assert written.transliterated == 0


def test_absent_values_are_empty_fields_never_zero() -> None:
    (_, line) = _lines(spieler_csv([NEW]).data)
    assert line == ["10000009", "C0327", "", "P", "Kowalczyk,Łukasz", "M", "", "", "", "", "", "", "", "", ""]
    unrated_with_index = replace(NEW, rating_index=3)
    assert _lines(spieler_csv([unrated_with_index]).data)[1][10] == ""  # an index without a rating is not written


@pytest.mark.parametrize(
    ("day", "week"),
    [
        (date(2007, 4, 12), "200715"),
        (date(2026, 1, 5), "202602"),
        (date(2021, 1, 1), "202053"),
        (date(2024, 12, 30), "202501"),
        (None, ""),
    ],
)
def test_year_week_is_the_iso_week(day: date | None, week: str) -> None:
    assert year_week(day) == week


def test_sex_and_status_codes() -> None:
    rows = [
        replace(ANNA, sex=sex, status=status) for sex, status in (("M", "active"), ("F", "passive"), ("D", "active"))
    ]
    assert [(line[3], line[5]) for line in _lines(spieler_csv(rows).data)[1:]] == [("A", "M"), ("P", "W"), ("A", "D")]


def test_clubs_and_federations_with_the_dsb_codes() -> None:
    clubs = vereine_csv([ClubRow("C0327", "SK Musterstadt 1920", "C03"), ClubRow("D0001", "SV Delta", "D")])
    assert clubs.data == b"ZPS,LV,Verband,Vereinname\nC0327,C,C03,SK Musterstadt 1920\nD0001,D,D00,SV Delta\n"
    federations = verbaende_csv(
        [
            FederationRow("", "Deutscher Schachbund", None),
            FederationRow("C", "Region C", ""),
            FederationRow("C03", "Bezirk C03", "C"),
            FederationRow("C031", "Kreis, Nord", "C03"),
        ]
    )
    assert federations.data == (
        b'Verband,LV,Uebergeordnet,Verbandname\nC00,C,000,Region C\nC03,C,C00,Bezirk C03\nC031,C,C03,"Kreis, Nord"\n'
    )
    assert [federation_code(p) for p in ("", "C", "C03", "C031")] == ["000", "C00", "C03", "C031"]


def test_latin1_keeps_umlauts_and_transliterates_the_rest() -> None:
    rows = [ANNA, NEW, replace(ANNA, surname="Dvořák", given_name="Čeněk"), replace(ANNA, given_name="Œdipe")]
    written = spieler_csv(rows, "latin-1")
    names = [line[4] for line in _lines(written.data, "latin-1")[1:]]
    assert names == ["Müller,Anna", "Kowalczyk,Lukasz", "Dvorák,Cenek", "Müller,OEdipe"]  # á is Latin-1
    assert b"M\xfcller" in written.data
    assert written.transliterated == 1 + 3 + 1  # Ł; ř Č ě; Œ
    cp1252 = spieler_csv(rows, "cp1252")
    assert [line[4] for line in _lines(cp1252.data, "cp1252")[1:]][3] == "Müller,Œdipe"  # cp1252 has Œ
    assert cp1252.transliterated == 4


def test_utf8_writes_everything_as_it_is() -> None:
    row = replace(ANNA, given_name="Čeněk 李")
    written = spieler_csv([row])
    assert written.transliterated == 0 and "Müller,Čeněk 李".encode() in written.data


def test_a_replacement_never_adds_a_delimiter() -> None:
    # U+FE50 (small comma) and U+FF5C (fullwidth bar) decompose to "," and "|".
    row = replace(ANNA, surname="A\ufe50B", given_name="C\uff5cD", club_code="C0327")
    (_, line) = _lines(spieler_csv([row], "latin-1").data, "latin-1")
    assert len(line) == 15 and line[4] == "A,B,C|D"
    legacy = club_members_csv([row], "latin-1").data.decode("latin-1").split("\r\n")
    assert all(len(line.split("|")) == 14 for line in legacy[:-1])
    assert legacy[1].split("|")[1:3] == ["A,B", "C/D"]
    unknown = spieler_csv([replace(ANNA, given_name="李")], "latin-1")
    assert _lines(unknown.data, "latin-1")[1][4] == "Müller,?" and unknown.transliterated == 1


def test_club_csv_legacy_layout() -> None:
    written = club_members_csv([ANNA, NEW])
    assert written.data.decode() == (
        "id|nachname|vorname|titel|verein|mglnr|status|dwz|dwzindex|turniercode|turnierende|fideid|fideelo|fidetitel\r\n"
        "10000001|Müller|Anna||C0327|007|A|1733|15|42|2007-04-12|4600001||\r\n"
        "10000009|Kowalczyk|Łukasz||C0327||P|||||||\r\n"
    )
    broken = replace(ANNA, surname="Müller|Lüdenscheidt", given_name="An\r\nna")
    line = club_members_csv([broken]).data.decode().split("\r\n")[1]
    assert line.split("|")[1:3] == ["Müller/Lüdenscheidt", "An na"]
    latin = club_members_csv([NEW], "cp1252")
    assert b"|Kowalczyk|Lukasz|" in latin.data and latin.transliterated == 1


def test_zip_holds_the_three_files_and_equal_data_give_equal_bytes() -> None:
    stamp = datetime(2026, 9, 21, 8, 15, tzinfo=UTC)
    clubs, federations = [ClubRow("C0327", "SK Musterstadt 1920", "C03")], [FederationRow("C03", "Bezirk C03", "C")]
    first = rating_list_zip([ANNA, NEW], clubs, federations, "cp1252", stamp)
    assert first == rating_list_zip([ANNA, NEW], clubs, federations, "cp1252", stamp)
    assert first.transliterated == 1
    with zipfile.ZipFile(io.BytesIO(first.data)) as archive:
        assert archive.namelist() == ["spieler.csv", "vereine.csv", "verbaende.csv"]
        assert archive.getinfo("spieler.csv").date_time == (2026, 9, 21, 8, 15, 0)
        assert archive.read("spieler.csv") == spieler_csv([ANNA, NEW], "cp1252").data
        assert archive.read("vereine.csv") == vereine_csv(clubs, "cp1252").data
        assert archive.read("verbaende.csv") == verbaende_csv(federations, "cp1252").data
    undated = rating_list_zip([], [], [], "utf-8", None)
    with zipfile.ZipFile(io.BytesIO(undated.data)) as archive:
        assert archive.getinfo("spieler.csv").date_time == (1980, 1, 1, 0, 0, 0)
        assert archive.read("spieler.csv").decode().endswith("FIDE-ID,FIDE-Land\n")


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("UTF-8", "utf-8"),
        ("utf8", "utf-8"),
        ("Windows-1252", "cp1252"),
        ("cp1252", "cp1252"),
        ("ISO-8859-1", "latin-1"),
        ("latin1", "latin-1"),
        (" latin-1 ", "latin-1"),
    ],
)
def test_encoding_names(name: str, codec: str) -> None:
    assert codec_of(name) == codec


def test_an_unknown_encoding_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown encoding 'ebcdic'"):
        codec_of("ebcdic")


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_formula_is_never_written_as_one(start: str) -> None:
    evil = replace(ANNA, surname=f'{start}HYPERLINK("http://x")', given_name=f"{start}1+1", fide_title=f"{start}cmd")
    (_, line) = _lines(spieler_csv([evil]).data)
    assert line[4].startswith("'") and line[12] == f"'{start}cmd".replace("\r", " ")
    fields = club_members_csv([evil]).data.decode().split("\r\n")[1].split("|")
    assert all(field.startswith("'") for field in (fields[1], fields[2], fields[13]))
    clubs = _lines(vereine_csv([ClubRow("C0327", "@SUM(A1)", "C03")]).data)
    assert clubs[1][3] == "'@SUM(A1)"
    # ordinary values, numbers and dates included, are written as they are
    assert _lines(spieler_csv([ANNA]).data)[1][4] == "Müller,Anna"
