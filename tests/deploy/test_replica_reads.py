"""Reads from a real streaming replica (``zdb.db_routing``, ``tests/deploy/replica.py``): the
public's reads come from it, writes and a caller's who identifies himself from the primary; a
replica that falls behind the bound or stops answering is skipped within seconds, and used
again when it has caught up or answers again.

Which database answered is told by the data: replay on the replica is paused, a player is
renamed on the primary; the replica still has the old name."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.api.world import NAMES, World, build_world
from tests.databases import database_copy
from tests.deploy.replica import Replica
from tests.deploy.services import wait
from tests.web.signed_in import signed_in
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player

pytestmark = pytest.mark.slow

OLD = NAMES["A"][0]
NEW = "Neumann"


@dataclass
class Routed:
    world: World
    replica: Replica
    client: TestClient

    def card(self, token: str | None = None) -> str:
        headers = {} if token is None else {"Authorization": f"Bearer {self.world.tokens[token]}"}
        answer = self.client.get(f"/api/v1/players/{self.world.pkz['A']}", headers=headers)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["surname"])

    def usable(self) -> bool:
        [state] = self.client.get("/api/v1/health/replicas").json()["replicas"]
        return bool(state["usable"])

    def rename(self, surname: str) -> None:
        with unit_of_work(engine_for(self.world.url)) as session:
            session.execute(update(Player).where(Player.pkz == self.world.pkz["A"]).values(surname=surname))


@pytest.fixture
def routed(
    replica: Replica,
    postgres_server: str,
    postgres_template: str,
    request: pytest.FixtureRequest,
) -> Iterator[Routed]:
    bound, every = getattr(request, "param", (30.0, 0.2))
    with database_copy(postgres_server, postgres_template, "zdb_replica") as url:
        world = build_world(url)
        world.client.close()
        name = url.rsplit("/", 1)[1]
        replica.has(name)
        replica.settle(url)
        settings = Settings(
            database_url=url,
            replica_urls=(replica.url(name),),
            replica_max_lag_seconds=bound,
            replica_check_seconds=every,
        )
        try:
            with TestClient(create_app(settings, recalculation=False)) as client:
                made = Routed(world, replica, client)
                wait(made.usable, 10, "the replica in use")
                yield made
        finally:
            replica.resume()
            if not replica.answers():
                replica.start()


def test_the_public_reads_the_replica_a_caller_with_a_token_the_primary(routed: Routed) -> None:
    assert routed.card() == OLD
    routed.replica.pause()
    routed.rename(NEW)
    assert routed.card() == OLD  # the replica has not replayed the change
    assert routed.card(token="admin") == NEW  # staff read the primary
    assert routed.card(token="referee_c") == NEW  # so does a referee, who may have just written
    page = routed.client.get(f"/players/{routed.world.pkz['A']}")
    assert OLD in page.text and NEW not in page.text
    signed = signed_in(routed.world)
    mine = signed.get(f"/players/{routed.world.pkz['A']}")
    assert NEW in mine.text  # a signed-in referee's pages read the primary
    # a club pull of the public, from the replica: the old name
    members = routed.client.get("/api/v1/clubs/C0327/ratings").json()["items"]
    assert OLD in {m["surname"] for m in members}
    # writes go to the primary while the replica stands still
    admin = {"Authorization": f"Bearer {routed.world.tokens['admin']}"}
    made = routed.client.post("/api/v1/editions", json={"date": "2026-09-30", "name": "2026-Q3"}, headers=admin)
    assert made.status_code == 201, made.text
    routed.replica.resume()
    wait(lambda: routed.card() == NEW, 30, "the replica to replay the change")


@pytest.mark.parametrize("routed", [(1.0, 0.2)], indirect=True)
def test_a_replica_behind_the_bound_is_skipped_and_used_again_when_caught_up(routed: Routed) -> None:
    routed.replica.pause()
    routed.rename(NEW)
    wait(lambda: not routed.usable(), 15, "the lagging replica to be skipped")
    assert routed.card() == NEW  # from the primary now
    metrics = routed.client.get("/metrics").text
    assert 'zdb_replica_usable{replica="' in metrics and "zdb_replica_lag_seconds" in metrics
    lag = routed.client.get("/api/v1/health/replicas").json()["replicas"][0]["lag_seconds"]
    assert lag is not None and lag > 1.0
    routed.replica.resume()
    wait(routed.usable, 15, "the replica to be used again")
    routed.replica.pause()  # the replica answers again: it still has the name it replayed
    routed.rename("Third")
    assert routed.card() == NEW
    routed.replica.resume()


def test_a_replica_that_stops_answering_is_skipped_and_used_again(routed: Routed) -> None:
    routed.replica.stop("immediate")
    try:
        wait(lambda: not routed.usable(), 15, "the lost replica to be skipped")
        assert routed.client.get(f"/players/{routed.world.pkz['A']}").status_code == 200
        assert routed.client.get("/api/v1/clubs/C0327/ratings").status_code == 200
        assert routed.client.get("/api/v1/health/replicas").json()["replicas"][0]["lag_seconds"] is None
    finally:
        routed.replica.start()
    wait(routed.usable, 30, "the replica to be used again")
    routed.replica.pause()
    routed.rename(NEW)
    assert routed.card() == OLD  # from the replica again
    routed.replica.resume()


@pytest.mark.parametrize("routed", [(30.0, 3600.0)], indirect=True)
def test_a_replica_lost_between_two_measurements_fails_no_read(routed: Routed) -> None:
    """The next measurement is an hour away: the requests themselves find the replica gone."""
    routed.replica.stop("immediate")
    try:
        assert routed.client.get("/api/v1/clubs/C0327").status_code == 200  # a session's read
        assert not routed.usable()  # skipped at once
        assert routed.client.get("/clubs/C0327").status_code == 200
        assert routed.card() == OLD
    finally:
        routed.replica.start()


#: the public's reads at every door, each answered from the replica (a replica is read-only: a
#: read that wrote would fail there)
PUBLIC_READS = [
    "/api/v1/players/{A}",
    "/api/v1/players?name=Mueller",
    "/api/v1/clubs/C0327",
    "/api/v1/clubs/C0327/ratings",
    "/api/v1/clubs/C0327/ratings?at=2026-09-30",
    "/api/v1/federations",
    "/api/v1/tournaments",
    "/api/v1/editions",
    "/",
    "/players/{A}",
    "/clubs/C0327",
    "/federations",
    "/calendar",
    "/search/results?q=Mueller",
    "/embed/players/{A}/latest",
    "/dsbwertungsportal/rs/dwz/dwzliste/persons",
    "/dsbwertungsportal/rs/dwz/dwzliste/clubs",
    "/php/dewis/verein.php?zps=C0327",
    "/php/dewis/spieler.php?pkz={A}",
]


def test_every_public_read_is_answered_from_the_replica(routed: Routed) -> None:
    routed.replica.pause()
    routed.rename(NEW)
    for path in PUBLIC_READS:
        answer = routed.client.get(path.format(A=routed.world.pkz["A"]))
        assert answer.status_code == 200, (path, answer.text[:300])
        assert NEW not in answer.text, path  # the replica's data: the change is not replayed there
    assert routed.usable()  # and no read found it failing


def test_without_replicas_every_read_is_the_primary_s(routed: Routed) -> None:
    app = create_app(Settings(database_url=routed.world.url), recalculation=False)
    assert app.state.replicas is None
    routed.replica.pause()
    routed.rename(NEW)
    with TestClient(app) as client:
        answer = client.get(f"/api/v1/players/{routed.world.pkz['A']}")
        assert answer.json()["surname"] == NEW
        assert client.get("/api/v1/health/replicas").json() == {"max_lag_seconds": None, "replicas": []}
