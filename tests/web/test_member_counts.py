"""The club and federation pages group a member count by thousands, as every other count of
the pages (``1.150 Mitglieder``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from fastapi.testclient import TestClient

from tests.web.html_text import text_of
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.service import import_rating_list
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list


def test_a_club_of_more_than_a_thousand_members_shows_the_count_grouped(postgres_url: str) -> None:
    data = synthetic_list(3, 1300)
    club = data.members[0].club_code
    people = {m.person_id: m for m in reversed(data.members)}  # each person once, in one club
    members = tuple(
        replace(m, club_code=club, member_no=n, status="active") for n, m in enumerate(people.values(), start=1)
    )
    count = len(members)
    assert count > 1000
    with unit_of_work(engine_for(postgres_url)) as session:
        import_rating_list(
            session, list_zip_bytes(replace(data, members=members)), file="big.zip", list_date=date(2026, 11, 30)
        )
    client = TestClient(create_app(Settings(database_url=postgres_url), recalculation=False))
    grouped = f"{count // 1000}.{count % 1000:03d}"
    assert f"{grouped} Mitglieder ({grouped} aktiv)" in text_of(client.get(f"/clubs/{club}").text)
    federation = text_of(client.get(f"/federations/{club[0]}").text)
    assert f"{club} · {grouped} Mitglieder" in federation
