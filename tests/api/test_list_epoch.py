"""The epoch rule over the API: a tournament ending on or before the date of the list that
brought a participant in is refused, naming him; one ending the day after is taken."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from fastapi.testclient import TestClient

from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work
from zdb.lists.service import import_rating_list
from zdb.players.models import Player
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

LIST_DATE = date(2026, 5, 31)


def _body(pkz: list[int], end: date, federation: str) -> dict[str, Any]:
    start = end - timedelta(days=2)
    games = [
        {"round": 1, "board": 1, "white": 1, "black": 2, "result": "1-0"},
        {"round": 2, "board": 1, "white": 2, "black": 1, "result": "1/2-1/2"},
    ]
    return {
        "acronym": "EPO",
        "name": "Pfingstturnier",
        "federation": federation,
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
        "round_dates": [start.isoformat(), end.isoformat()],
        "time_control": "40/5400+30:1800+30",
        "players": [{"pkz": number} for number in pkz],
        "games": games,
    }


def test_a_tournament_inside_the_list_is_refused_naming_the_player(client: TestClient, database_url: str) -> None:
    data = synthetic_list(3, 40)
    with unit_of_work(engine_for(database_url)) as session:
        import_rating_list(session, list_zip_bytes(data), file="liste.zip", list_date=LIST_DATE, skip_problems=True)
        secret = create_token(session, "admin", label="staff").secret
        first, second = data.members[0], data.members[1]
        players = [
            session.query(Player).filter(Player.external_id == member.person_id).one() for member in (first, second)
        ]
    headers = {"Authorization": f"Bearer {secret}"}
    pkz = [p.pkz for p in players]
    federation = first.club_code[:3]

    refused = client.post("/api/v1/tournaments", json=_body(pkz, LIST_DATE, federation), headers=headers)

    assert refused.status_code == 422, refused.text
    errors = refused.json()["errors"]
    assert [e["place"] for e in errors] == ["body.players[0]", "body.players[1]"]
    assert f"{players[0].given_name} {players[0].surname} ({pkz[0]})" in errors[0]["message"]
    assert "2026-05-31" in errors[0]["message"]

    taken = client.post(
        "/api/v1/tournaments", json=_body(pkz, LIST_DATE + timedelta(days=1), federation), headers=headers
    )
    assert taken.status_code == 201, taken.text
