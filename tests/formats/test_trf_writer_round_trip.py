"""FIDE's report file written by ZDB reads back as the same tournament: every real TRF of
shared/data/trf that the reader accepts is read, written as TRF16 and read again, and the second
reading equals the first (header, players, games with their results and forfeits, byes, dates).
The counts of byes and forfeits checked by hand are those SOURCES.md states about the files."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import SHARED
from zdb.formats.trf import ByeKind, TrfDocument, iter_byes, iter_games, parse_trf
from zdb.formats.trf.writer import write_trf
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


def test_the_reader_accepts_most_real_files() -> None:
    # test_trf_corpus.py: 8 of the 19 files are unfinished tournaments (one error each)
    assert len(FILES) == 19
    assert len(ACCEPTED) == 11


@pytest.mark.parametrize("name", ACCEPTED)
def test_a_real_file_written_again_reads_as_the_same_tournament(name: str) -> None:
    first = parse_trf((TRF_DIR / name).read_bytes())
    text = write_trf(first)
    second = parse_trf(text.encode("utf-8"))
    assert second.ok, second.errors
    assert _header(second) == _header(first)
    assert _players(second) == _players(first)
    assert list(iter_games(second)) == list(iter_games(first))
    assert _byes(second) == _byes(first)
    assert [(t.name, t.members) for t in second.teams] == [(t.name, t.members) for t in first.teams]


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


def test_an_unfinished_tournament_stays_unfinished() -> None:
    # test_trf_corpus.py: the Gros open announces 9 rounds (XXR) and holds 4 played and a fifth of byes
    first = parse_trf((TRF_DIR / "javafo-gros-open-2010-52p-partial-xxr.trf").read_bytes())
    second = parse_trf(write_trf(first).encode("utf-8"))
    assert (second.declared_rounds, second.rounds) == (first.declared_rounds, first.rounds) == (9, 5)
    assert [(p.field, p.message) for p in second.errors] == [(p.field, p.message) for p in first.errors]
    assert list(iter_games(second)) == list(iter_games(first))
    assert _byes(second) == _byes(first)
    # SOURCES.md: byes "0000 - H" 16 times, "- Z" 6 times, "- U" 3 times
    kinds = Counter(b.kind for b in iter_byes(second))
    assert (kinds[ByeKind.HALF_POINT], kinds[ByeKind.ZERO_POINT], kinds[ByeKind.PAIRING_ALLOCATED]) == (16, 6, 3)
