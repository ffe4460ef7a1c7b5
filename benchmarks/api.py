"""API read benchmark on the synthetic federation in PostgreSQL: the player card and the club list
under concurrent load, next to a bare ``psycopg_pool`` app doing the same SQL, in one run.

    python benchmarks/api.py [--scale 0.1] [--seed 1] [--workers 1] [--connections 32] [--duration 5]
        [--requests 20000] [--load-share 0.5 | --rate R] [--pool-size 10]
        [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres] [--json]

Creates a fresh database ``zdb_apibench`` on the server, loads the synthetic federation
(``zdb.synthetic``) and recalculates it from scratch. Then it starts, each in its own process
group on 127.0.0.1:

- the real API as ``zdb serve`` runs it in production: uvicorn with uvloop and httptools,
  ``--workers`` processes, the factory ``zdb.app:app_from_environment`` with
  ``ZDB_DATABASE_URL`` set to the bench database and ``ZDB_BROKER_URL`` set to a dummy Redis URL
  (nothing is submitted, so no task is ever sent) and ``ZDB_READ_POOL_SIZE`` (the connections of
  its hot reads' pool, ``zdb.api.read_pool``) set to the baseline's pool size;
- the baseline: a bare Starlette app under the same uvicorn options whose two async endpoints
  take a connection from a ``psycopg_pool.AsyncConnectionPool`` and run the SQL the API runs for
  the same answer (the player with his current rating, his memberships, his history rows with
  their evaluation figures; a club's current members with their ratings and last evaluation),
  serialised with ``json.dumps``.

The load generator is a raw asyncio HTTP/1.1 client (keep-alive, one request in flight per
connection; httpx costs more CPU per request than the servers measured here and would measure
itself) with ``--connections`` concurrent connections; each target is warmed up, then loaded for
``--duration`` seconds or ``--requests`` requests, whichever ends first, over random existing
person numbers and club codes (clubs with at least one current member). Access logs are off for
both servers.

Then, per endpoint, both servers get the same open-loop load at a fixed rate (``--rate``, or
``--load-share`` of the baseline's throughput, by default half): requests fall due at a steady
pace whatever the server does, and each latency counts from when the request fell due. This is
where the p99 target is judged: in the closed loop at saturation every server, the baseline
included, shows mostly the queue of ``--connections`` requests in front of it (p99 roughly
connections / throughput), not how long an answer takes.

Reported per target (API player card, API club list, baseline player card, baseline club list):
requests/s, p50 and p99 latency in ms at saturation and at the fixed rate, error count (non-200
answers, broken connections, timeouts); per endpoint the ratio of API to baseline throughput
(target >= 0.70) and whether the API's p99 at the fixed rate is within 25 ms. The load generator
shares the machine with the servers: figures are ratios measured in one run, machines are
noisy, ratios less so.

Exits 1 when a request failed or a server did not come up; a missed target is reported, not an
error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
from scratch_database import fresh_database  # beside this script
from sqlalchemy import text
from sqlalchemy.engine import make_url

DATABASE = "zdb_apibench"
DUMMY_BROKER = "redis://127.0.0.1:1/0"
THROUGHPUT_TARGET = 0.70
P99_TARGET_MS = 25.0
REQUEST_TIMEOUT_S = 10.0
STARTUP_TIMEOUT_S = 60.0

# --- the baseline's SQL: what zdb.ratings.player_queries.player_card and
# zdb.ratings.club_list_queries.club_ratings select

PLAYER_SQL = """
SELECT p.pkz, p.surname, p.given_name, p.sex, p.birth_year, p.fide_id, p.nation, p.guest,
       r.rating, r.rating_index, r.changed_at
FROM players p LEFT JOIN player_ratings r ON r.player_pkz = p.pkz
WHERE p.pkz = %s
"""
MEMBERSHIPS_SQL = """
SELECT m.club_code, c.name AS club_name, m.member_no, m.status, m.valid_from, m.valid_until
FROM memberships m JOIN clubs c ON c.code = m.club_code
WHERE m.player_pkz = %s
ORDER BY m.valid_from, m.club_code
"""
HISTORY_SQL = """
SELECT h.event_date, h.event_phase, h.event_text, h.tournament_id, h.tournament_version,
       h.old_rating, h.old_index, h.new_rating, h.new_index, h.evaluated, v.name AS tournament_name,
       e.player_pkz AS evaluated_pkz, e.rule_set, e.member, e.stage, e.fide_start, e.r0, e.i0, e.w, e.n,
       e.unrated_games, e.we, e.e, e.k, e.rh, e.sonder, e.rn, e.i_new, e.stored, e.leftover_used,
       e.leftover_stored
FROM rating_history h
LEFT JOIN evaluations e
       ON e.tournament_id = h.tournament_id AND e.version = h.tournament_version AND e.player_pkz = h.player_pkz
LEFT JOIN tournament_versions v ON v.tournament_id = h.tournament_id AND v.version = h.tournament_version
WHERE h.player_pkz = %s
ORDER BY h.event_date, h.event_phase, h.event_text, h.event_id
"""
CLUB_SQL = """
SELECT m.member_no, m.status, p.pkz, p.surname, p.given_name, p.sex, p.birth_year, p.fide_id, p.nation,
       r.rating, r.rating_index, r.changed_at,
       (SELECT max(h.event_date) FROM rating_history h
        WHERE h.player_pkz = p.pkz AND h.event_phase = 1 AND h.evaluated) AS last_evaluation
FROM memberships m
JOIN players p ON p.pkz = m.player_pkz
LEFT JOIN player_ratings r ON r.player_pkz = p.pkz
WHERE m.club_code = %s AND m.valid_until IS NULL
ORDER BY m.member_no IS NULL, m.member_no, p.pkz
"""
CLUB_EXISTS_SQL = "SELECT 1 FROM clubs WHERE code = %s"


def _plain(value: object) -> object:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(type(value).__name__)


def baseline_app() -> Any:
    """The bare baseline (a uvicorn factory): ``GET /players/{pkz}``, ``GET /clubs/{code}/ratings``
    and ``GET /health``, each on a pooled async psycopg connection. ``BENCH_DATABASE_DSN`` names
    the database, ``BENCH_POOL_SIZE`` the connections per process."""
    from psycopg.rows import dict_row
    from psycopg_pool import AsyncConnectionPool
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    size = int(os.environ.get("BENCH_POOL_SIZE", "10"))
    pool = AsyncConnectionPool(
        os.environ["BENCH_DATABASE_DSN"],
        min_size=size,
        max_size=size,
        open=False,
        kwargs={"autocommit": True},
    )

    def answer(body: object, status: int = 200) -> Response:
        return Response(json.dumps(body, default=_plain), status_code=status, media_type="application/json")

    async def player(request: Request) -> Response:
        pkz = int(request.path_params["pkz"])
        async with pool.connection() as connection, connection.cursor(row_factory=dict_row) as cursor:
            card = await (await cursor.execute(PLAYER_SQL, (pkz,))).fetchone()
            if card is None:
                return answer({"detail": f"player {pkz} does not exist"}, 404)
            card["memberships"] = await (await cursor.execute(MEMBERSHIPS_SQL, (pkz,))).fetchall()
            card["history"] = await (await cursor.execute(HISTORY_SQL, (pkz,))).fetchall()
        return answer(card)

    async def club(request: Request) -> Response:
        code = request.path_params["code"]
        async with pool.connection() as connection, connection.cursor(row_factory=dict_row) as cursor:
            if await (await cursor.execute(CLUB_EXISTS_SQL, (code,))).fetchone() is None:
                return answer({"detail": f"no club has the code {code!r}"}, 404)
            items = await (await cursor.execute(CLUB_SQL, (code,))).fetchall()
        return answer({"items": items, "total": len(items), "limit": 5000, "offset": 0})

    async def health(_: Request) -> Response:
        async with pool.connection() as connection:
            await connection.execute("SELECT 1")
        return answer({"status": "ok"})

    @asynccontextmanager
    async def lifespan(_: Starlette) -> Any:
        await pool.open(wait=True)
        try:
            yield
        finally:
            await pool.close()

    routes = [
        Route("/players/{pkz:int}", player),
        Route("/clubs/{code}/ratings", club),
        Route("/health", health),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


# --- the database


def _load(url: str, scale: float, seed: int, samples: int) -> tuple[dict[str, Any], list[int], list[str]]:
    """The recalculated synthetic federation; a random sample of person numbers and of club codes
    with at least one current member."""
    from zdb.db import create_db_engine, unit_of_work
    from zdb.exchange.synthetic import load_register, load_tournaments
    from zdb.migrate import upgrade
    from zdb.recalculation.run import run_recalculation
    from zdb.synthetic import generate

    upgrade(url)
    engine = create_db_engine(url)
    try:
        began = time.perf_counter()
        world = generate(seed=seed, scale=scale)
        with unit_of_work(engine) as session:
            load_register(session, world)
            games = load_tournaments(session, world)
        loaded = time.perf_counter() - began
        outcome = run_recalculation(engine, from_scratch=True)
        with engine.connect() as connection:
            connection.execute(text("ANALYZE"))
            pkzs = list(connection.execute(text("SELECT pkz FROM players ORDER BY pkz")).scalars())
            clubs = list(
                connection.execute(
                    text("SELECT DISTINCT club_code FROM memberships WHERE valid_until IS NULL ORDER BY club_code")
                ).scalars()
            )
            history_rows = connection.execute(text("SELECT count(*) FROM rating_history")).scalar_one()
    finally:
        engine.dispose()
    chooser = random.Random(seed)
    figures = {
        "players": len(pkzs),
        "clubs_with_members": len(clubs),
        "tournaments": len(world.tournaments),
        "games": games,
        "history_rows": history_rows,
        "generate_and_load_s": round(loaded, 2),
        "recalculation_s": round(outcome.duration_ms / 1000, 2),
    }
    return figures, chooser.sample(pkzs, min(samples, len(pkzs))), chooser.sample(clubs, min(samples, len(clubs)))


# --- the servers


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    name: str
    port: int
    health: str
    process: subprocess.Popen[bytes] | None = None
    log: Any = None


def _start(server: Server, target: str, *, workers: int, env: dict[str, str], log_dir: Path, app_dir: str) -> None:
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        target,
        "--factory",
        "--app-dir",
        app_dir,
        "--host",
        "127.0.0.1",
        "--port",
        str(server.port),
        "--workers",
        str(workers),
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    server.log = (log_dir / f"{server.name}.log").open("wb")
    server.process = subprocess.Popen(
        command, env=env, stdout=server.log, stderr=subprocess.STDOUT, start_new_session=True
    )


def _stop(server: Server) -> None:
    process = server.process
    if process is not None and process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)
    if process is not None:
        # uvicorn's worker processes share the group: none may outlive the run
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    if server.log is not None:
        server.log.close()


def _log_tail(server: Server, log_dir: Path) -> str:
    log = log_dir / f"{server.name}.log"
    try:
        return f"{log}:\n" + log.read_text(errors="replace")[-2000:]
    except OSError:
        return str(log)


# --- the load generator


class BadAnswerError(Exception):
    pass


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> tuple[int, bytes]:
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    length = None
    chunked = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
        return status, bytes(body)
    if length is None:
        raise BadAnswerError("answer without Content-Length")
    return status, await reader.readexactly(length)


async def fetch(port: int, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        return await asyncio.wait_for(_get(reader, writer, request), REQUEST_TIMEOUT_S)
    finally:
        writer.close()
        with suppress(OSError):
            await writer.wait_closed()


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str | None = None
    sent: int = 0
    elapsed: float = 0.0

    def answered(self, path: str, status: int, seconds: float) -> None:
        if status == 200:
            self.latencies.append(seconds)
        else:
            self.errors += 1
            self.first_error = self.first_error or f"{path}: HTTP {status}"

    def broke(self, path: str, problem: Exception) -> None:
        self.errors += 1
        self.first_error = self.first_error or f"{path}: {type(problem).__name__} {problem}"


async def _connection_loop(
    port: int, paths: list[str], *, seed: int, deadline: float, budget: list[int], tally: Tally
) -> None:
    chooser = random.Random(seed)
    reader = writer = None
    try:
        while time.perf_counter() < deadline and budget[0] > 0:
            budget[0] -= 1
            path = chooser.choice(paths)
            request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
            started = time.perf_counter()
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                assert reader is not None
                status, _ = await asyncio.wait_for(_get(reader, writer, request), REQUEST_TIMEOUT_S)
            except (
                OSError,
                asyncio.IncompleteReadError,
                asyncio.LimitOverrunError,
                TimeoutError,
                BadAnswerError,
                ValueError,
            ) as problem:
                tally.broke(path, problem)
                if writer is not None:
                    writer.close()
                reader = writer = None
                continue
            finally:
                tally.sent += 1
            tally.answered(path, status, time.perf_counter() - started)
    finally:
        if writer is not None:
            writer.close()


async def load(port: int, paths: list[str], *, connections: int, duration: float, requests: int, seed: int) -> Tally:
    tally = Tally()
    budget = [requests]
    began = time.perf_counter()
    deadline = began + duration
    await asyncio.gather(
        *(
            _connection_loop(port, paths, seed=seed * 1000 + k, deadline=deadline, budget=budget, tally=tally)
            for k in range(connections)
        )
    )
    tally.elapsed = time.perf_counter() - began
    tally.latencies.sort()
    return tally


async def paced(port: int, paths: list[str], *, rate: float, duration: float, connections: int, seed: int) -> Tally:
    """Open-loop load: request k is due at k / ``rate`` seconds, whatever the earlier ones do,
    on ``connections`` keep-alive connections; its latency counts from when it was due (a
    request that waits for a free connection waits in the latency, no coordinated omission)."""
    tally = Tally()
    chooser = random.Random(seed)
    idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = asyncio.Queue()
    for _ in range(connections):
        idle.put_nowait(None)  # opened on first use

    async def one(path: str, due: float) -> None:
        connection = await idle.get()
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", port)
            status, _ = await asyncio.wait_for(_get(*connection, request), REQUEST_TIMEOUT_S)
        except (
            OSError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            TimeoutError,
            BadAnswerError,
            ValueError,
        ) as problem:
            tally.broke(path, problem)
            if connection is not None:
                connection[1].close()
            connection = None
        else:
            tally.answered(path, status, time.perf_counter() - due)
        finally:
            tally.sent += 1
            idle.put_nowait(connection)

    began = time.perf_counter()
    tasks = []
    for k in range(max(1, int(rate * duration))):
        due = began + k / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(chooser.choice(paths), due)))
    await asyncio.gather(*tasks)
    tally.elapsed = time.perf_counter() - began
    tally.latencies.sort()
    while not idle.empty():
        connection = idle.get_nowait()
        if connection is not None:
            connection[1].close()
    return tally


def _percentile(ordered: Sequence[float], fraction: float) -> float | None:
    if not ordered:
        return None
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def summary(tally: Tally) -> dict[str, Any]:
    elapsed = tally.elapsed
    ok = len(tally.latencies)
    p50 = _percentile(tally.latencies, 0.50)
    p99 = _percentile(tally.latencies, 0.99)
    return {
        "requests": tally.sent,
        "ok": ok,
        "errors": tally.errors,
        "seconds": round(elapsed, 2),
        "requests_per_s": round(ok / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": None if p50 is None else round(p50 * 1000, 2),
        "p99_ms": None if p99 is None else round(p99 * 1000, 2),
        "first_error": tally.first_error,
    }


async def _wait_ready(servers: Sequence[Server], log_dir: Path) -> None:
    until = time.perf_counter() + STARTUP_TIMEOUT_S
    for server in servers:
        while True:
            assert server.process is not None
            if server.process.poll() is not None:
                raise RuntimeError(f"{server.name} exited:\n{_log_tail(server, log_dir)}")
            with suppress(OSError, asyncio.IncompleteReadError, TimeoutError, BadAnswerError, ValueError):
                status, _ = await fetch(server.port, server.health)
                if status == 200:
                    break
            if time.perf_counter() > until:
                raise RuntimeError(f"{server.name} did not answer {server.health}:\n{_log_tail(server, log_dir)}")
            await asyncio.sleep(0.2)


async def _check_same_answers(api: Server, baseline: Server, pkz: int, club: str) -> None:
    """The two apps answer the same data: the same history length and the same members."""
    _, card = await fetch(api.port, f"/api/v1/players/{pkz}")
    _, bare = await fetch(baseline.port, f"/players/{pkz}")
    api_card, bare_card = json.loads(card), json.loads(bare)
    if len(api_card["history"]) != len(bare_card["history"]) or api_card["rating"] != bare_card["rating"]:
        raise RuntimeError(f"player {pkz}: the API and the baseline answer different cards")
    _, members = await fetch(api.port, f"/api/v1/clubs/{club}/ratings")
    _, bare = await fetch(baseline.port, f"/clubs/{club}/ratings")
    api_members = [m["pkz"] for m in json.loads(members)["items"]]
    if api_members != [m["pkz"] for m in json.loads(bare)["items"]]:
        raise RuntimeError(f"club {club}: the API and the baseline answer different members")


async def _measure(
    api: Server, baseline: Server, *, pkzs: list[int], clubs: list[str], args: argparse.Namespace, log_dir: Path
) -> dict[str, dict[str, Any]]:
    await _wait_ready([api, baseline], log_dir)
    await _check_same_answers(api, baseline, pkzs[0], clubs[0])
    targets = {
        "api_player_card": (api.port, [f"/api/v1/players/{p}" for p in pkzs]),
        "api_club_list": (api.port, [f"/api/v1/clubs/{c}/ratings" for c in clubs]),
        "baseline_player_card": (baseline.port, [f"/players/{p}" for p in pkzs]),
        "baseline_club_list": (baseline.port, [f"/clubs/{c}/ratings" for c in clubs]),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, (port, paths) in targets.items():
        warm = await load(
            port, paths, connections=args.connections, duration=args.warmup, requests=args.requests, seed=args.seed
        )
        warm_errors = warm.errors
        tally = await load(
            port,
            paths,
            connections=args.connections,
            duration=args.duration,
            requests=args.requests,
            seed=args.seed + 1,
        )
        results[name] = summary(tally)
        results[name]["errors"] += warm_errors
    # Latency at a fixed load below saturation: the same rate for the API and the baseline of an
    # endpoint (a share of the baseline's throughput), so that the p99 measures the answer, not
    # the queue that a closed loop at saturation builds in front of any server.
    for endpoint in ("player_card", "club_list"):
        rate = args.rate or args.load_share * results[f"baseline_{endpoint}"]["requests_per_s"]
        for side in ("api", "baseline"):
            port, paths = targets[f"{side}_{endpoint}"]
            tally = await paced(
                port, paths, rate=rate, duration=args.duration, connections=args.connections, seed=args.seed + 2
            )
            fixed = summary(tally)
            results[f"{side}_{endpoint}"]["at_rate"] = {
                "rate_per_s": round(rate, 1),
                "p50_ms": fixed["p50_ms"],
                "p99_ms": fixed["p99_ms"],
                "errors": fixed["errors"],
                "first_error": fixed["first_error"],
            }
            results[f"{side}_{endpoint}"]["errors"] += fixed["errors"]
    return results


def run(args: argparse.Namespace) -> dict[str, Any]:
    url = fresh_database(args.server, DATABASE)
    database, pkzs, clubs = _load(url, args.scale, args.seed, args.samples)
    parsed = make_url(url)
    dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    here = Path(__file__).resolve().parent
    log_dir = Path(tempfile.mkdtemp(prefix="zdb-apibench-"))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("ZDB_")}
    api_env = base_env | {
        "ZDB_DATABASE_URL": url,
        "ZDB_BROKER_URL": DUMMY_BROKER,
        "ZDB_READ_POOL_SIZE": str(args.pool_size),
    }
    bare_env = base_env | {"BENCH_DATABASE_DSN": dsn, "BENCH_POOL_SIZE": str(args.pool_size)}
    api = Server("api", _free_port(), "/api/v1/health")
    baseline = Server("baseline", _free_port(), "/health")
    try:
        app_dir = str(here.parent)
        _start(api, "zdb.app:app_from_environment", workers=args.workers, env=api_env, log_dir=log_dir, app_dir=app_dir)
        factory = f"{Path(__file__).stem}:baseline_app"
        _start(baseline, factory, workers=args.workers, env=bare_env, log_dir=log_dir, app_dir=str(here))
        results = asyncio.run(_measure(api, baseline, pkzs=pkzs, clubs=clubs, args=args, log_dir=log_dir))
    finally:
        _stop(api)
        _stop(baseline)
    shutil.rmtree(log_dir, ignore_errors=True)  # kept (and named in the error) when a server failed
    ratios = {}
    for endpoint in ("player_card", "club_list"):
        mine, bare = results[f"api_{endpoint}"], results[f"baseline_{endpoint}"]
        ratio = mine["requests_per_s"] / bare["requests_per_s"] if bare["requests_per_s"] else None
        ratios[endpoint] = {
            "api_over_baseline": None if ratio is None else round(ratio, 3),
            "throughput_target_met": ratio is not None and ratio >= THROUGHPUT_TARGET,
            "p99_at_rate_ms": mine["at_rate"]["p99_ms"],
            "p99_target_met": mine["at_rate"]["p99_ms"] is not None and mine["at_rate"]["p99_ms"] <= P99_TARGET_MS,
        }
    return {
        "settings": {
            "scale": args.scale,
            "seed": args.seed,
            "workers": args.workers,
            "connections": args.connections,
            "fixed_rate": args.rate or f"{args.load_share:g} x the baseline's throughput",
            "duration_s": args.duration,
            "max_requests": args.requests,
            "baseline_pool_size": args.pool_size,
            "client": "raw asyncio HTTP/1.1 keep-alive",
            "cpus": os.cpu_count(),
        },
        "database": database,
        "targets": results,
        "ratios": ratios,
    }


def _print_text(report: dict[str, Any]) -> None:
    for title in ("settings", "database"):
        print(f"{title}:")
        for key, value in report[title].items():
            print(f"  {key:<22} {value}")
    print()
    print(f"{'target':<22} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'requests':>9}")
    for name, t in report["targets"].items():
        print(
            f"{name:<22} {t['requests_per_s']:>9} {t['p50_ms']!s:>8} {t['p99_ms']!s:>8} {t['errors']:>7} "
            f"{t['requests']:>9}"
        )
        if t["first_error"]:
            print(f"  first error: {t['first_error']}")
    print()
    print(f"{'at a fixed rate':<22} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, t in report["targets"].items():
        r = t["at_rate"]
        print(f"{name:<22} {r['rate_per_s']:>9} {r['p50_ms']!s:>8} {r['p99_ms']!s:>8} {r['errors']:>7}")
        if r["first_error"]:
            print(f"  first error: {r['first_error']}")
    print()
    for endpoint, r in report["ratios"].items():
        print(
            f"{endpoint:<12} API/baseline throughput {r['api_over_baseline']} (target >= {THROUGHPUT_TARGET}: "
            f"{'met' if r['throughput_target_met'] else 'missed'}), API p99 at the fixed rate "
            f"{r['p99_at_rate_ms']} ms (target <= {P99_TARGET_MS:g} ms: {'met' if r['p99_target_met'] else 'missed'})"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn processes of each server")
    parser.add_argument("--connections", type=int, default=32, help="concurrent client connections")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds of load per target")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of unmeasured load before each target")
    parser.add_argument("--requests", type=int, default=20_000, help="at most this many requests per target")
    parser.add_argument("--samples", type=int, default=2000, help="random players and clubs to ask for")
    parser.add_argument("--pool-size", type=int, default=10, help="pool connections per process (both servers)")
    parser.add_argument(
        "--load-share",
        type=float,
        default=0.5,
        help="the fixed-rate phase's rate as a share of the baseline's throughput",
    )
    parser.add_argument("--rate", type=float, default=None, help="the fixed-rate phase's requests/s (overrides)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if min(args.workers, args.connections, args.requests, args.samples, args.pool_size) < 1 or args.duration <= 0:
        parser.error("--workers, --connections, --duration, --requests, --samples and --pool-size must be positive")
    if not 0 < args.load_share <= 1 or (args.rate is not None and args.rate <= 0):
        parser.error("--load-share must lie in (0, 1], --rate must be positive")
    if args.warmup < 0:
        parser.error("--warmup must not be negative")
    try:
        report = run(args)
    except (RuntimeError, OSError, psycopg.Error) as problem:
        print(f"benchmark failed: {problem}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_text(report)
    errors = sum(t["errors"] for t in report["targets"].values())
    if errors:
        print(f"{errors} request(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
