"""The submission rules of ``zdb.tournaments.validation``, called directly: spec §3's time
control, dates, pairings and kinds (pure)."""

from __future__ import annotations

from datetime import date

import pytest

from zdb.tournaments.validation import (
    Period,
    check_dates,
    check_kind,
    check_pairings,
    check_time_control,
    parse_time_control,
    time_control_minutes,
)


@pytest.mark.parametrize(
    ("text", "periods"),
    [
        ("40/5400+30:1800+30", (Period(5400, 30, 40), Period(1800, 30))),
        ("5400", (Period(5400),)),
        ("90 min + 30 s", (Period(5400, 30),)),
        ("40 moves / 90 min, 30 min + 30 s", (Period(5400, 0, 40), Period(1800, 30))),
        ("G/90", (Period(5400),)),  # US Chess: game in 90 minutes
        ("Blitz", None),
        ("   ", None),
    ],
)
def test_time_controls_are_read(text: str, periods: tuple[Period, ...] | None) -> None:
    assert parse_time_control(text) == periods


@pytest.mark.parametrize(
    ("text", "youth", "minutes", "required"),
    [
        ("90 min", False, None, None),
        ("60 min + 30 s", False, None, None),  # spec §3: qualifies
        ("60 min + 10 s", False, "70", "90"),  # spec §3: does not
        ("3600+10", False, "70", "90"),
        ("60 min", True, None, None),  # U12: 60 minutes
        ("45 min", True, "45", "60"),
    ],
)
def test_time_control_minutes(text: str, youth: bool, minutes: str | None, required: str | None) -> None:
    problems = check_time_control(text, youth_u12=youth)
    if minutes is None:
        assert problems == []
        return
    [problem] = problems
    assert f"gives {minutes} minutes" in problem.message
    assert f"needs at least {required} minutes" in problem.message


def test_first_period_needs_60_minutes() -> None:
    periods = parse_time_control("40/3000:6000")
    assert periods is not None and time_control_minutes(periods) == 150
    [problem] = check_time_control("40/3000:6000", youth_u12=False)
    assert "first period" in problem.message and "50 minutes" in problem.message and "60 minutes" in problem.message
    assert "§" not in problem.message
    assert check_time_control("40/3000:6000", youth_u12=True) == []  # U12: 40 minutes
    assert check_time_control("40/3000+30:6000", youth_u12=False) == []  # 50 + 40 × 30 s = 70


def test_missing_or_unreadable_time_control() -> None:
    assert "required" in check_time_control(None, youth_u12=False)[0].message
    assert "cannot read" in check_time_control("Blitz", youth_u12=False)[0].message


def test_dates() -> None:
    assert check_dates(date(2026, 1, 1), date(2026, 1, 3), [date(2026, 1, 1), date(2026, 1, 3)], rounds=2) == []
    places = {p.place for p in check_dates(None, date(2026, 1, 3), [date(2026, 1, 2), date(2026, 1, 1)], rounds=3)}
    assert places == {"round_dates[1]", "round_dates"}
    late = check_dates(date(2026, 1, 1), date(2026, 1, 3), [date(2026, 1, 4)])
    assert [p.place for p in late] == ["round_dates[0]"]


def test_kinds_and_pairings() -> None:
    assert check_kind("team_season") == [] and check_kind("individual") == []
    assert check_kind("league")[0].place == "kind"
    problems = check_pairings(2, [(1, 1, 3, "1-0"), (None, 2, 2, "1-0"), (1, 1, 2, "2-0")])
    assert {p.place for p in problems} == {"games[0].black", "games[1]", "games[2]", "games[2].result"}
