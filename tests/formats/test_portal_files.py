"""The portal's 2026 layout written from the database's rows (``zdb.formats.portal_files``),
without a database: the published headers, the person's id or number, the order of the lines,
the federations among the clubs, and values made safe for a spreadsheet and the encoding.

Expected lines are written out by hand from the layout as issue 18 publishes it, and read back
with the list reader (which the import uses), so that what is written is what an import reads."""

from __future__ import annotations

import io
import zipfile
from datetime import date

from zdb.formats.dsb_files import ClubRow, FederationRow, MemberRow
from zdb.formats.list_reader import read_rating_list
from zdb.formats.portal_files import portal_rating_list_zip


def _row(pkz: int, member_no: int | None, **values: object) -> MemberRow:
    fields: dict[str, object] = {
        "pkz": pkz,
        "club_code": "C0327",
        "member_no": member_no,
        "status": "active",
        "surname": "Müller",
        "given_name": "Anna",
        "sex": "F",
        "birth_year": 1990,
        "rating": 1733,
        "rating_index": 15,
        "last_evaluation": date(2026, 9, 20),
        "last_tournament_id": 4,
        "fide_id": None,
        "fide_nation": None,
    }
    fields.update(values)
    return MemberRow(**fields)  # type: ignore[arg-type]


FEDERATIONS = [
    FederationRow("", "Deutscher Schachbund", None),
    FederationRow("C", "Region C", ""),
    FederationRow("C03", "Bezirk C03", "C"),
]
CLUBS = [ClubRow("C0327", "SK Musterstadt 1920", "C03")]


def _files(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_three_files_as_the_portal_writes_them() -> None:
    members = [
        _row(10000002, None, surname="van der Berg", given_name="Ida", sex="M", external_id="NU01000014"),
        _row(10000001, 2, status="passive", rating=None, rating_index=7, last_evaluation=None),
        _row(
            10000003,
            1,
            external_id="NU01000007",
            fide_id=4612345,
            fide_nation="GER",
            fide_rating=2222,
            fide_title="FM",
            fide_women_title="WGM",
            fide_rapid=2111,
            fide_blitz=2050,
        ),
    ]
    written = portal_rating_list_zip(members, CLUBS, FEDERATIONS)
    files = _files(written.data)
    assert list(files) == ["spieler.csv", "vereine.csv", "verbaende.csv"]
    assert files["spieler.csv"].decode("cp1252").split("\r\n") == [
        'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,"Letzte Auswertung",'
        "DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,FIDE-Frauentitel,FIDE-Elozahl-Schnellschach,"
        "FIDE-Elozahl-Blitz,Vorname,Nachname,Titel",
        'NU01000007,C0327,001,A,"Müller,Anna",W,,1990,202638,1733,15,2222,FM,4612345,GER,WGM,2111,2050,Anna,Müller,',
        # no portal id: the person number; unrated: no index
        '10000001,C0327,002,P,"Müller,Anna",W,,1990,,,,,,,,,,,Anna,Müller,',
        # no membership number: last
        'NU01000014,C0327,,A,"van der Berg,Ida",M,,1990,202638,1733,15,,,,,,,,Ida,"van der Berg",',
        "",
    ]
    assert files["vereine.csv"].decode("cp1252").split("\r\n") == [
        "ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname",
        'C0000,C,000,"Region C"',
        'C0300,C,C00,"Bezirk C03"',
        'C0327,C,C03,"SK Musterstadt 1920"',
        "",
    ]
    assert files["verbaende.csv"].decode("cp1252").split("\r\n") == [
        "Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname",
        '000,0,,"Deutscher Schachbund"',
        'C00,C,000,"Region C"',
        'C03,C,C00,"Bezirk C03"',
        "",
    ]
    read = read_rating_list(written.data)
    assert read.problems == ()
    assert [f.layout for f in read.formats] == ["portal", "portal", "portal"]
    assert [m.person_id for m in read.members] == ["NU01000007", "10000001", "NU01000014"]


def test_lines_without_a_number_follow_the_id() -> None:
    members = [_row(10000009, None), _row(10000008, None, external_id="NU2"), _row(10000007, None)]
    spieler = _files(portal_rating_list_zip(members, CLUBS, FEDERATIONS).data)["spieler.csv"].decode("cp1252")
    assert [line.split(",")[0] for line in spieler.split("\r\n")[1:-1]] == ["10000007", "10000009", "NU2"]


def test_values_are_made_safe_for_a_spreadsheet_and_the_encoding() -> None:
    members = [_row(10000001, 1, surname="=HYPERLINK(1)", given_name="Čeněk\rX")]
    written = portal_rating_list_zip(members, CLUBS, FEDERATIONS)
    spieler = _files(written.data)["spieler.csv"].decode("cp1252")
    assert '"\'=HYPERLINK(1),Cenek X"' in spieler and ',"Cenek X",\'=HYPERLINK(1),' in spieler
    assert written.transliterated == 4  # Č and ě, in "Name,Vorname" and in Vorname
    utf8 = _files(portal_rating_list_zip(members, CLUBS, FEDERATIONS, codec="utf-8").data)["spieler.csv"]
    assert "Čeněk X".encode() in utf8
