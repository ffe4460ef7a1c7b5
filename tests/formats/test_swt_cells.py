"""A round record marked "nicht eingesetzt" (3006 values 2 and 3, structure file
700/3006-selection.csv) is no game; the periods of general fields 72-74 in the notation of the
PGN standard's TimeControl tag (moves/seconds+increment, periods joined by ':'), or as written
when one of them is not in Swiss-Chess's form; a code byte the selection tables do not list read
as 0, as a record without a colour or status is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.formats.swt_files import Round, build, fields, structure, two_rounds
from zdb.formats.swt import read_swt, read_swt_document
from zdb.formats.swt.convert import time_control
from zdb.formats.trf import iter_games


@pytest.mark.parametrize("status", [2, 3])
def test_a_round_not_in_the_line_up_is_no_game(status: int) -> None:
    t = two_rounds(883)
    t.games[(1, 2)] = Round(1, 3, 3, status)  # Dieter-Jörg, round 2: both not in the line-up
    t.games[(2, 2)] = Round(2, 2, 1, status)
    document = read_swt_document(build(t))
    assert sorted(tuple(g) for g in iter_games(document)) == [(1, 1, 2, "1-0"), (1, 3, 4, "1/2-1/2"), (2, 4, 1, "0-1")]
    assert not document.errors


@pytest.mark.parametrize(
    ("periods", "pgn"),
    [
        (("40/90min + 30s/move", "Rest/30min+30s/move"), "40/5400+30:1800+30"),
        (("40/120min", "20/60min", "Rest/30min"), "40/7200:20/3600:1800"),
        (("Rest/60min",), "3600"),
        (("2 Stunden", "Rest 30 min"), "2 Stunden, Rest 30 min"),
        (("40/120min", "danach 30 min"), "40/120min, danach 30 min"),
        ((), None),
    ],
)
def test_the_periods_in_pgn_notation_or_as_written(periods: tuple[str, ...], pgn: str | None) -> None:
    assert time_control(periods) == pgn


def test_a_colour_or_status_byte_outside_the_code_tables_reads_as_zero() -> None:
    # 700/4000-selection.csv and 700/3006-selection.csv list no byte 0x09
    directory = "800"
    at = structure(directory)["start:fixtures_players"]  # player record 1, round 1
    data = bytearray(build(two_rounds(883)))
    for number in (4000, 4005):
        spec = fields("700", "individual-pairings")[number]
        data[at + spec.start] = 0x09
    first = read_swt(bytes(data)).pairings[0]
    assert (first.player, first.round, first.opponent, first.colour, first.status) == (0, 1, 2, 0, 0)


def test_the_cells_of_byes_and_adjourned_games_as_a_trf_line_has_them() -> None:
    t = two_rounds(883)
    t.games[(0, 1)] = Round(1, 2, 0, 5)  # Anna-Dieter adjourned: colours, no result
    t.games[(1, 1)] = Round(2, 1, 0, 5)
    t.games[(1, 2)] = Round(3, 0, 3)  # Dieter "spielfrei" with a point: TRF "0000 - U"
    t.games[(2, 2)] = Round(4, 0, 2)  # Jörg "spielfrei" with half a point: "0000 - H"
    document = read_swt_document(build(t))
    cells = {(p.start_no, c.round): (c.opponent, c.colour, c.result) for p in document.players for c in p.cells}
    assert cells == {
        (1, 1): (2, "w", None),
        (2, 1): (1, "b", None),
        (3, 1): (4, "w", "="),
        (4, 1): (3, "b", "="),
        (1, 2): (4, "b", "1"),
        (2, 2): (None, "-", "U"),
        (3, 2): (None, "-", "H"),
        (4, 2): (1, "w", "0"),
    }


def test_fide_titles_in_capitals_another_title_as_written_and_one_cell_per_round() -> None:
    t = two_rounds(883)
    t.players[0] = replace(t.players[0], title="wgm")  # FIDE's titles, TRF columns 6-8
    t.players[1] = replace(t.players[1], title="Dr")  # three bytes (2002)
    del t.games[(2, 2)]  # Jörg not paired in round 2: an empty cell
    document = read_swt_document(build(t))
    assert [p.title for p in document.players] == ["WGM", "Dr", None, None]
    assert [len(p.cells) for p in document.players] == [2, 2, 2, 2]
    empty = document.players[2].cells[1]
    assert (empty.round, empty.opponent, empty.colour, empty.result, empty.text) == (2, None, None, None, "")
