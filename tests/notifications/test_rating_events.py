"""A late tournament moves three members of a club: the club's software hears exactly that —
three ``rating.changed`` events with the figures of the player cards before and after (the known
answers, read through the public API, never from the notifications' tables), the tournament
submitted and evaluated — each signed, verified by a real receiver with ``standardwebhooks``.
Another club hears of its one member, and nothing arrives twice."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tests.api.test_submissions import _games, _post
from tests.api.world import NAMES, World
from tests.db.scenario import recalc
from tests.notifications.helpers import deliver, fan_out, local_client, subscribe
from tests.notifications.receiver import Receiver, running

#: the late tournament's players: A, B and (through later games) H of the club C0327 move, E does not;
#: F is the one member of D0001 who moves (worked out once on the world, see ``tests/api/world.py``)
PLAYERS = "ABFG"


def _cards(world: World) -> dict[str, tuple[int, int]]:
    cards = {pid: world.get(f"/players/{world.pkz[pid]}").json() for pid in NAMES}
    return {pid: (card["rating"], card["rating_index"]) for pid, card in cards.items()}


def _figures(pair: tuple[int, int]) -> dict[str, int]:
    return {"dwz": pair[0], "index": pair[1]}


def test_a_late_tournament_tells_each_club_of_its_moved_members(fresh: World) -> None:
    client = local_client(fresh.url)
    with running(Receiver()) as club, running(Receiver()) as other:
        made = subscribe(client, fresh.tokens["club_c0327"], club.url)
        assert made.status_code == 201, made.text
        club.secret = made.json()["secret"]
        assert made.json()["scope"] == "C0327"
        second = subscribe(client, fresh.tokens["club_d0001"], other.url, ["rating.changed"])
        assert second.status_code == 201, second.text
        other.secret = second.json()["secret"]
        fan_out(fresh.url)  # what the world's making left in the outbox is older than the subscriptions

        before = _cards(fresh)
        late = {
            "acronym": "LAT",
            "federation": "C03",
            "end_date": "2026-08-01",
            "time_control": "40/5400+30:1800+30",
            "games": _games(4),
            "players": [{"pkz": fresh.pkz[p]} for p in PLAYERS],
        }
        submitted = _post(fresh, late)
        assert submitted.status_code == 201, submitted.text
        late_id = submitted.json()["id"]
        recalc(fresh.url)
        after = _cards(fresh)
        run = fresh.get("/recalculation/runs").json()["items"][0]["id"]
        moved = sorted(pid for pid in NAMES if before[pid] != after[pid])
        assert {"A", "B", "H"} <= set(moved) and "E" not in moved  # the club's three

        fan_out(fresh.url)
        sent = deliver(fresh.url)
        assert (sent.delivered, sent.failed_attempts) == (6, 0)

        assert club.refused == [] and other.refused == []  # every signature verified
        rated = {e["data"]["person"]: e["data"] for e in club.events("rating.changed")}
        assert set(rated) == {fresh.pkz[p] for p in "ABH"}
        for pid in "ABH":
            data = rated[fresh.pkz[pid]]
            assert data["old"] == _figures(before[pid]) and data["new"] == _figures(after[pid])
            assert data["run"] == run and data["run_tournaments"] == [late_id]
            # A and B played the late tournament; H moved through his later games
            assert data["tournament"] == (late_id if pid in "AB" else None)
        states = [
            (e["data"]["tournament"], e["data"]["state"], e["data"]["run"])
            for e in club.events("tournament.state_changed")
        ]
        assert states == [(late_id, "submitted", None), (late_id, "evaluated", run)]
        assert len(club.received) == 5
        assert [e["data"]["person"] for e in other.events()] == [fresh.pkz["F"]]
        fr = other.events()[0]["data"]
        assert (fr["old"], fr["new"]) == (_figures(before["F"]), _figures(after["F"]))

        # The log says each went out once, answered 200; another pass sends nothing again.
        log = client.get(
            f"/api/v1/subscriptions/{made.json()['id']}/deliveries",
            headers={"Authorization": f"Bearer {fresh.tokens['club_c0327']}"},
        ).json()
        assert log["total"] == 5
        assert all(
            d["status"] == "delivered" and [a["status_code"] for a in d["attempts"]] == [200] for d in log["items"]
        )
        assert {d["event_id"] for d in log["items"]} == {r.event_id for r in club.received}
        fan_out(fresh.url)
        assert deliver(fresh.url).delivered == 0 and len(club.received) == 5
        # the metrics count them: six delivered (the two clubs'), none waiting, the outbox empty
        assert _metrics(client) == {
            ("zdb_notification_deliveries", "delivered"): 6,
            ("zdb_notification_deliveries", "pending"): 0,
            ("zdb_notification_deliveries", "failed"): 0,
            ("zdb_notification_oldest_pending_age_seconds", ""): 0,
            ("zdb_notification_subscriptions_paused", ""): 0,
            ("zdb_outbox_pending", ""): 0,
            ("zdb_outbox_oldest_pending_age_seconds", ""): 0,
        }


def _metrics(client: Any) -> dict[tuple[str, str], float]:
    wanted = ("zdb_notification", "zdb_outbox")
    return {
        (sample.name, sample.labels.get("status", "")): sample.value
        for family in text_string_to_metric_families(client.get("/metrics").text)
        if family.name.startswith(wanted)
        for sample in family.samples
    }


def test_another_token_sees_no_subscription_of_others(fresh: World) -> None:
    client = local_client(fresh.url)
    made = subscribe(client, fresh.tokens["club_c0327"], "http://127.0.0.1:9/x").json()
    other: dict[str, Any] = {"Authorization": f"Bearer {fresh.tokens['club_d0001']}"}
    assert client.get(f"/api/v1/subscriptions/{made['id']}", headers=other).status_code == 404
    assert client.delete(f"/api/v1/subscriptions/{made['id']}", headers=other).status_code == 404
    assert client.get("/api/v1/subscriptions", headers=other).json() == []
    # a referee subscribes for his subtree, never beyond it
    referee = {"Authorization": f"Bearer {fresh.tokens['referee_c']}"}
    body = {"url": "http://127.0.0.1:9/x", "federation": "D"}
    refused = client.post("/api/v1/subscriptions", json=body, headers=referee)
    assert refused.status_code == 422 and "outside" in refused.text
    assert (
        client.post("/api/v1/subscriptions", json={**body, "federation": "C03"}, headers=referee).json()["scope"]
        == "C03"
    )
    # the public subscribes to nothing
    assert client.post("/api/v1/subscriptions", json=body).status_code == 401
