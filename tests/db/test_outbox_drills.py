"""Drills of the outbox and the notifications with real processes, as in ``test_drills``
(``zdb worker`` with beat, a Redis of the drills' own, PostgreSQL) and a real receiver:

* a serving process killed between its commit and the hand-off (it dies the moment it would wake
  the relay): the submission is stored with its outbox messages, nothing was handed on; a worker
  started afterwards evaluates it and the club's receiver hears of it;
* the worker killed in the middle of a delivery (the receiver holds the request): a second worker
  sends it again once the first one's lease has passed; every delivery is recorded delivered once.

Each prints its figures (events, attempts, time until all delivered; not asserted: the machine
is shared).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from tests.api.test_submissions import _games
from tests.api.world import World, build_world
from tests.conftest import ROOT
from tests.databases import _admin, _with_database
from tests.db.scenario import recalc
from tests.db.test_drills import Production, Redis, _stop, _wait, broker  # noqa: F401 - fixtures used here
from tests.notifications.receiver import Receiver, running
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.notifications.models import DeliveryAttempt, NotificationDelivery
from zdb.outbox.models import OutboxMessage
from zdb.tournaments.models import TournamentRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="the drills stop a Redis of their own"),
]

#: the workers may notify the receiver on this machine; they poll the outbox every second, and a
#: killed worker's delivery is let go after 15 s (above the attempt's own limits of 5 s and 10 s)
_NOTIFYING = {
    "ZDB_NOTIFICATIONS_ALLOW_HTTP": "1",
    "ZDB_NOTIFICATIONS_ALLOW_PRIVATE": "1",
    "ZDB_OUTBOX_POLL_SECONDS": "1",
    "ZDB_NOTIFICATION_LEASE_SECONDS": "15",
}


@pytest.fixture(scope="module")
def outbox_template(postgres_server: str, postgres_template: str) -> Iterator[tuple[str, World]]:
    name = f"zdb_outbox_{uuid.uuid4().hex[:8]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    url = _with_database(postgres_server, name)
    world = build_world(url)
    world.client.close()
    recalc(url)  # the world's pending tournament: the drills' runs evaluate their own only
    with engine_for(url).begin() as connection:  # what the world's making left: long handed on
        connection.execute(delete(OutboxMessage))
    engine_for(url).dispose()
    yield name, world
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def service(
    postgres_server: str,
    outbox_template: tuple[str, World],
    broker: Redis,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Production]:
    template, world = outbox_template
    name = f"zdb_outbox_drill_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    if not broker.answers():
        broker.start()
    broker.flush()
    url = _with_database(postgres_server, name)
    drill = Production(url, world, broker, tmp_path / "services.log", settings=dict(_NOTIFYING))
    try:
        yield drill
    finally:
        for process in reversed(drill.processes):
            _stop(process, signal.SIGKILL)
        engine_for(drill.url).dispose()
        with _admin(postgres_server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
        print(drill.log.read_text(errors="replace")[-(200_000 if failed else 3000) :])


def _late(world: World) -> dict[str, Any]:
    return {
        "acronym": "LAT",
        "federation": "C03",
        "end_date": "2026-08-01",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": world.pkz[p]} for p in "ABFG"],
    }


def _subscribe(drill: Production, receiver: Receiver) -> None:
    settings = Settings(database_url=drill.url, notifications_allow_http=True, notifications_allow_private=True)
    with TestClient(create_app(settings, recalculation=False)) as client:
        answer = client.post(
            "/api/v1/subscriptions",
            json={"url": receiver.url},
            headers={"Authorization": f"Bearer {drill.world.tokens['club_c0327']}"},
        )
    assert answer.status_code == 201, answer.text
    receiver.secret = answer.json()["secret"]


def _figures(url: str) -> tuple[int, int, int, int]:
    """Deliveries, of them delivered, attempts, and outbox messages not done."""
    with engine_for(url).connect() as connection:
        d = NotificationDelivery
        deliveries, delivered = connection.execute(
            select(func.count(), func.count().filter(d.status == "delivered"))
        ).one()
        attempts = connection.execute(select(func.count()).select_from(DeliveryAttempt)).scalar_one()
        waiting = connection.execute(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.done_at.is_(None))
        ).scalar_one()
    return int(deliveries), int(delivered), int(attempts), int(waiting)


#: the serving process of the first drill: it submits through the application, and dies the moment
#: the relay would be woken, after the commit, before anything is handed on
_DIES_AT_HAND_OFF = """
import json, os, signal, sys
from fastapi.testclient import TestClient
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.outbox.seam import set_waker

url, broker, token, body = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
client = TestClient(create_app(Settings(database_url=url, broker_url=broker), recalculation=False))
set_waker(engine_for(url), lambda: os.kill(os.getpid(), signal.SIGKILL))
client.post("/api/v1/tournaments", json=body, headers={"Authorization": f"Bearer {token}"})
print("the process lived on", flush=True)
"""


def test_a_process_killed_between_commit_and_hand_off_loses_nothing(
    service: Production, capsys: pytest.CaptureFixture[str]
) -> None:
    with running(Receiver()) as receiver:
        _subscribe(service, receiver)
        body = json.dumps(_late(service.world))
        arguments = [service.url, service.redis.url, service.world.tokens["referee_c"], body]
        died = subprocess.run(
            [sys.executable, "-c", _DIES_AT_HAND_OFF, *arguments],
            check=False,
            cwd=ROOT,
            capture_output=True,
            timeout=120,
        )
        assert died.returncode == -signal.SIGKILL, died.stderr.decode()[-3000:]
        assert b"lived on" not in died.stdout
        killed = time.monotonic()
        with engine_for(service.url).connect() as connection:
            stored = connection.execute(select(TournamentRecord.id, TournamentRecord.status)).all()
            kinds = connection.execute(
                select(OutboxMessage.kind).where(OutboxMessage.done_at.is_(None)).order_by(OutboxMessage.id)
            ).scalars()
            assert sorted(set(kinds)) == ["recalculate", "tournament.state"]  # committed, not yet handed on
        late = max(tid for tid, _ in stored)
        assert dict(stored)[late] == "received"

        service.worker()
        _wait(lambda: len(receiver.events("rating.changed")) == 3, 120, "the three members' events")
        _wait(lambda: len(receiver.events("tournament.state_changed")) == 2, 60, "the tournament's two states")
        _wait(lambda: _figures(service.url)[3] == 0, 60, "an empty outbox")
        _wait(lambda: len(set(_figures(service.url)[:2])) == 1, 60, "every delivery recorded")
        seconds = time.monotonic() - killed
        deliveries, delivered, attempts, _ = _figures(service.url)
        assert receiver.refused == [] and deliveries == delivered == len(receiver.received) == 5
        assert len({r.event_id for r in receiver.received}) == 5
        with capsys.disabled():
            print(
                f"\n[drill] killed between commit and hand-off: {deliveries} events, {attempts} attempts "
                f"({attempts - delivered} retries), all delivered {seconds:.1f} s after the kill "
                "(the worker's start included)"
            )


def test_the_worker_killed_mid_delivery(service: Production, capsys: pytest.CaptureFixture[str]) -> None:
    with running(Receiver()) as receiver:
        _subscribe(service, receiver)
        receiver.hold.set()  # the first request waits in the receiver: the worker is mid-delivery
        first = service.worker()
        settings = Settings(database_url=service.url)
        with TestClient(create_app(settings, recalculation=False)) as client:
            answer = client.post(
                "/api/v1/tournaments",
                json=_late(service.world),
                headers={"Authorization": f"Bearer {service.world.tokens['referee_c']}"},
            )
        assert answer.status_code == 201, answer.text
        _wait(receiver.arrived.is_set, 120, "the first delivery")
        _stop(first, signal.SIGKILL)  # the worker and its pool: no answer read, nothing recorded
        killed = time.monotonic()
        receiver.hold.clear()
        receiver.release.set()
        deliveries, delivered, _, _ = _figures(service.url)
        assert delivered < deliveries  # the killed worker's delivery was not recorded
        service.worker()
        _wait(lambda: _figures(service.url)[0] == _figures(service.url)[1] == 5, 120, "every delivery")
        seconds = time.monotonic() - killed
        deliveries, delivered, attempts, waiting = _figures(service.url)
        assert waiting == 0 and receiver.refused == []
        ids = [r.event_id for r in receiver.received]
        assert len(set(ids)) == 5  # every event arrived; the one in flight at the kill perhaps twice
        with engine_for(service.url).connect() as connection:
            ok = connection.execute(
                select(DeliveryAttempt.delivery_id, func.count())
                .where(DeliveryAttempt.ok.is_(True))
                .group_by(DeliveryAttempt.delivery_id)
            ).all()
        assert sorted(count for _, count in ok) == [1] * 5  # recorded delivered once each
        with capsys.disabled():
            print(
                f"\n[drill] worker killed mid-delivery: {deliveries} events, {attempts} recorded attempts, "
                f"{len(ids)} requests received ({len(ids) - len(set(ids))} repeated), all delivered "
                f"{seconds:.1f} s after the kill (a 15 s lease included)"
            )
