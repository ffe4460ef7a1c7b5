"""What a receiver that fails costs, and what is refused.

The relay is driven by hand with the moment it believes it is (``now``): the retries' pauses
are walked through without waiting for them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from standardwebhooks import Webhook

from tests.api.test_submissions import _games, _post
from tests.api.world import World
from tests.notifications.helpers import POLICY, deliver, fan_out, local_client, subscribe
from tests.notifications.receiver import Receiver, running
from zdb.notifications.delivery import DeliveryPolicy
from zdb.notifications.targets import TargetPolicy


def _late(world: World, acronym: str = "LAT") -> int:
    """A late tournament of its own day (an equal one would be refused as stored already)."""
    body = {
        "acronym": acronym,
        "federation": "C03",
        "end_date": f"2026-08-{1 + sum(map(ord, acronym)) % 28:02d}",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": world.pkz[p]} for p in "ABFG"],
    }
    answer = _post(world, body)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def _auth(world: World, token: str = "club_c0327") -> dict[str, str]:
    return {"Authorization": f"Bearer {world.tokens[token]}"}


def test_a_receiver_down_for_a_while_gets_every_event_once(fresh: World, capsys: object) -> None:
    client = local_client(fresh.url)
    with running(Receiver(answer=503)) as receiver:
        made = subscribe(client, fresh.tokens["club_c0327"], receiver.url, ["tournament.state_changed"]).json()
        receiver.secret = made["secret"]
        fan_out(fresh.url)
        for acronym in ("LAA", "LAB", "LAC"):
            _late(fresh, acronym)
        fan_out(fresh.url)
        start = datetime.now(UTC)
        # Down: three attempts of each event fail (at once, 30 s later, a minute after that).
        first = deliver(fresh.url, start)
        assert (first.delivered, first.failed_attempts) == (0, 3)
        assert deliver(fresh.url, start + timedelta(seconds=29)).failed_attempts == 0  # the pause is kept
        assert deliver(fresh.url, start + timedelta(seconds=31)).failed_attempts == 3
        assert deliver(fresh.url, start + timedelta(seconds=92)).failed_attempts == 3
        # Up again: the next attempt (two minutes after the third) delivers every one.
        receiver.answer = 200
        assert deliver(fresh.url, start + timedelta(seconds=212)).delivered == 3
        assert deliver(fresh.url, start + timedelta(hours=80)).delivered == 0  # nothing is sent again
        assert receiver.refused == []
        ids = [r.event_id for r in receiver.received]
        assert len(ids) == 3 == len(set(ids))
        log = client.get(f"/api/v1/subscriptions/{made['id']}/deliveries", headers=_auth(fresh)).json()["items"]
        assert all(d["status"] == "delivered" for d in log)
        assert all([a["status_code"] for a in d["attempts"]] == [503, 503, 503, 200] for d in log)
        assert all(a["latency_ms"] >= 0 for d in log for a in d["attempts"])
        with capsys.disabled():  # type: ignore[attr-defined]
            print("\n[notifications] receiver down, then up: 3 events, 9 failed attempts, 3 delivered once each")


def test_three_days_of_failures_pause_the_subscription_until_its_owner_resumes_it(fresh: World) -> None:
    client = local_client(fresh.url)
    with running(Receiver(answer=503)) as receiver:
        made = subscribe(client, fresh.tokens["club_c0327"], receiver.url, ["tournament.state_changed"]).json()
        receiver.secret = made["secret"]
        _late(fresh)
        fan_out(fresh.url)
        start = datetime.now(UTC)
        attempts = 0
        moment = start
        while moment < start + timedelta(hours=73):  # walk the backoff: 30 s doubling, at most 6 h
            done = deliver(fresh.url, moment)
            attempts += done.failed_attempts + done.given_up
            if done.given_up:
                break
            moment += timedelta(minutes=30)
        assert done.given_up == 1 and 10 <= attempts <= 30
        shown = client.get(f"/api/v1/subscriptions/{made['id']}", headers=_auth(fresh)).json()
        assert shown["status"] == "paused" and "could not be delivered for 72 hours" in shown["paused_reason"]
        # Paused: a new event waits; resumed, it goes out.
        _late(fresh, "LAD")
        fan_out(fresh.url)
        assert deliver(fresh.url, moment).delivered == 0
        receiver.answer = 200
        resumed = client.post(f"/api/v1/subscriptions/{made['id']}/resume", headers=_auth(fresh))
        assert resumed.status_code == 200 and resumed.json()["status"] == "active"
        assert deliver(fresh.url).delivered == 1
        # The failed one is sent again by hand, with its own webhook-id.
        log = client.get(f"/api/v1/subscriptions/{made['id']}/deliveries", headers=_auth(fresh)).json()["items"]
        failed = [d for d in log if d["status"] == "failed"]
        assert len(failed) == 1
        again = client.post(
            f"/api/v1/subscriptions/{made['id']}/deliveries/{failed[0]['id']}/redeliver", headers=_auth(fresh)
        )
        assert again.status_code == 202 and again.json()["status"] == "pending"
        assert deliver(fresh.url).delivered == 1
        assert receiver.received[-1].event_id == failed[0]["event_id"]
        twice = client.post(
            f"/api/v1/subscriptions/{made['id']}/deliveries/{failed[0]['id']}/redeliver", headers=_auth(fresh)
        )
        assert twice.status_code == 202  # delivered: it may be sent again


def test_a_rotated_secret_signs_beside_the_old_one_for_the_overlap(fresh: World) -> None:
    client = local_client(fresh.url)
    with running(Receiver()) as receiver:
        made = subscribe(client, fresh.tokens["club_c0327"], receiver.url, ["tournament.state_changed"]).json()
        rotated = client.post(f"/api/v1/subscriptions/{made['id']}/secret", headers=_auth(fresh)).json()
        assert rotated["secret"] != made["secret"] and rotated["previous_secret_until"] is not None
        receiver.secret = made["secret"]  # a receiver not yet switched still verifies
        _late(fresh)
        fan_out(fresh.url)
        assert deliver(fresh.url).delivered == 1
        receiver.secret = rotated["secret"]
        _late(fresh, "LAE")
        fan_out(fresh.url)
        assert deliver(fresh.url).delivered == 1
        assert receiver.refused == [] and len(receiver.received) == 2
        # after the overlap only the new secret signs: the old one no longer verifies
        receiver.secret = made["secret"]
        _late(fresh, "LAF")
        fan_out(fresh.url)
        assert deliver(fresh.url, datetime.now(UTC) + timedelta(hours=25)).delivered == 0
        assert receiver.refused == ["No matching signature found"]


def test_private_addresses_and_plain_http_are_refused(fresh: World) -> None:
    strict = fresh.client  # the service's defaults: HTTPS and public addresses only
    for url, says in [
        ("https://127.0.0.1/hooks", "127.0.0.1, a loopback"),
        ("https://localhost:8443/hooks", "127.0.0.1, a loopback"),
        ("https://10.1.2.3/hooks", "10.1.2.3"),
        ("https://192.168.0.10/hooks", "192.168.0.10"),
        ("https://169.254.169.254/latest/meta-data", "169.254.169.254"),
        ("https://[::1]/hooks", "::1"),
        ("https://[::ffff:10.0.0.1]/hooks", "::ffff:10.0.0.1"),
        ("http://93.184.215.14/hooks", "over HTTPS only"),
        ("https://user:pw@93.184.215.14/hooks", "user name or password"),
        ("ftp://93.184.215.14/hooks", "no HTTPS address"),
    ]:
        answer = subscribe(strict, fresh.tokens["club_c0327"], url)
        assert answer.status_code == 422, (url, answer.text)
        assert answer.json()["errors"][0]["place"] == "body.url" and says in answer.text, answer.text
    # A subscription made while private addresses were allowed is refused at delivery once they are not.
    with running(Receiver()) as receiver:
        made = subscribe(local_client(fresh.url), fresh.tokens["club_c0327"], receiver.url).json()
        receiver.secret = made["secret"]
        _late(fresh)
        fan_out(fresh.url)
        policy = DeliveryPolicy(target=TargetPolicy(allow_http=True, allow_private=False))
        assert deliver(fresh.url, policy=policy).failed_attempts >= 1
        assert receiver.received == []
        log = fresh.client.get(f"/api/v1/subscriptions/{made['id']}/deliveries", headers=_auth(fresh)).json()
        attempt = log["items"][0]["attempts"][0]
        assert attempt["status_code"] is None and "127.0.0.1, a loopback" in attempt["error"]
        assert deliver(fresh.url, policy=POLICY).delivered == 0  # waits for its pause: not sent at once


def test_unknown_event_types_are_refused_by_name(fresh: World) -> None:
    answer = subscribe(local_client(fresh.url), fresh.tokens["club_c0327"], "http://127.0.0.1:9/", ["rating.changd"])
    assert answer.status_code == 422 and "rating.changd" in answer.text and "rating.changed" in answer.text


def test_the_reference_implementation_verifies_what_is_signed() -> None:
    from zdb.notifications.signing import new_secret, signed_headers

    secret, body = new_secret(), b'{"type":"x","data":{}}'
    headers = signed_headers("msg_1", body, [secret], datetime.now(UTC))
    assert Webhook(secret).verify(body, headers) == {"type": "x", "data": {}}
