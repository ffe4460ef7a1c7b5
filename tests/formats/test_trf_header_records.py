"""Header records given twice: with different values the file contradicts itself (an error on
the later line naming the first), with the same value a warning; a repeated date is read, so an
impossible one is an error on its line. Only 112 (one line per deputy arbiter) may repeat."""

from __future__ import annotations

from tests.formats.test_trf_problems import player_line, trf
from zdb.formats.trf import TrfDocument, parse_trf


def errors(doc: TrfDocument) -> list[str]:
    return [str(p) for p in doc.errors]


def _two_players() -> list[str]:
    return [player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "b", "0")])]


def test_a_second_end_date_that_cannot_be_is_refused_on_its_line() -> None:
    # Before: a warning "052 appears more than once; the first is used", and the file passed.
    doc = parse_trf(trf("012 Herbst", "052 2026/11/30", "052 2026/11/31", *_two_players()))
    assert errors(doc) == [
        "line 3, 052: record 052 is given twice: '2026/11/31' here, '2026/11/30' on line 2; keep the right one",
        "line 3, 052: '2026/11/31' is not a valid date",
    ]
    assert doc.end_date is not None and doc.end_date.isoformat() == "2026-11-30"


def test_contradicting_header_records_are_errors_naming_the_first_line() -> None:
    doc = parse_trf(
        trf(
            "012 Herbst",
            "042 2026/11/06",
            "122 90 min + 30 s",
            "012 Winter",
            "042 2026/11/07",
            "122 G/60",
            "XXR 1",
            *_two_players(),
            "XXR 2",
        )
    )
    found = {(p.line, p.field) for p in doc.errors}
    assert found == {(4, "012"), (5, "042"), (6, "122"), (10, "XXR")}
    assert "'Winter' here, 'Herbst' on line 1" in doc.errors[0].message
    assert doc.name == "Herbst" and doc.time_control == "90 min + 30 s"


def test_a_record_repeated_with_the_same_value_is_a_warning() -> None:
    doc = parse_trf(trf("012 Herbst", "052 2026/11/30", "052  2026/11/30", *_two_players()))
    assert doc.errors == ()
    assert [str(p) for p in doc.warnings] == ["line 3, 052: record 052 repeats line 2; the repetition is ignored"]


def test_deputy_arbiters_may_repeat() -> None:
    doc = parse_trf(trf("052 2026/11/30", "112 Anna Schmidt", "112 Bernd Weber", *_two_players()))
    assert doc.problems == ()
    assert doc.deputy_arbiters == ("Anna Schmidt", "Bernd Weber")
