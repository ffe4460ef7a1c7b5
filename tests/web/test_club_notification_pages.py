"""The club's notification page in German: a club signs in with its club token (a referee's is
refused there), subscribes an address and sees its secret once, reads the log of what was sent
with its answer code, sends one event again, and sees a paused subscription with why; a private
address is refused with the reason in German. Form posts name this site."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.api.test_submissions import _games, _post
from tests.api.world import World, build_world
from tests.notifications.helpers import deliver, fan_out
from tests.notifications.receiver import Receiver, running
from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.config import Settings


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _pages(world: World, *, local: bool) -> TestClient:
    settings = Settings(database_url=world.url, notifications_allow_http=local, notifications_allow_private=local)
    return TestClient(create_app(settings, recalculation=False), follow_redirects=False, headers=SAME_SITE)


def _signed_in(world: World, client: TestClient) -> TestClient:
    answer = client.post("/club/sign-in", data={"token": world.tokens["club_c0327"]})
    assert answer.status_code == 303 and answer.headers["location"] == "/club/notifications"
    return client


def test_a_club_subscribes_and_reads_its_log_in_german(fresh: World) -> None:
    client = _pages(fresh, local=True)
    assert client.get("/club/notifications").headers["location"] == "/club/sign-in"
    assert client.post("/club/sign-in", data={"token": fresh.tokens["referee_c"]}).status_code == 403
    assert "keinem Verein" in client.post("/club/sign-in", data={"token": fresh.tokens["referee_c"]}).text
    _signed_in(fresh, client)
    page = client.get("/club/notifications")
    assert page.status_code == 200 and "Benachrichtigungen für den Verein C0327" in page.text
    with running(Receiver(answer=503)) as receiver:
        made = client.post("/club/notifications", data={"url": receiver.url, "events": ["tournament.state_changed"]})
        assert made.status_code == 200, made.text
        secret = re.search(r"<code>(whsec_[^<]+)</code>", made.text)
        assert secret is not None and "nur dieses eine Mal" in made.text
        receiver.secret = secret.group(1)
        assert "whsec_" not in client.get("/club/notifications").text  # shown that once
        late = {
            "acronym": "LAT",
            "federation": "C03",
            "end_date": "2026-08-01",
            "time_control": "40/5400+30:1800+30",
            "games": _games(4),
            "players": [{"pkz": fresh.pkz[p]} for p in "ABFG"],
        }
        assert _post(fresh, late).status_code == 201
        fan_out(fresh.url)
        start = datetime.now(UTC)
        deliver(fresh.url, start)
        page = client.get("/club/notifications").text
        assert "tournament.state_changed" in page and "503" in page and "wartet" in page
        # Three days of failures: paused, and the page says so.
        moment = start
        while deliver(fresh.url, moment).given_up == 0 and moment < start + timedelta(hours=80):
            moment += timedelta(hours=1)
        page = client.get("/club/notifications").text
        assert "Angehalten: Die Ereignisse konnten drei Tage lang nicht zugestellt werden" in page
        receiver.answer = 200
        ids = re.findall(r'action="/club/notifications/(\d+)/deliveries/(\d+)/redeliver"', page)
        assert len(ids) == 1  # the failed one may be sent again
        resumed = client.post(f"/club/notifications/{ids[0][0]}/resume")
        assert resumed.status_code == 303
        assert client.post(f"/club/notifications/{ids[0][0]}/deliveries/{ids[0][1]}/redeliver").status_code == 303
        assert deliver(fresh.url).delivered == 1
        page = client.get("/club/notifications").text
        assert "zugestellt" in page and ">200<" in page
        assert len(receiver.received) == 1 and receiver.refused == []


def test_a_private_address_is_refused_on_the_page_in_german(fresh: World) -> None:
    client = _signed_in(fresh, _pages(fresh, local=False))
    refused = client.post("/club/notifications", data={"url": "https://10.0.0.7/hook"})
    assert refused.status_code == 422
    assert "verweist auf 10.0.0.7, eine Loopback-, link-lokale oder private Adresse" in refused.text
    plain = client.post("/club/notifications", data={"url": "http://93.184.215.14/hook"})
    assert plain.status_code == 422 and "nur über HTTPS" in plain.text
    foreign = TestClient(client.app, follow_redirects=False, headers={"Origin": "https://elsewhere.example"})
    assert foreign.post("/club/notifications", data={"url": "https://example.org/"}).status_code == 403
