"""The full recalculation's phases, this checkout beside another revision, on one database.

    python benchmarks/full_run_phases.py REVISION [--scale 0.3] [--rounds 3] [--maintenance-workers 0]
                                         [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                         [--database zdb_phases]

Loads the synthetic federation once (``recalc.py``'s load), then in each round, each in a fresh
process on the database at rest: the other revision's full from-scratch recalculation, this
checkout's, and the raw floor (``recalc.py``'s). The other revision's ``zdb`` is exported with
``git archive`` as ``revisions.py`` does. ``--maintenance-workers N`` adds this checkout once
more with ``max_parallel_maintenance_workers`` set to N for the swap (the server's own setting
otherwise).

Each full run reports its wall time to the commit, the CPU time and peak memory of its process,
and its phases, timed in that process around the recalculation's own functions:

- ``windows_read_s``: the reads of the tournaments' windows (``engine_view.load_tournaments``),
  on whichever connection and thread they run (``windows_read_cpu_s``: the CPU time of the
  thread that reads, the rest is the server's; every timed phase has its ``_cpu_s`` likewise);
- ``waited_for_windows_s``: the time the run itself spent on them (this checkout: waiting for the
  reader; a revision that reads on the run's connection: the reads);
- ``replay_and_copy_s``: ``store.write_steps``, the engine's replay with the rows copied as they
  come (the window reads within it included); ``copy_sends_s``, the part of it spent handing
  the rows to the server (``TextCopies``: a send waits while the server is behind);
- ``swap_s`` and, within it, ``analyze_s``, ``index_builds_s``, ``key_checks_s``;
- ``before_s`` (heads, initial states, shadow tables) and ``after_s`` (current ratings,
  impact, marks, commit): the rest.

Figures vary from run to run on a shared machine: the report gives every round and the best.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
DATABASE = "zdb_phases"
_URL_VARIABLE = "ZDB_BENCHMARK_DATABASE_URL"
_WORKERS_VARIABLE = "ZDB_BENCHMARK_MAINTENANCE_WORKERS"


def _full_with_phases() -> dict[str, Any]:
    """One full recalculation in this process, with the side's own ``zdb`` (``PYTHONPATH``)."""
    import importlib
    import importlib.util

    import recalc  # beside this script: its peak memory

    from zdb import bulk
    from zdb.db import create_db_engine
    from zdb.recalculation import shadow_tables, store
    from zdb.recalculation.run import run_recalculation
    from zdb.tournaments import engine_view

    lock = threading.Lock()
    spans: dict[str, float] = {}

    def add(name: str, seconds: float) -> None:
        with lock:
            spans[name] = spans.get(name, 0.0) + seconds

    def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                add(name, time.perf_counter() - began)
                add(f"{name.removesuffix('_s')}_cpu_s", time.thread_time() - cpu)

        return wrapper

    engine_view.load_tournaments = timed("windows_read_s", engine_view.load_tournaments)  # type: ignore[assignment]
    store.write_steps = timed("replay_and_copy_s", store.write_steps)  # type: ignore[assignment]
    copies: Any = bulk.TextCopies
    for method in ("write", "pause", "__exit__"):  # each one call from the run, none within another
        setattr(copies, method, timed("copy_sends_s", getattr(copies, method)))
    shadows: Any = shadow_tables.ShadowTables
    swap, execute = shadows.swap, shadows._execute
    workers = os.environ.get(_WORKERS_VARIABLE)

    def swapping(self: Any) -> None:
        if workers is not None:
            execute(self, f"SET LOCAL max_parallel_maintenance_workers = {int(workers)}")
        timed("swap_s", swap)(self)

    def executing(self: Any, statement: str) -> None:
        kind = "other_s"
        if statement.startswith("ANALYZE"):
            kind = "analyze_s"
        elif statement.startswith("CREATE") and " INDEX " in statement:
            kind = "index_builds_s"
        elif "ADD CONSTRAINT" in statement:
            kind = "key_checks_s" if "FOREIGN KEY" in statement else "index_builds_s"  # a key builds its index
        timed(kind if kind != "other_s" else "swap_other_s", execute)(self, statement)

    shadows.swap, shadows._execute = swapping, executing
    # The reader of windows ahead, where the side has one.
    has_reader = importlib.util.find_spec("zdb.recalculation.read_ahead") is not None
    reader: Any = importlib.import_module("zdb.recalculation.read_ahead").WindowReader if has_reader else None
    if reader is not None:
        iterate = reader.__iter__

        def waiting(self: Any) -> Iterator[Any]:
            windows = iterate(self)
            while True:
                began = time.perf_counter()
                try:
                    window = next(windows)
                except StopIteration:
                    return
                finally:
                    add("waited_for_windows_s", time.perf_counter() - began)
                yield window

        reader.__iter__ = waiting
    engine = create_db_engine(os.environ[_URL_VARIABLE])
    began, cpu = time.perf_counter(), time.process_time()
    run_recalculation(engine, from_scratch=True)
    full, full_cpu = time.perf_counter() - began, time.process_time() - cpu
    if reader is None:
        spans["waited_for_windows_s"] = spans.get("windows_read_s", 0.0)
    swap_s, copy_s = spans.get("swap_s", 0.0), spans.get("replay_and_copy_s", 0.0)
    figures = {"full_s": full, "full_cpu_s": full_cpu, "peak_mb": recalc._peak_mb(), **spans}
    figures["rest_s"] = full - swap_s - copy_s
    return {key: round(value, 2) if isinstance(value, float) else value for key, value in figures.items()}


def _floor(rows: int) -> dict[str, Any]:
    import recalc

    from zdb.db import create_db_engine

    seconds, read = recalc._raw_floor(create_db_engine(os.environ[_URL_VARIABLE]), rows)
    return {"floor_s": round(seconds, 2), "read": read}


def _in_process(what: str, url: str, package: Path | None, extra: dict[str, str] | None = None) -> dict[str, Any]:
    environment = {**os.environ, _URL_VARIABLE: url, **(extra or {})}
    if package is not None:
        environment["PYTHONPATH"] = str(package)
    command = [sys.executable, __file__, "--measure", what]
    done = subprocess.run(command, env=environment, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _loaded(scale: float, server: str, database: str) -> str:
    from recalc import _at_rest
    from scratch_database import fresh_database

    from zdb.db import create_db_engine, unit_of_work
    from zdb.exchange.synthetic import load_register, load_tournaments
    from zdb.migrate import upgrade
    from zdb.synthetic import generate

    url = fresh_database(server, database)
    upgrade(url)
    engine = create_db_engine(url)
    world = generate(seed=1, scale=scale)
    with unit_of_work(engine) as session:
        load_register(session, world)
        load_tournaments(session, world)
    _at_rest(engine)
    engine.dispose()
    return url


def run(revision: str, scale: float, rounds: int, *, server: str, database: str, workers: int | None) -> dict[str, Any]:
    from recalc import _at_rest
    from revisions import export_revision
    from sqlalchemy import text

    from zdb.db import create_db_engine

    url = _loaded(scale, server, database)
    engine = create_db_engine(url)
    rows = 0  # the floor writes as many rows as a full run stores evaluations
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch)
        export_revision(revision, other)
        sides: list[tuple[str, Path | None, dict[str, str]]] = [(revision, other, {}), ("this checkout", None, {})]
        if workers is not None:
            sides.append((f"this checkout, {workers} maintenance workers", None, {_WORKERS_VARIABLE: str(workers)}))
        for number in range(1, rounds + 1):
            for name, package, extra in sides:
                _at_rest(engine)
                result = _in_process("full", url, package, extra)
                results.setdefault(name, []).append(result)
                print(f"round {number}, {name}: {json.dumps(result)}", file=sys.stderr, flush=True)
            with engine.connect() as connection:
                rows = rows or int(connection.execute(text("SELECT count(*) FROM evaluations")).scalar_one())
            _at_rest(engine)
            floor = _in_process(f"floor:{rows}", url, None)
            results.setdefault("raw floor", []).append(floor)
            print(f"round {number}, raw floor: {json.dumps(floor)}", file=sys.stderr, flush=True)
    floor_s = min(r["floor_s"] for r in results["raw floor"])
    best = {name: min(runs, key=lambda r: r["full_s"]) for name, runs in results.items() if name != "raw floor"}
    return {
        "scale": scale,
        "rounds": results,
        "best": best,
        "best_floor_s": floor_s,
        "best_over_floor": {name: round(r["full_s"] / floor_s, 2) for name, r in best.items()},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("revision", nargs="?", help="the revision to compare with (a commit, branch or tag)")
    parser.add_argument("--scale", type=float, default=0.3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--maintenance-workers", type=int, help="a third side: the swap with this many workers")
    parser.add_argument("--server", default=SERVER)
    parser.add_argument("--database", default=DATABASE, help="scratch database to drop and create")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # one run, one process
    args = parser.parse_args(argv)
    if args.measure:
        what, _, argument = args.measure.partition(":")
        print(json.dumps(_full_with_phases() if what == "full" else _floor(int(argument))))
        return 0
    if not args.revision:
        parser.error("name the revision to compare with")
    figures = run(
        args.revision,
        args.scale,
        args.rounds,
        server=args.server,
        database=args.database,
        workers=args.maintenance_workers,
    )
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
