"""A complainant's private link is a key: whoever holds it reads the complaint. The request log
(``zdb.api.request_log``) writes its path with the key withheld, in the JSON and in the text
format, for the page and the API alike; the link the complainant is given is unchanged."""

from __future__ import annotations

import logging

import pytest

from tests.api.world import World, build_world
from zdb.api.request_log import JsonFormatter, TextFormatter


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def test_following_a_complaint_leaves_its_key_out_of_the_log(world: World, caplog: pytest.LogCaptureFixture) -> None:
    body = {
        "subject": "evaluation",
        "tournament": 1,
        "person": world.pkz["A"],
        "pkz": world.pkz["A"],
        "email": "anna.mueller@example.org",
        "text": "Meine Partie in Runde 2 endete remis.",
    }
    filed = world.client.post("/api/v1/complaints", json=body)
    assert filed.status_code == 201, filed.text
    link = filed.json()["follow"]
    secret = link.rsplit("/", 1)[-1]
    assert link == f"/complaints/follow/{secret}" and len(secret) >= 16  # the link as it always was
    with caplog.at_level(logging.INFO, logger="zdb.access"):
        assert world.client.get(link).status_code == 200
        assert world.client.get(f"/api/v1{link}").status_code == 200
        assert world.client.get(f"{link}?done=filed").status_code == 200
    records = [record for record in caplog.records if record.name == "zdb.access"]
    assert len(records) == 3
    lines = [formatter.format(record) for record in records for formatter in (JsonFormatter(), TextFormatter())]
    assert all(secret not in line for line in lines), lines
    assert [record.path for record in records] == [  # type: ignore[attr-defined]
        "/complaints/follow/<withheld>",
        "/api/v1/complaints/follow/<withheld>",
        "/complaints/follow/<withheld>",
    ]
