"""A round record marked "nicht eingesetzt" (3006 values 2 and 3, structure file
700/3006-selection.csv) is no game; the periods of general fields 72-74 in the notation of the
PGN standard's TimeControl tag (moves/seconds+increment, periods joined by ':'), or as written
when one of them is not in Swiss-Chess's form."""

from __future__ import annotations

import pytest

from tests.formats.swt_files import Round, build, two_rounds
from zdb.formats.swt import read_swt_document
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
