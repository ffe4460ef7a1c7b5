"""The list-release day under load (locust): one API process group on PostgreSQL alone, then the
scaled set-up — two API process groups, a streaming replica and nginx's proxy cache in front.

    python benchmarks/release_day.py [--scale 0.01] [--users 40] [--seconds 30]
        [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379/8]
        [--json]

Needs the ``bench`` extra (``pip install -e '.[bench]'``: locust), Debian's nginx, and a
PostgreSQL that allows a streaming replica (``.ci/run`` prepares the machine's; README "Growing
past one machine"). A fresh database ``zdb_releaseday`` gets the synthetic federation
(``zdb.synthetic``), recalculated, and an edition published: the release.

The day's crowd, as locust's users (``--users`` of them, in these proportions):

- club software (most): each pulls its club's list and members file of the new edition
  (``/api/v1/clubs/{code}/ratings?edition=…``, ``/api/v1/clubs/{code}/members.csv?edition=…``),
  and the live list;
- people reading pages and cards (``/players/{pkz}``, ``/api/v1/players/{pkz}``, ``/clubs/{code}``);
- referees (a few): submit a small tournament with a token and read it back;
- one scraper: walks every player's card as fast as it can, from one address.

Each simulated client has an address of its own (``X-Forwarded-For``, which the API trusts from
127.0.0.1 and the benchmark's nginx passes on), so the rate limits (on, as in production) count
per client: the scraper meets them, nobody else should. Reported per set-up: requests/s, p50 and
p99 per kind, the share answered from the proxy cache, the scraper's 429s, errors (anything but
a 2xx, a 304, or the scraper's 429). Figures, not assertions: the machine is shared.
"""

from __future__ import annotations

# locust patches the standard library with gevent: first, before anything opens a socket
from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from datetime import date, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
from locust import HttpUser, between, constant, task  # noqa: E402
from locust.env import Environment  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scratch_database import fresh_database  # noqa: E402 - beside this script
from sqlalchemy import text  # noqa: E402

from tests.api.test_submissions import _games  # noqa: E402
from tests.deploy.replica import Replica  # noqa: E402
from tests.deploy.services import Api, Nginx  # noqa: E402

DATABASE = "zdb_releaseday"
EDITION = "release"

#: what the users share: filled once the federation is loaded
SHARED: dict[str, Any] = {}
TALLY: Counter[str] = Counter()
_ADDRESSES = itertools.count(1)


def _address() -> str:
    n = next(_ADDRESSES)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def _load(url: str, scale: float) -> dict[str, Any]:
    from zdb.auth.service import create_token
    from zdb.db import create_db_engine, unit_of_work
    from zdb.editions.service import publish_edition
    from zdb.exchange.synthetic import load_register, load_tournaments
    from zdb.migrate import upgrade
    from zdb.recalculation.run import run_recalculation
    from zdb.synthetic import generate

    upgrade(url)
    engine = create_db_engine(url)
    try:
        world = generate(seed=1, scale=scale)
        with unit_of_work(engine) as session:
            load_register(session, world)
            load_tournaments(session, world)
        run_recalculation(engine, from_scratch=True)
        with unit_of_work(engine) as session:
            publish_edition(session, date.today(), name=EDITION, by="benchmark", today=date.today())
        with engine.connect() as connection:
            connection.execute(text("ANALYZE"))
            members = connection.execute(
                text("SELECT club_code, player_pkz FROM memberships WHERE valid_until IS NULL")
            ).all()
        clubs = sorted({club for club, _ in members})
        region = clubs[0][0]
        regional = [pkz for club, pkz in members if club.startswith(region)]
        with unit_of_work(engine) as session:
            referee = create_token(session, "referee", region, label="benchmark referee").secret
    finally:
        engine.dispose()
    return {
        "clubs": clubs,
        "players": sorted({pkz for _, pkz in members}),
        "regional": regional,
        "district": clubs[0][:3],
        "referee": referee,
    }


def _kind_counted(response: Any) -> None:
    if response.headers.get("x-cache-status") == "HIT":
        TALLY["cache_hits"] += 1
    TALLY["requests"] += 1


class Client(HttpUser):
    abstract = True

    def on_start(self) -> None:
        self.client.headers["X-Forwarded-For"] = _address()

    def get(self, path: str, name: str, **headers: str) -> None:
        with self.client.get(path, name=name, headers=headers, catch_response=True) as response:
            _kind_counted(response)
            if response.status_code in (200, 304):
                response.success()
            else:
                TALLY[f"error {response.status_code}"] += 1
                response.failure(f"{response.status_code}")


class ClubSoftware(Client):
    weight = 10
    wait_time = between(0.5, 2.0)

    @task
    def pull(self) -> None:
        # each pull is another club's software, from its own address (a club pulls once a day)
        self.client.headers["X-Forwarded-For"] = _address()
        club = random.choice(SHARED["clubs"])
        self.get(f"/api/v1/clubs/{club}/ratings?edition={EDITION}", "club list (edition)")
        self.get(f"/api/v1/clubs/{club}/members.csv?edition={EDITION}", "members file (edition)")
        self.get(f"/api/v1/clubs/{club}/ratings", "club list (live)")


class Reader(Client):
    weight = 6
    wait_time = between(0.5, 2.0)

    @task(3)
    def card(self) -> None:
        self.get(f"/api/v1/players/{random.choice(SHARED['players'])}", "card")

    @task(2)
    def player_page(self) -> None:
        self.get(f"/players/{random.choice(SHARED['players'])}", "player page")

    @task(1)
    def club_page(self) -> None:
        self.get(f"/clubs/{random.choice(SHARED['clubs'])}", "club page")


class Referee(Client):
    weight = 1
    wait_time = between(3.0, 6.0)

    @task
    def submit(self) -> None:
        auth = {"Authorization": f"Bearer {SHARED['referee']}"}
        end = date(2019, 1, 6) + timedelta(days=7 * random.randrange(300))
        players = random.sample(SHARED["regional"], 4)
        body = {
            "acronym": "RLD",
            "name": "Release day",
            "federation": SHARED["district"],
            "end_date": end.isoformat(),
            "start_date": (end - timedelta(days=2)).isoformat(),
            "round_dates": [(end - timedelta(days=d)).isoformat() for d in (2, 1, 0)],
            "time_control": "40/5400+30:1800+30",
            "players": [{"pkz": pkz} for pkz in players],
            "games": _games(4),
        }
        with self.client.post("/api/v1/tournaments", json=body, headers=auth, name="submit", catch_response=True) as r:
            TALLY["requests"] += 1
            if r.status_code != 201:
                TALLY[f"error {r.status_code}"] += 1
                r.failure(f"{r.status_code}: {r.text[:200]}")
                return
            tid = r.json()["id"]
        self.get(f"/api/v1/tournaments/{tid}", "referee reads back", **auth)


class Scraper(HttpUser):
    fixed_count = 1
    wait_time = constant(0)

    def on_start(self) -> None:
        self.client.headers["X-Forwarded-For"] = "192.0.2.99"
        self.walk = itertools.cycle(SHARED["players"])

    @task
    def scrape(self) -> None:
        path = f"/api/v1/players/{next(self.walk)}"
        with self.client.get(path, name="scraper", catch_response=True) as response:
            _kind_counted(response)
            if response.status_code == 429:
                TALLY["scraper_429"] += 1
                response.success()
            elif response.status_code in (200, 304):
                response.success()
            else:
                TALLY[f"error {response.status_code}"] += 1
                response.failure(f"{response.status_code}")


def _run(host: str, users: int, seconds: float) -> dict[str, Any]:
    TALLY.clear()
    environment = Environment(user_classes=[ClubSoftware, Reader, Referee, Scraper], host=host)
    runner = environment.create_local_runner()
    runner.start(users, spawn_rate=users)
    gevent.sleep(seconds)
    runner.quit()
    stats = environment.stats
    kinds = {}
    for (name, method), entry in sorted(stats.entries.items()):
        kinds[f"{method} {name}"] = {
            "requests": entry.num_requests,
            "rps": round(entry.num_requests / seconds, 1),
            "p50_ms": entry.get_response_time_percentile(0.5),
            "p99_ms": entry.get_response_time_percentile(0.99),
            "failures": entry.num_failures,
        }
    total = stats.total
    return {
        "rps": round(total.num_requests / seconds, 1),
        "requests": total.num_requests,
        "errors": sum(v for k, v in TALLY.items() if k.startswith("error")),
        "error_kinds": {k: v for k, v in TALLY.items() if k.startswith("error")},
        "cache_share": round(TALLY["cache_hits"] / max(1, TALLY["requests"]), 3),
        "scraper_429": TALLY["scraper_429"],
        "kinds": kinds,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/8")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(argv)

    url = fresh_database(options.server, DATABASE)
    began = time.perf_counter()
    SHARED.update(_load(url, options.scale))
    print(f"loaded in {time.perf_counter() - began:.1f} s: {len(SHARED['players'])} players", file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="zdb-releaseday-"))
    production = {"ZDB_DATABASE_URL": url, "ZDB_BROKER_URL": options.redis, "ZDB_RATE_LIMIT_STORAGE": options.redis}
    results: dict[str, Any] = {"scale": options.scale, "users": options.users, "seconds": options.seconds}

    single = Api(production, folder / "single.log")
    single.start()
    try:
        results["single"] = _run(f"http://127.0.0.1:{single.port}", options.users, options.seconds)
    finally:
        single.stop()

    replica = Replica(options.server)
    replica.make()
    replica.start()
    replica.has(DATABASE)
    scaled = {**production, "ZDB_REPLICA_URLS": replica.url(DATABASE)}
    apis = [Api(scaled, folder / "scaled.log") for _ in range(2)]
    nginx = Nginx(folder / "nginx", [api.port for api in apis])
    # many clients from one machine: the benchmark's nginx passes on the address each one names
    configuration = (folder / "nginx" / "zdb.conf").read_text()
    configuration = configuration.replace("X-Forwarded-For $remote_addr", "X-Forwarded-For $http_x_forwarded_for")
    (folder / "nginx" / "zdb.conf").write_text(configuration)
    try:
        for api in apis:
            api.start()
        nginx.start()
        results["scaled"] = _run(nginx.url, options.users, options.seconds)
    finally:
        nginx.stop()
        for api in apis:
            api.stop()
        replica.remove()
    results["scaled_over_single"] = round(results["scaled"]["rps"] / max(0.1, results["single"]["rps"]), 2)
    if options.json:
        print(json.dumps(results, indent=2))
    else:
        for setup in ("single", "scaled"):
            figures = results[setup]
            print(
                f"\n{setup}: {figures['rps']} requests/s, {figures['errors']} errors {figures['error_kinds']}, "
                f"from the proxy cache {figures['cache_share']:.0%}, scraper 429s {figures['scraper_429']}"
            )
            for kind, entry in figures["kinds"].items():
                print(f"  {kind:40} {entry['rps']:8} /s  p50 {entry['p50_ms']:6} ms  p99 {entry['p99_ms']:6} ms")
        print(f"\nscaled ÷ single: {results['scaled_over_single']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
