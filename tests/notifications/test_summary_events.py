"""Events that are one a subscription, not one a person: a from-scratch run that moves members
sends one ``ratings.recalculated`` with how many it moved and a link to the run's changes; an
edition of the rating list reaches every subscription (a referee's subtree too)."""

from __future__ import annotations

from tests.api.test_submissions import _games, _post
from tests.api.world import NAMES, World
from tests.db.scenario import recalc
from tests.notifications.helpers import deliver, fan_out, local_client, subscribe
from tests.notifications.receiver import Receiver, running
from zdb.auth.service import create_token, revoke_token
from zdb.db import engine_for, unit_of_work


def test_a_from_scratch_run_sends_one_summary_a_subscription(fresh: World) -> None:
    client = local_client(fresh.url)
    with running(Receiver()) as receiver:
        made = subscribe(client, fresh.tokens["club_c0327"], receiver.url, ["rating.changed"]).json()
        receiver.secret = made["secret"]
        fan_out(fresh.url)
        ratings = {pid: fresh.get(f"/players/{fresh.pkz[pid]}").json()["rating"] for pid in NAMES}
        late = {
            "acronym": "LAT",
            "federation": "C03",
            "end_date": "2026-08-01",
            "time_control": "40/5400+30:1800+30",
            "games": _games(4),
            "players": [{"pkz": fresh.pkz[p]} for p in "ABFG"],
        }
        assert _post(fresh, late).status_code == 201
        recalc(fresh.url, from_scratch=True)
        moved = [pid for pid in "ABEH" if fresh.get(f"/players/{fresh.pkz[pid]}").json()["rating"] != ratings[pid]]
        run = fresh.get("/recalculation/runs").json()["items"][0]["id"]
        fan_out(fresh.url)
        assert deliver(fresh.url).delivered == 1
        [event] = receiver.events()
        assert event["type"] == "ratings.recalculated"
        assert event["data"] == {
            "run": run,
            "from_scratch": True,
            "moved": len(moved),
            "links": {"changes": f"/api/v1/recalculation/runs/{run}/changes"},
        }
        assert len(moved) == 3


def test_an_edition_reaches_every_subscription(fresh: World) -> None:
    client = local_client(fresh.url)
    with running(Receiver()) as club, running(Receiver()) as referee:
        club.secret = subscribe(client, fresh.tokens["club_d0001"], club.url).json()["secret"]
        referee.secret = subscribe(client, fresh.tokens["referee_c"], referee.url, ["list.edition_published"]).json()[
            "secret"
        ]
        # a club whose token is revoked after it subscribed hears nothing more
        with unit_of_work(engine_for(fresh.url)) as session:
            gone = create_token(session, "club", "C0101", label="gone").secret
        assert subscribe(client, gone, club.url).status_code == 201
        with unit_of_work(engine_for(fresh.url)) as session:
            revoke_token(session, gone[:12])
        fan_out(fresh.url)
        admin = {"Authorization": f"Bearer {fresh.tokens['admin']}"}
        published = client.post("/api/v1/editions", json={"date": "2026-11-30", "name": "2026-Q4"}, headers=admin)
        assert published.status_code == 201, published.text
        fan_out(fresh.url)
        assert deliver(fresh.url).delivered == 2
        for receiver in (club, referee):
            [event] = receiver.events()
            assert event["type"] == "list.edition_published"
            assert event["data"]["name"] == "2026-Q4" and event["data"]["as_of"] == "2026-11-30"
            assert event["data"]["links"] == {"edition": "/api/v1/editions/2026-Q4"}
            assert receiver.refused == []
