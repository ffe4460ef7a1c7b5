"""The tournament's dates of an SWT (general fields 70 and 71, free text in Swiss-Chess) read in
either form a referee types: 18.09.2026 or 2026-09-18; day and month differ, so that a swap shows."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from tests.formats.swt_files import build, two_rounds
from zdb.formats.swt import read_swt_document


@pytest.mark.parametrize(
    ("start", "end"),
    [("18.09.2026", "20.09.2026"), ("2026-09-18", "2026-09-20"), ("8.9.2026", "2026-09-20")],
)
def test_the_dates_are_read_in_either_form(start: str, end: str) -> None:
    expected_start = date(2026, 9, 8) if start == "8.9.2026" else date(2026, 9, 18)
    document = read_swt_document(build(replace(two_rounds(800), start_date=start, end_date=end)))
    assert (document.start_date, document.end_date) == (expected_start, date(2026, 9, 20))
    assert document.problems == ()


def test_a_date_in_neither_form_is_ignored_with_a_warning() -> None:
    document = read_swt_document(build(replace(two_rounds(800), start_date="2026-9-18")))
    assert document.start_date is None
    (problem,) = document.problems
    assert (problem.field, problem.message) == ("Datum Start", "'2026-9-18' is not a date (DD.MM.YYYY); ignored")


def test_the_first_and_last_plausible_years_are_read_and_a_later_end_is_an_error() -> None:
    document = read_swt_document(build(replace(two_rounds(800), start_date="01.01.1900", end_date="31.12.2099")))
    assert (document.start_date, document.end_date) == (date(1900, 1, 1), date(2099, 12, 31))
    assert document.problems == ()
    document = read_swt_document(build(replace(two_rounds(800), end_date="01.01.2100")))
    assert document.end_date is None
    assert [(p.field, p.message) for p in document.errors] == [
        ("Datum Ende", "'01.01.2100' is not a plausible date: a tournament's dates lie between 1900 and 2099")
    ]
