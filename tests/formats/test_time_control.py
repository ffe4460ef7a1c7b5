"""The time controls referees and pairing programs write, each with the periods it means.

Known answers are worked out by hand from the notation (spec §3 counts the base times plus
60 × the increment): ``G/90+30`` is 90 minutes and 30 s per move, so 90 + 30 = 120 minutes;
``40/120+30/G`` is 120 minutes for 40 moves and 30 for the rest, 150 minutes; ``1:30 + 10 from
move 1`` is 90 minutes and 10 s per move from the first move, 90 + 10 = 100 minutes.
"""

from __future__ import annotations

import pytest

from zdb.formats.time_control import Period, encoded_time_control, parse_time_control, time_control_minutes
from zdb.tournaments.validation import check_time_control

FORMS = [
    # PGN TimeControl, seconds (read before this change as well)
    ("40/5400+30:1800+30", (Period(5400, 30, 40), Period(1800, 30)), 150),
    ("5400", (Period(5400),), 90),
    ("3600+10", (Period(3600, 10),), 70),
    # written out (read before)
    ("90 min + 30 s", (Period(5400, 30),), 120),
    ("40 moves / 90 min, 30 min + 30 s", (Period(5400, 0, 40), Period(1800, 30)), 120),
    # hours:minutes with an increment from move 1
    ("1:30 + 10 from move 1", (Period(5400, 10),), 100),
    ("1:30h + 30 s", (Period(5400, 30),), 120),
    # minutes ' and seconds ''
    ("90'+30''", (Period(5400, 30),), 120),
    ("90' + 30\"", (Period(5400, 30),), 120),
    ("90'/40 + 30' + 30''", (Period(5400, 0, 40), Period(1800, 30)), 120),
    # US Chess: G/ is the whole game, /G and SD/ the rest of it
    ("G/90+30", (Period(5400, 30),), 120),
    ("G/90", (Period(5400),), 90),
    ("40/120+30/G", (Period(7200, 0, 40), Period(1800)), 150),
    ("40/120, SD/30", (Period(7200, 0, 40), Period(1800)), 150),
    # numbers without a unit up to 240 are minutes
    ("90+30", (Period(5400, 30),), 120),
    ("40/120+30", (Period(7200, 30, 40),), 150),
    # FIDE's standard control, the increment from move 1 in both periods: 90 + 30 + 30 = 150
    ("90 min/40 moves + 30 min + 30 s from move 1", (Period(5400, 30, 40), Period(1800, 30)), 150),
    ("90 Min./40 Züge + 30 Min. + 30 Sek./Zug ab Zug 1", (Period(5400, 30, 40), Period(1800, 30)), 150),
    ("2 h", (Period(7200),), 120),
]


@pytest.mark.parametrize(("text", "periods", "minutes"), FORMS)
def test_each_form_is_read_with_the_minutes_it_means(text: str, periods: tuple[Period, ...], minutes: int) -> None:
    assert parse_time_control(text) == periods
    assert time_control_minutes(periods) == minutes


@pytest.mark.parametrize(
    "text",
    [
        "Blitz",
        "",
        "moves/time, increment",  # record 122 of the JaVaFo sample
        "300+3",  # 300 minutes or 300 seconds: not said
        "120/40",  # 120 moves in 40 minutes, or 120 minutes for 40 moves?
        "90 min + 30 apples",
    ],
)
def test_what_is_not_clear_is_not_read(text: str) -> None:
    assert parse_time_control(text) is None


def test_an_unreadable_time_control_is_refused_with_an_example_of_what_is_read() -> None:
    [problem] = check_time_control("xyz", youth_u12=False)
    assert problem.message == (
        "cannot read the time control 'xyz': write it as 90+30 (minutes + seconds per move), "
        "40/120+30 or PGN 40/5400+30:1800+30"
    )


@pytest.mark.parametrize(
    ("text", "youth", "minutes"),
    [
        ("G/60+10", False, "70"),  # 60 + 10
        ("1:00 + 10 from move 1", False, "70"),
        ("45'+10''", True, "55"),  # 45 + 10 < 60 for U12
    ],
)
def test_the_new_forms_are_checked_against_the_rule(text: str, youth: bool, minutes: str) -> None:
    [problem] = check_time_control(text, youth_u12=youth)
    required = 60 if youth else 90
    assert f"gives {minutes} minutes per player" in problem.message
    assert f"needs at least {required} minutes" in problem.message
    assert "§" not in problem.message
    assert check_time_control("G/60+30", youth_u12=False) == []  # 60 + 30 = 90


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # TRF26.pdf, record 222: its own examples
        ("90'+30\"", "5400+30"),
        ("100 min/40 moves + 15 min + 30 s from move 1", "40/6000+30:900+30"),
        # the registration's rate of play without "from move 1": the increment in the last period
        ("90 min/40 moves + 30 min + 30 s", "40/5400:1800+30"),
        ("2 h", "7200"),
    ],
)
def test_trf26_encodes_the_time_control(text: str, code: str) -> None:
    periods = parse_time_control(text)
    assert periods is not None
    assert encoded_time_control(periods) == code
