"""FIDE's report file written by ZDB reads back as the same tournament: every real TRF of
shared/data/trf that the reader accepts is read, written as TRF16 and as TRF26 and read again,
and the second reading equals the first (header, players, games with their results and forfeits,
byes, dates; for TRF26 also its own header records, the National Rating Support lines, the bye
section, the kept records, the teams with their points and ranks, the teams' byes and forfeited
matches). The counts of byes and forfeits checked by hand are those SOURCES.md states about the
files."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import SHARED
from zdb.formats.trf import ByeKind, TrfDocument, iter_byes, iter_games, parse_trf
from zdb.formats.trf.codes import KEPT_CODES
from zdb.formats.trf.writer import TRF_VERSIONS, TrfVersion, write_trf
from zdb.rating import ResultCode

TRF_DIR = SHARED / "data" / "trf"
FILES = sorted(path.name for path in TRF_DIR.glob("*.trf"))
ACCEPTED = [name for name in FILES if parse_trf((TRF_DIR / name).read_bytes()).ok]


def _header(doc: TrfDocument) -> tuple[object, ...]:
    return (
        doc.name,
        doc.city,
        doc.federation,
        doc.start_date,
        doc.end_date,
        doc.round_dates,
        doc.rounds,
        doc.chief_arbiter,
        doc.deputy_arbiters,
        doc.time_control,
        doc.tournament_type,
    )


def _players(doc: TrfDocument) -> list[tuple[object, ...]]:
    return [
        (
            p.start_no,
            p.sex,
            p.title,
            p.name,
            p.rating,
            p.federation,
            p.fide_id,
            p.birth_year,
            p.birth_date,
            p.points,
            p.rank,
        )
        for p in doc.players
    ]


def _byes(doc: TrfDocument) -> list[tuple[int, int, ByeKind]]:
    return [(b.round, b.start_no, b.kind) for b in iter_byes(doc)]


_NATIONAL = (
    "federation",
    "start_no",
    "sex",
    "classification",
    "name",
    "rating",
    "origin",
    "national_id",
    "birth_year",
    "birth_date",
    "club_code",
    "member_no",
    "person_no",
)


def _trf26(doc: TrfDocument) -> tuple[object, ...]:
    """What only TRF26 carries: its header records (142 as the rounds announced or played, the
    encoded time control, the coded records as written), NRS lines, byes, kept records, teams."""
    coded = ("152", "162", "172", "182", "192", "202", "212", "352", "362")
    return (
        max(doc.declared_rounds or 0, doc.rounds),
        doc.time_control_code,
        {code: values for code, values in doc.header.items() if code in coded},
        [tuple(getattr(r, name) for name in _NATIONAL) for r in doc.national_records],
        [(r.kind, r.round, r.ids) for r in doc.bye_records],
        [r.text for r in doc.records if r.code in KEPT_CODES],
        [
            (t.number, t.name, t.members, t.nickname, t.strength, t.match_points, t.game_points, t.rank)
            for t in doc.teams
        ],
        [(b.round, b.team, b.match_points, b.game_points) for b in doc.team_byes],
        [(f.kind, f.round, f.white_team, f.black_team) for f in doc.team_forfeits],
    )


def test_the_reader_accepts_most_real_files() -> None:
    # test_trf_corpus.py: 8 of the 19 files are unfinished tournaments (one error each)
    assert len(FILES) == 19
    assert len(ACCEPTED) == 11


@pytest.mark.parametrize("version", TRF_VERSIONS)
@pytest.mark.parametrize("name", ACCEPTED)
def test_a_real_file_written_again_reads_as_the_same_tournament(name: str, version: TrfVersion) -> None:
    first = parse_trf((TRF_DIR / name).read_bytes())
    text = write_trf(first, version)
    second = parse_trf(text.encode("utf-8"))
    assert second.ok, second.errors
    assert _header(second) == _header(first)
    assert _players(second) == _players(first)
    assert list(iter_games(second)) == list(iter_games(first))
    assert _byes(second) == _byes(first)
    assert [(t.name, t.members) for t in second.teams] == [(t.name, t.members) for t in first.teams]
    if version == "trf26":
        assert _trf26(second) == _trf26(first)
        # the file says nothing the reader finds odd that the first file did not
        assert len(second.warnings) <= len(first.warnings)


def test_trf26_writes_its_own_records_where_trf16_has_none() -> None:
    # SOURCES.md: the Sharly file has four 240 records, an NRS line (FRA), 142 5, 152 B, 172, 182, 192
    first = parse_trf((TRF_DIR / "sharly-trf26-individual-240-byes-nrs-16p.trf").read_bytes())
    trf26 = write_trf(first, "trf26").split("\r\n")
    assert [line for line in trf26 if line[:3] in ("142", "152", "172", "182", "192")] == [
        "142 5",
        "152 B",
        "172 NIDOF",
        "182 Sharly Chess",
        "192 FIDE_DUTCH_2026_BAKU",
    ]
    assert [line for line in trf26 if line.startswith("240")] == [
        "240 H   2    4",
        "240 H   3    9",
        "240 Z   4   12   14",
        "240 Z   5   12",
    ]
    assert [line[:8] for line in trf26 if line.startswith("FRA ")] == ["FRA    1"]
    trf16 = write_trf(first).split("\r\n")
    assert not [line for line in trf16 if line[:3] in ("142", "152", "172", "182", "192", "240", "FRA")]


def test_trf26_teams_are_310_records_with_their_points() -> None:
    # the TEC's Grandmommy's Cup: 50 teams with match points, game points and rank in 310
    first = parse_trf((TRF_DIR / "fide-tec-grandmommys-cup-trf26-adapted-249p-team.trf").read_bytes())
    lines = write_trf(first, "trf26").split("\r\n")
    teams = [line for line in lines if line.startswith("310")]
    assert len(teams) == 50 and not [line for line in lines if line.startswith("013")]
    for line in teams:
        # number at 5-7, name from 9, points at 55-60 and 62-67, rank at 69-71, members from 74
        assert line[7] == " " and line[40] == " " and line[53] == " " and line[60] == " " and line[67] == " "
        assert line[71:73] == "  " and line[73:77].strip().isdigit()


def test_every_line_keeps_fide_s_columns() -> None:
    text = write_trf(parse_trf((TRF_DIR / "icu-bunratty-masters-2011-34p-crlf.trf").read_bytes()))
    lines = text.split("\r\n")
    assert lines[-1] == ""  # every line ends with CR LF
    players = [line for line in lines if line.startswith("001 ")]
    assert len(players) == 34
    for line in players:
        assert line[3] == " " and line[8] == " " and line[13] == " " and line[47] == " "
        # round cells start at column 92, ten columns each
        cells = line[91:]
        for k in range(0, len(cells), 10):
            assert cells[k + 4] == " " and cells[k + 6] == " "


def test_byes_and_forfeits_survive_the_round_trip() -> None:
    # SOURCES.md: bunratty minor has the pairing bye "0000 - +" three times and 19 "     -  " byes
    doc = parse_trf(write_trf(parse_trf((TRF_DIR / "icu-bunratty-minor-2011-103p-crlf.trf").read_bytes())))
    kinds = Counter(b.kind for b in iter_byes(doc))
    assert kinds[ByeKind.PAIRING_PLUS] == 3
    assert kinds[ByeKind.ZERO_POINT] == 19
    # SOURCES.md: the bbp autotest file has 84 "+" forfeits against paired opponents
    doc = parse_trf(write_trf(parse_trf((TRF_DIR / "bbp-autotest-issue15-180p-11r-cr-eol.trf").read_bytes())))
    forfeits = Counter(g.result for g in iter_games(doc) if not g.rated)
    assert forfeits[ResultCode.WHITE_WINS_FORFEIT] + forfeits[ResultCode.BLACK_WINS_FORFEIT] == 84


@pytest.mark.parametrize("version", TRF_VERSIONS)
def test_an_unfinished_tournament_stays_unfinished(version: TrfVersion) -> None:
    # test_trf_corpus.py: the Gros open announces 9 rounds (XXR) and holds 4 played and a fifth of byes;
    # TRF26 announces them with 142
    first = parse_trf((TRF_DIR / "javafo-gros-open-2010-52p-partial-xxr.trf").read_bytes())
    second = parse_trf(write_trf(first, version).encode("utf-8"))
    assert (second.declared_rounds, second.rounds) == (first.declared_rounds, first.rounds) == (9, 5)
    # the same error, on the record that announces the rounds (TRF26: 142 instead of XXR)
    record = {"trf16": "XXR", "trf26": "142"}[version]
    assert [(p.field, p.message) for p in second.errors] == [
        (record, p.message.replace("XXR", record)) for p in first.errors
    ]
    assert [p.field for p in first.errors] == ["XXR"]
    assert list(iter_games(second)) == list(iter_games(first))
    assert _byes(second) == _byes(first)
    # SOURCES.md: byes "0000 - H" 16 times, "- Z" 6 times, "- U" 3 times
    kinds = Counter(b.kind for b in iter_byes(second))
    assert (kinds[ByeKind.HALF_POINT], kinds[ByeKind.ZERO_POINT], kinds[ByeKind.PAIRING_ALLOCATED]) == (16, 6, 3)
