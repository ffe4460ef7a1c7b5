"""SWT files made in test code (``swt_files``): versions 7.xx and 8.xx read alike, results and
byes mapped as ``zdb.formats.swt.convert`` documents, and every problem named by record and field;
another version, or a file that is no SWT, answered with the versions read and the TRF export."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.formats.swt_files import SAMPLES, Round, build, two_rounds
from zdb.formats.swt import read_swt, read_swt_document
from zdb.formats.tournament_file import is_swt, read_tournament_file
from zdb.formats.trf import ByeKind, Severity, TrfDocument, iter_byes, iter_games
from zdb.rating import ResultCode


def _problems(document: TrfDocument) -> set[tuple[str, str | None, Severity]]:
    return {(p.place, p.field, p.severity) for p in document.problems}


@pytest.mark.parametrize("version", [700, 799, 800, 883])
def test_both_versions_read_the_same_tournament(version: int) -> None:
    data = build(two_rounds(version))
    assert is_swt(data)
    document = read_tournament_file(data)
    assert document.file_format == "SWT"
    assert document.problems == ()
    assert [tuple(g) for g in iter_games(document)] == [
        (1, 1, 2, "1-0"),
        (1, 3, 4, "1/2-1/2"),
        (2, 4, 1, "0-1"),
        (2, 2, 3, "+-"),
    ]
    anna, dieter, joerg, eva = document.players
    assert (anna.name, anna.sex, anna.rating, anna.birth_date, anna.place) == (
        "Müller,Anna",
        "w",
        2100,
        __import__("datetime").date(1980, 5, 17),
        "player 1",
    )
    (german,) = anna.national
    assert (german.club_code, german.member_no, german.rating, german.person_no) == ("C0327", "123", 2050, None)
    assert (dieter.birth_year, dieter.birth_date, dieter.rating) == (1975, None, None)
    # 7.xx keeps only five digits of the person number: not a person number to match by
    assert joerg.national[0].person_no == ("10012345" if version >= 800 else None)
    assert (eva.national, eva.federation, eva.sex) == ((), "AUT", "w")
    assert document.time_control == "40/5400+30"
    assert (document.start_date.isoformat(), document.end_date.isoformat()) == ("2026-09-18", "2026-09-20")  # type: ignore[union-attr]


def test_byes_adjourned_games_and_forfeited_draws() -> None:
    t = two_rounds(883)
    t.games[(1, 2)] = Round(3, 0, 3)  # Dieter: "spielfrei" with a point
    t.games[(2, 2)] = Round(4, 0, 2)  # Jörg: "spielfrei" with half a point
    t.games[(3, 2)] = Round(1, 1, 2, 4)  # Eva-Anna drawn by forfeit
    t.games[(0, 2)] = Round(2, 4, 2, 4)
    t.games[(0, 1)] = Round(1, 2, 0, 5)  # Anna-Dieter adjourned
    t.games[(1, 1)] = Round(2, 1, 0, 5)
    document = read_swt_document(build(t))
    assert [tuple(g) for g in iter_games(document)] == [(1, 3, 4, "1/2-1/2"), (2, 4, 1, "1/2-1/2")]
    (forfeited_draw,) = [g for g in iter_games(document) if g.round == 2]
    assert (forfeited_draw.result, forfeited_draw.rated) == (ResultCode.DRAW, False)
    byes = {(b.round, b.start_no): b.kind for b in iter_byes(document)}
    assert byes == {(2, 2): ByeKind.PAIRING_ALLOCATED, (2, 3): ByeKind.HALF_POINT}
    assert ("player 1", "round 1", Severity.WARNING) in _problems(document)
    assert not document.errors


def test_problems_name_the_player_and_the_swiss_chess_field() -> None:
    t = two_rounds(883)
    t.players[1] = replace(t.players[1], birth="19751345")
    t.games[(2, 1)] = Round(1, 9, 2)  # Jörg's opponent 9 does not exist
    t.games[(3, 2)] = Round(1, 2, 1)  # Eva names Dieter, who plays Jörg
    t.games[(0, 1)] = Round(1, 2, 3)
    t.games[(1, 1)] = Round(2, 1, 3)  # both won
    document = read_swt_document(build(t))
    assert {
        ("player 2", "Geburtsdatum", Severity.ERROR),
        ("player 3", "round 1", Severity.ERROR),
        ("player 4", "round 1", Severity.ERROR),
        ("player 4", "round 2", Severity.ERROR),
        ("player 1", "round 1", Severity.ERROR),
    } <= _problems(document)
    birth = next(p for p in document.errors if p.field == "Geburtsdatum")
    assert str(birth) == "player 2, Geburtsdatum: birth date '1975/13/45' is not a valid date"
    assert birth.line is None and birth.record == "player 2"


def test_unknown_version_names_the_versions_read_and_the_trf_export() -> None:
    data = bytearray((SAMPLES / "SwissIndividual.SWT").read_bytes())
    data[0x261:0x263] = (1012).to_bytes(2, "little")
    document = read_tournament_file(bytes(data))
    (problem,) = document.problems
    assert problem.severity is Severity.ERROR
    assert (problem.place, problem.field) == ("general data", "file version")
    assert "version 10.12" in problem.message and "7.xx and 8.xx" in problem.message
    assert "export the tournament from Swiss-Chess as FIDE TRF" in problem.message
    assert document.players == ()


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.4\n" + bytes(range(8)) * 80,
        bytes(range(256)) * 4,
        b"\x00" * 5000,
    ],
)
def test_a_file_that_is_no_swt_says_what_is_read(data: bytes) -> None:
    assert is_swt(data)
    (problem,) = read_tournament_file(data).problems
    assert problem.severity is Severity.ERROR
    assert "7.xx and 8.xx" in problem.message and "FIDE TRF" in problem.message


def test_a_cut_off_file_is_refused_with_its_size() -> None:
    data = (SAMPLES / "SwissTeam.SWT").read_bytes()
    (problem,) = read_swt(data[:-1]).problems
    assert "cut off" in problem.message and str(len(data)) in problem.message


def test_text_files_stay_trf() -> None:
    trf = "012 Test\n001    1 m    Mueller, Anna                     2100 GER  4600001 1980/05/17  0.0    1\n"
    assert not is_swt(trf.encode())
    assert not is_swt(trf.encode("utf-16-le"))  # no byte order mark: NUL at every other byte
    assert not is_swt(trf.encode("utf-16"))
    assert read_tournament_file(trf.encode("utf-16")).file_format == "TRF"
    assert read_tournament_file(trf.encode()).players[0].name == "Mueller, Anna"
    stray = trf.replace("Test", "Te\x00st").encode()  # a stray NUL does not make a binary file
    assert not is_swt(stray)
    assert read_tournament_file(stray).file_format == "TRF"
