"""The epoch rule over the API: a tournament ending on or before the date of the list that
brought a participant in is refused, naming him; one ending the day after is taken."""

from __future__ import annotations

import io
from datetime import date, timedelta
from typing import Any

from fastapi.testclient import TestClient

from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work
from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.lists.fide_import import import_fide_list
from zdb.lists.service import import_rating_list
from zdb.players.models import Player
from zdb.synthetic.fide_lists import write_fide_txt
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


def test_a_fide_id_without_a_rating_takes_the_newest_edition_before_the_start(
    client: TestClient, database_url: str
) -> None:
    """Spec §10: a newcomer without a DWZ starts from his FIDE rating; the submission names
    only his FIDE id, so the edition of 2026-06-01 (not the one of the start day) gives it."""
    data = synthetic_list(3, 40)
    editions = {date(2026, 5, 1): 1811, date(2026, 6, 1): 1822, date(2026, 6, 3): 1833}
    with unit_of_work(engine_for(database_url)) as session:
        import_rating_list(session, list_zip_bytes(data), file="liste.zip", list_date=LIST_DATE, skip_problems=True)
        for edition, rating in editions.items():
            text = io.BytesIO()
            write_fide_txt([_fide(4_699_991, rating)], text)
            import_fide_list(session, text.getvalue().splitlines(keepends=True), file="foa.txt", edition=edition)
        secret = create_token(session, "admin", label="staff").secret
        known = session.query(Player).filter(Player.external_id == data.members[0].person_id).one()
    body = _body([known.pkz], date(2026, 6, 5), data.members[0].club_code[:3])
    body["players"].append({"surname": "Neu", "given_name": "Nora", "fide_id": 4_699_991, "birth_year": 1999})
    answer = client.post("/api/v1/tournaments/preview", json=body, headers={"Authorization": f"Bearer {secret}"})
    assert answer.status_code == 200, answer.text
    preview = answer.json()
    assert [(w["place"], w["message"]) for w in preview["warnings"]] == [
        (
            "body.players[1]",
            "no FIDE rating given: the standard rating 1822 of FIDE's list of 2026-06-01 (FIDE id 4699991) is used",
        )
    ]
    newcomer = preview["rows"][1]
    assert (newcomer["r0"], newcomer["fide_start"]) == (1822, True)


def _fide(fide_id: int, rating: int) -> FidePlayer:
    return FidePlayer(
        fide_id,
        "Neu, Nora",
        "GER",
        "F",
        None,
        None,
        (),
        None,
        FideRating(rating),
        FideRating(None),
        FideRating(None),
        1999,
        "",
    )
