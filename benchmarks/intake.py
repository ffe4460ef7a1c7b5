"""Bulk intake benchmark: the synthetic federation taken into an empty PostgreSQL database by
both bulk doors, in one run.

    python benchmarks/intake.py [--scale 0.1] [--seed 1]
        [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres] [--json]

- ``synth``: the register and every tournament as ``zdb synth`` loads them
  (``zdb.exchange.synthetic``), in this process, into the fresh database ``zdb_intake_synth``;
- ``import``: the same time line written as a replay document (the vectors' input format:
  initial states and tournaments, players named by the generator's ids) and taken in by
  ``zdb import --no-recalc`` in a process of its own, into ``zdb_intake_import``. Its time
  includes reading and checking the JSON file, as an operator meets it.

Reported for each: wall time, the CPU time of the process that loaded (the rest is the
server's: storing rows, maintaining indexes, checking keys) and rated games per second. The
recalculation is not part of either (``benchmarks/recalc.py`` measures it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scratch_database import fresh_database  # beside this script

from zdb.db import create_db_engine, unit_of_work
from zdb.exchange.synthetic import load_register, load_tournaments
from zdb.formats.rating_json import dump_states
from zdb.migrate import upgrade
from zdb.synthetic import SyntheticFederation, generate


def replay_document(world: SyntheticFederation) -> dict[str, Any]:
    """The world's time line in the replay input format (``zdb import``)."""
    events = [
        {
            "id": t.event.id,
            "acronym": t.event.acronym,
            "end_date": t.event.end_date.isoformat(),
            "players": [
                {"pid": p.pid, "birth_year": p.birth_year, "member": p.member, "fide_rating": p.fide_rating}
                for p in t.event.players
            ],
            "games": [{"white": g.white, "black": g.black, "result": g.result.value} for g in t.event.games],
        }
        for t in world.tournaments
    ]
    return {"initial_states": dump_states(world.initial_states), "events": events}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(scale: float, seed: int, server: str) -> dict[str, Any]:
    world = generate(seed=seed, scale=scale)
    games = sum(len(t.event.games) for t in world.tournaments)
    url = fresh_database(server, "zdb_intake_synth")
    upgrade(url)
    began, cpu = time.perf_counter(), time.process_time()
    with unit_of_work(create_db_engine(url)) as session:
        load_register(session, world)
        load_tournaments(session, world)
    synth = {"s": time.perf_counter() - began, "cpu_s": time.process_time() - cpu}

    url = fresh_database(server, "zdb_intake_import")
    upgrade(url)
    with tempfile.TemporaryDirectory(prefix="zdb-intake-") as scratch:
        document = Path(scratch) / "timeline.json"
        document.write_text(json.dumps(replay_document(world)), encoding="utf-8")
        del world
        command = [sys.executable, "-m", "zdb", "import", "--no-recalc", str(document)]
        began, cpu = time.perf_counter(), _children_cpu()
        environment = {**os.environ, "ZDB_DATABASE_URL": url}
        done = subprocess.run(command, check=False, env=environment, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"zdb import failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        imported = {"s": time.perf_counter() - began, "cpu_s": _children_cpu() - cpu}
    return {
        "scale": scale,
        "games": games,
        **{f"synth_{k}": round(v, 2) for k, v in synth.items()},
        "synth_games_per_s": round(games / synth["s"]),
        **{f"import_{k}": round(v, 2) for k, v in imported.items()},
        "import_games_per_s": round(games / imported["s"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.scale, args.seed, args.server)
    if args.json:
        print(json.dumps(figures))
        return 0
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
