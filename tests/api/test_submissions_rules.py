"""The submission rules through the API: the problems only the database can tell (federations,
players) reported together in one answer (the pure rules: ``tests/tournaments/test_validation.py``)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from tests.api.test_submissions import _body, _counts, _german_trf, _headers, _post, _post_trf
from tests.api.world import World
from tests.db.scenario import differences, recalc, wait_for_a_blocked_writer
from zdb.auth.service import authenticate
from zdb.db import engine_for, unit_of_work
from zdb.endpoints.idempotency import StoredAnswer, claim, remember
from zdb.formats.trf import parse_trf


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
    assert set(errors) == {
        "body.acronym",
        "body.federation",
        "body.players[0].pkz",
        "body.players[2]",
        "body.players[3]",
        "body.players[4].club",
        "body.players[6]",
    }
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
        f"/api/v1/tournaments/{tid}/trf",
        params={"acronym": "TRF", "federation": "C03"},
        content=corrected,
        headers=headers,
    )
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

    first = StoredAnswer(201, {"id": 42}, "/api/v1/tournaments/42", tournament_id=42)
    with unit_of_work(engine) as session:
        assert claim(session, caller, "twin", "digest", window=DAY) is None
        thread = threading.Thread(target=twin)
        thread.start()
        # The twin now waits on the key's row: blocked, with no answer yet.
        wait_for_a_blocked_writer(fresh.url, gave_up=lambda: bool(answers))
        assert answers == []
        remember(session, caller, "twin", first, tournament_id=42)
    thread.join(10)
    assert answers == [first]
