"""Page benchmark on the synthetic federation: each page's server time for its largest object.

    python benchmarks/pages.py [--scale 0.1] [--repeat 9]
        [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres] [--json]

Creates a fresh database ``zdb_pagebench`` on the server, loads the synthetic federation as
``zdb synth`` does (bulk submission, then a recalculation from scratch), and picks, through the
API, the largest object of each kind: the player with the longest history among the top 50, the
evaluated tournament with the most players, the club with the most members, a region. Each page
is asked once to warm it (templates compiled, connections pooled), then ``--repeat`` times; the
server time is the page's ``Server-Timing`` header (the application's own time, without the HTTP
client's), reported as min and median, beside the SQL statements the page ran and its size.

The budget is 100 ms of server time per page (min of the repeats, so that a busy machine's
pauses do not count). Figures are judged as ratios to the budget, measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.scratch_database import fresh_database

BUDGET_MS = 100.0
DATABASE = "zdb_pagebench"


def largest_pages(client: Any) -> list[str]:
    """The pages of the largest objects the database holds, found through the public API."""
    api = "/api/v1"
    top = client.get(f"{api}/ratings/top", params={"limit": 50}).json()["items"]
    cards = [client.get(f"{api}/players/{t['pkz']}").json() for t in top]
    busiest = max(cards, key=lambda card: len(card["history"]))
    tournaments = client.get(f"{api}/tournaments", params={"limit": 1000}).json()["items"]
    biggest = max((t for t in tournaments if t["status"] == "evaluated"), key=lambda t: t["players"])
    report = client.get(f"{api}/tournaments/{biggest['id']}/evaluation").json()
    clubs = client.get(f"{api}/clubs", params={"limit": 1000}).json()["items"]
    federations = client.get(f"{api}/federations", params={"limit": 1000}).json()["items"]
    region = next(f for f in federations if f["level"] == 1)
    return [
        "/",
        f"/?q={busiest['surname']}",
        f"/players/{busiest['pkz']}",
        f"/tournaments/{biggest['id']}",
        f"/tournaments/{biggest['id']}/players/{report['rows'][0]['pkz']}/explanation",
        f"/clubs/{max(clubs, key=lambda club: club['members'])['code']}",
        "/federations",
        f"/federations/{region['prefix']}",
        "/federations?age_max=18&sex=F",
        "/recalculation",
        "/simulator?rating=1600&opponents=1700,1650,1580,1720",
    ]


def server_ms(answer: Any) -> float:
    """The application's time for one answer, from its ``Server-Timing`` header."""
    name, _, duration = answer.headers["server-timing"].partition(";dur=")
    assert name == "app", answer.headers["server-timing"]
    return float(duration)


class StatementCounter:
    """Counts the SQL statements an engine runs (SQLAlchemy's ``before_cursor_execute`` event)."""

    def __init__(self, engine: Any) -> None:
        from sqlalchemy import event

        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def _measure(client: Any, counter: StatementCounter, path: str, repeat: int) -> dict[str, Any]:
    client.get(path)
    counter.count = 0
    times, size = [], 0
    for _ in range(repeat):
        answer = client.get(path)
        answer.raise_for_status()
        times.append(server_ms(answer))
        size = len(answer.content)
    return {
        "path": path,
        "min_ms": min(times),
        "median_ms": statistics.median(times),
        "statements": counter.count / repeat,
        "kb": round(size / 1024, 1),
        "ratio_to_budget": round(min(times) / BUDGET_MS, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    from fastapi.testclient import TestClient

    from zdb.app import create_app
    from zdb.config import Settings
    from zdb.db import engine_for

    url = fresh_database(args.server, DATABASE)
    env = {**os.environ, "ZDB_DATABASE_URL": url}
    for command in (["db", "upgrade"], ["synth", "--scale", str(args.scale), "--seed", str(args.seed)]):
        subprocess.run([sys.executable, "-m", "zdb", *command], env=env, check=True, capture_output=True)
    client = TestClient(create_app(Settings(database_url=url), recalculation=False))
    counter = StatementCounter(engine_for(url))
    readings = [_measure(client, counter, path, args.repeat) for path in largest_pages(client)]
    if args.json:
        print(json.dumps({"scale": args.scale, "budget_ms": BUDGET_MS, "pages": readings}))
        return 0
    print(f"scale {args.scale}: server time per page (min and median of {args.repeat}), budget {BUDGET_MS:.0f} ms")
    for r in readings:
        met = "met" if r["min_ms"] < BUDGET_MS else "MISSED"
        print(
            f"{r['path']:60} {r['min_ms']:7.1f} {r['median_ms']:7.1f} ms  {r['statements']:4.0f} statements "
            f"{r['kb']:7.1f} KB  ratio {r['ratio_to_budget']:.2f} {met}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
