"""The submission rules: spec §3's time control, dates, pairings and kinds (pure), and the
problems only the database can tell (federations, players) reported together in one answer."""

from __future__ import annotations

import threading
import time
from datetime import date, timedelta

import pytest

from tests.api.test_submissions import _body, _counts, _german_trf, _headers, _post, _post_trf
from tests.api.world import World
from tests.db.scenario import differences, recalc
from zdb.api.idempotency import StoredAnswer, claim, remember
from zdb.auth.service import authenticate
from zdb.db import engine_for, unit_of_work
from zdb.formats.trf import parse_trf
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


def test_database_problems_in_one_answer(fresh: World) -> None:
    players = [
        {"pkz": 99_999_999},
        {"pkz": fresh.pkz["A"]},
        {"club_code": "C0327", "member_no": 1},  # Anna again
        {"club_code": "C0327", "member_no": 99},  # not found, no name
        {"surname": "Neu", "club": "C9999"},
        {"surname": "Zwilling", "club": "C0327", "club_code": "C0327", "member_no": 50},
        {"surname": "Zwilling", "given_name": "Zoe", "club": "C0327", "club_code": "C0327", "member_no": 50},
    ]
    before = _counts(fresh.url)
    answer = _post(fresh, _body(fresh, acronym="AB", federation="C9", players=players), "admin")
    assert answer.status_code == 422
    errors = {e["place"]: e["message"] for e in answer.json()["errors"]}
    assert set(errors) == {"body.acronym", "body.federation", "body.players[0].pkz", "body.players[2]",
                           "body.players[3]", "body.players[4].club", "body.players[6]"}  # fmt: skip
    assert str(fresh.pkz["A"]) in errors["body.players[2]"]
    assert _counts(fresh.url) == before


def test_name_and_birth_year_find_a_player(fresh: World) -> None:
    year = fresh.get(f"/players/{fresh.pkz['A']}").json()["birth_year"]
    players = [{"surname": "Müller", "given_name": "Anna", "birth_year": year}, {"pkz": fresh.pkz["B"]}]
    answer = _post(fresh, _body(fresh, players=players, games=[{"round": 1, "white": 1, "black": 2, "result": "1-0"}]))
    assert answer.status_code == 201, answer.text
    assert answer.json()["players"][0] == {"start_no": 1, "pkz": fresh.pkz["A"], "created": False}


def test_trf_correction_and_unrated_draws(fresh: World) -> None:
    text = _german_trf(fresh)
    tid = _post_trf(fresh, text).json()["id"]
    # Round 1 of players 1 and 4 becomes a draw before move 1 (D/D): not rated, not stored as a game.
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(("001    1", "001    4")):
            lines[k] = line[:98] + "D" + line[99:]
    corrected = "\n".join(lines) + "\n"
    assert parse_trf(corrected).ok
    headers = _headers(fresh, "referee_c", **{"Content-Type": "application/octet-stream"})
    answer = fresh.client.put(
        f"/api/v1/tournaments/{tid}/trf", params={"acronym": "TRF", "federation": "C03"}, content=corrected,
        headers=headers,
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 2
    crosstable = fresh.get(f"/tournaments/{tid}/crosstable").json()
    assert sum(len(row["games"]) for row in crosstable["rows"]) == 2 * 5
    assert recalc(fresh.url).clean
    assert differences(fresh.url) == []


def test_idempotency_key_length(fresh: World) -> None:
    answer = _post(fresh, _body(fresh), **{"Idempotency-Key": "k" * 201})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["place"] == "header.Idempotency-Key"


DAY = timedelta(days=1)


def test_concurrent_twins_get_one_answer(fresh: World) -> None:
    """The second of two concurrent requests under one key waits for the first and gets its answer."""
    if not fresh.url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers: there are no concurrent twins")
    engine = engine_for(fresh.url)
    with unit_of_work(engine) as session:
        caller = authenticate(session, fresh.tokens["referee_c"])
    answers: list[StoredAnswer | None] = []

    def twin() -> None:
        with unit_of_work(engine) as session:
            answers.append(claim(session, caller, "twin", "digest", window=DAY))

    first = StoredAnswer(201, {"id": 42}, "/api/v1/tournaments/42")
    with unit_of_work(engine) as session:
        assert claim(session, caller, "twin", "digest", window=DAY) is None
        thread = threading.Thread(target=twin)
        thread.start()
        time.sleep(0.3)  # the twin now waits on the key's row
        assert answers == []
        remember(session, caller, "twin", first, tournament_id=42)
    thread.join(10)
    assert answers == [first]
