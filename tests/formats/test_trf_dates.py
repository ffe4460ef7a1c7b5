"""Dates: every written form seen in TRF files, per-round dates, the end date and its fallbacks."""

from __future__ import annotations

from datetime import date

import pytest

from tests.formats.test_trf_problems import player_line, trf
from zdb.formats.trf import parse_trf

PLAYER = player_line(1, "A")


def played(rounds: int) -> tuple[str, str]:
    """Two players who drew every one of ``rounds`` rounds: a finished tournament for the files
    whose 132 line announces that many rounds."""
    return (
        player_line(1, "A", [(2, "wb"[k % 2], "=") for k in range(rounds)]),
        player_line(2, "B", [(1, "bw"[k % 2], "=") for k in range(rounds)]),
    )


def round_dates(*dates: str, first_column: int = 92) -> str:
    """A 132 line with one date per round, the first at ``first_column`` (TRF26: 92)."""
    line = "132".ljust(first_column - 1)
    return line + "".join(f"{d:<10}" for d in dates).rstrip()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2020/05/29", date(2020, 5, 29)),
        ("2020-05-29", date(2020, 5, 29)),
        ("29.05.2020", date(2020, 5, 29)),
        ("29/05/2020", date(2020, 5, 29)),
        ("May 29, 2020", date(2020, 5, 29)),
        ("29 May 2020", date(2020, 5, 29)),
        ("29. Mai 2020", date(2020, 5, 29)),
        ("20200529", date(2020, 5, 29)),
    ],
)
def test_unambiguous_forms_are_read_without_problems(text: str, expected: date) -> None:
    doc = parse_trf(trf(f"052 {text}", PLAYER))
    assert doc.end_date == expected
    assert doc.end_date_source == "052"
    assert doc.problems == ()


@pytest.mark.parametrize("text", ["20/05/29", "20.05.29"])
def test_two_digit_forms_are_read_against_the_four_digit_start(text: str) -> None:
    doc = parse_trf(trf("042 2020/05/28", f"052 {text}", PLAYER))
    assert doc.end_date == date(2020, 5, 29)
    assert doc.problems == ()


def test_day_month_order_is_taken_from_the_other_date_of_the_file() -> None:
    # 24/09/2010 can only be DD/MM/YYYY, so 02/10/2010 is 2 October (JaVaFo's Gros sample).
    doc = parse_trf(trf("042 24/09/2010", "052 02/10/2010", PLAYER))
    assert (doc.start_date, doc.end_date) == (date(2010, 9, 24), date(2010, 10, 2))
    assert doc.problems == ()


def test_an_ambiguous_slash_date_is_read_day_first_with_a_warning() -> None:
    doc = parse_trf(trf("052 05/06/2024", PLAYER))
    assert doc.end_date == date(2024, 6, 5)
    (problem,) = doc.problems
    assert problem.line == 1 and "ambiguous" in problem.message and "read as DD.MM.YYYY" in problem.message


def test_us_order_is_used_only_when_nothing_else_is_valid_and_said() -> None:
    doc = parse_trf(trf("042 05/29/2024", "052 05/30/2024", PLAYER))
    assert (doc.start_date, doc.end_date) == (date(2024, 5, 29), date(2024, 5, 30))
    assert [p.line for p in doc.warnings] == [1] and "MM/DD/YYYY" in doc.warnings[0].message


def test_round_dates_day_before_month_are_recognised_and_reported() -> None:
    # ICU Bunratty 2011: 042 25.02.2011 but 132 11.25.02 (YY.DD.MM).
    doc = parse_trf(
        trf("042 25.02.2011", "052 27.02.2011", round_dates("11.25.02", "11.26.02", "11.27.02"), *played(3))
    )
    assert doc.round_dates == (date(2011, 2, 25), date(2011, 2, 26), date(2011, 2, 27))
    (problem,) = doc.problems
    assert problem.line == 3 and "YY.DD.MM" in problem.message and problem.severity.value == "warning"


def test_two_digit_dates_use_start_and_end_to_decide() -> None:
    # 10.11.06 alone could be 2010-11-06 or 2010-06-11; the season's other dates decide.
    doc = parse_trf(trf("042 10.09.13", "052 11.03.13", round_dates("10.09.13", "10.11.06", "11.03.13"), *played(3)))
    assert doc.start_date == date(2010, 9, 13) and doc.end_date == date(2011, 3, 13)
    assert doc.round_dates == (date(2010, 9, 13), date(2010, 11, 6), date(2011, 3, 13))
    assert doc.problems == ()


def test_german_short_dates_are_read_day_first_when_year_first_is_implausible() -> None:
    doc = parse_trf(trf("042 13.09.10", "052 15.09.10", PLAYER))
    assert (doc.start_date, doc.end_date) == (date(2010, 9, 13), date(2010, 9, 15))
    assert [p.line for p in doc.warnings] == [1] and "DD.MM.YY" in doc.warnings[0].message


def test_ambiguous_short_date_follows_the_spec_and_warns() -> None:
    doc = parse_trf(trf(round_dates("24/01/05"), PLAYER))
    assert doc.round_dates == (date(2024, 1, 5),)
    assert doc.end_date == date(2024, 1, 5) and doc.end_date_source == "132"
    assert "ambiguous" in doc.warnings[0].message and "read as YY.MM.DD" in doc.warnings[0].message


@pytest.mark.parametrize("first_column", [92, 93])
def test_round_dates_at_column_92_or_93(first_column: int) -> None:
    doc = parse_trf(
        trf("042 2025/09/13", round_dates("25/09/13", "25/09/13", "25/09/14", first_column=first_column), *played(3))
    )
    assert doc.round_dates == (date(2025, 9, 13), date(2025, 9, 13), date(2025, 9, 14))
    assert doc.end_date == date(2025, 9, 14) and doc.end_date_source == "132"
    assert doc.problems == ()


def test_round_dates_not_in_round_columns_are_taken_in_order_with_a_warning() -> None:
    doc = parse_trf(trf("132 24/01/01 24/01/02", PLAYER))
    assert doc.round_dates == (date(2024, 1, 1), date(2024, 1, 2))
    assert any(p.field == "132" and "taken in order" in p.message for p in doc.warnings)


def test_a_blank_round_date_stays_unknown() -> None:
    doc = parse_trf(trf("052 2024/01/03", round_dates("24/01/01", "", "24/01/03"), PLAYER))
    assert doc.round_dates == (date(2024, 1, 1), None, date(2024, 1, 3))


def test_end_date_prefers_052_and_warns_about_rounds_after_it() -> None:
    doc = parse_trf(trf("052 2024/01/02", round_dates("24/01/01", "24/01/03"), PLAYER))
    assert doc.end_date == date(2024, 1, 2) and doc.end_date_source == "052"
    assert any("after the end date" in p.message for p in doc.warnings)


def test_bare_codes_and_placeholders_give_no_date() -> None:
    doc = parse_trf(trf("042", "052 --END DATE--", "132", PLAYER))
    assert doc.start_date is None and doc.end_date is None and doc.round_dates == ()
    messages = [str(p) for p in doc.problems]
    assert "line 2, 052: '--END DATE--' is not a date; taken as unknown" in messages
    assert any(p.line is None and "no end date" in p.message for p in doc.problems)
    assert doc.errors == ()


@pytest.mark.parametrize(
    ("birth", "year", "full"),
    [
        ("1978", 1978, None),
        ("1987/00/00", 1987, None),
        ("1990/11/30", 1990, date(1990, 11, 30)),
        ("1990-11-30", 1990, date(1990, 11, 30)),
        ("30.11.1990", 1990, date(1990, 11, 30)),
        ("0000/00/00", None, None),
        ("", None, None),
    ],
)
def test_birth_dates(birth: str, year: int | None, full: date | None) -> None:
    doc = parse_trf(trf("052 2024/01/01", player_line(1, "A", birth=birth)))
    player = doc.players[0]
    assert (player.birth_year, player.birth_date) == (year, full)
    assert doc.problems == ()


@pytest.mark.parametrize("birth", ["1990/13/01", "19x0", "31.02.1990"])
def test_malformed_birth_dates_are_errors(birth: str) -> None:
    doc = parse_trf(trf("052 2024/01/01", player_line(1, "A", birth=birth)))
    (problem,) = doc.errors
    assert problem.line == 2 and problem.field == "birth date" and repr(birth) in problem.message
