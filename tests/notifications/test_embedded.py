"""Embedded on SQLite (``zdb serve`` without a database URL): the relay is a thread of the serving
process. A submission through the API is evaluated by the recalculation's thread and the club's
receiver hears of it, with nobody driving the relay by hand."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.api.test_submissions import _games
from tests.api.world import build_world
from tests.notifications.helpers import subscribe
from tests.notifications.receiver import Receiver, running
from zdb.app import create_app
from zdb.config import Settings


def _until(condition: Callable[[], bool], seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def test_the_embedded_relay_evaluates_and_notifies(sqlite_url: str) -> None:
    world = build_world(sqlite_url)
    world.client.close()
    settings = Settings(
        database_url=sqlite_url,
        sweep_seconds=0.5,
        outbox_poll_seconds=0.5,
        notifications_allow_http=True,
        notifications_allow_private=True,
    )
    with running(Receiver()) as receiver, TestClient(create_app(settings)) as client:
        made = subscribe(client, world.tokens["club_c0327"], receiver.url)
        assert made.status_code == 201, made.text
        receiver.secret = made.json()["secret"]
        body = {
            "acronym": "LAT",
            "federation": "C03",
            "end_date": "2026-08-01",
            "time_control": "40/5400+30:1800+30",
            "games": _games(4),
            "players": [{"pkz": world.pkz[p]} for p in "ABFG"],
        }
        headers = {"Authorization": f"Bearer {world.tokens['referee_c']}", "Sec-Fetch-Site": "same-origin"}
        answer = client.post("/api/v1/tournaments", json=body, headers=headers)
        assert answer.status_code == 201, answer.text
        late = answer.json()["id"]

        def evaluated() -> bool:
            return any(e["data"]["state"] == "evaluated" for e in receiver.events("tournament.state_changed"))

        assert _until(evaluated)
        assert _until(lambda: len(receiver.events("rating.changed")) == 3)
        assert receiver.refused == []
        assert {e["data"]["person"] for e in receiver.events("rating.changed")} == {world.pkz[p] for p in "ABH"}
        assert client.get(f"/api/v1/tournaments/{late}").json()["status"] == "evaluated"
