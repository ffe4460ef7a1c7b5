"""Before and after: one figure of this checkout against another revision, in one run.

    python benchmarks/revisions.py REVISION [--figure replay|load|late] [--scale 0.1] [--rounds 3]
                                   [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]

The other revision's ``zdb`` package is exported (``git archive``) into a temporary folder, and
each round measures both in fresh processes, one after the other (the other revision first),
so that whatever else the machine runs falls on both alike. The report gives every round, each
side's best and the ratio of the bests (other ÷ this: above 1, this checkout is faster).

- ``replay``: CPU time of the full in-memory replay of the synthetic federation, warm (the
  compiled kernel loaded and the rule tables filled by a replay before), as rated games/s.
- ``load``: wall time of loading the synthetic federation (register and tournaments, as
  ``zdb synth`` does, committed) into a fresh PostgreSQL database (``zdb_revisions``).
- ``late``: wall time from the commit of ``recalc.py``'s late weekend open (12 months before
  the end) to a consistent database. The federation is loaded and recalculated from scratch once,
  by this checkout, into a template database (``zdb_revisions_late``); each measurement copies
  it into ``zdb_revisions``, lets it rest (``VACUUM (ANALYZE)``, ``CHECKPOINT``), warms the
  process (the compiled kernel loaded, a recalculation with nothing to do), submits the open
  and times the incremental run. The revisions must share the database schema.

Both sides use this checkout's virtual environment: the figure compares code, not packages.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
DATABASE = "zdb_revisions"


def _replay(scale: float, _: str) -> dict[str, Any]:
    # Imported here, in the measuring process: the side's own ``zdb`` (``PYTHONPATH``).
    from zdb.rating import Tournament, build_timeline, replay
    from zdb.rating.kernel import compiled
    from zdb.synthetic import generate

    world = generate(1, scale)
    timeline = build_timeline(world.submissions)
    rated = sum(1 for e in timeline if isinstance(e, Tournament) for g in e.games if g.result.rated)
    kernel = compiled()
    if kernel is not None:
        kernel.warm_up()
    replay(world.initial_states, timeline)  # fills the rule tables
    gc.collect()
    gc.freeze()
    gc.disable()  # as every recalculation runs the engine
    began = time.process_time()
    replay(world.initial_states, timeline)
    seconds = time.process_time() - began
    return {"seconds": seconds, "rated_games": rated, "per_second": rated / seconds}


def _load(scale: float, server: str) -> dict[str, Any]:
    # Imported here, in the measuring process: the side's own ``zdb`` (``PYTHONPATH``).
    from scratch_database import fresh_database

    from zdb.db import create_db_engine, unit_of_work
    from zdb.exchange.synthetic import load_register, load_tournaments
    from zdb.migrate import upgrade
    from zdb.synthetic import generate

    url = fresh_database(server, DATABASE)
    upgrade(url)
    engine = create_db_engine(url)
    world = generate(1, scale)
    began = time.perf_counter()
    with unit_of_work(engine) as session:
        load_register(session, world)
        games = load_tournaments(session, world)
    seconds = time.perf_counter() - began
    engine.dispose()
    return {"seconds": seconds, "games": games, "per_second": games / seconds}


#: the database the ``late`` figure's measurements copy, and the late open's submission (a file)
LATE_TEMPLATE = "zdb_revisions_late"
_LATE_FILE = "ZDB_REVISIONS_LATE_FILE"


def _prepare_late(scale: float, server: str, late_file: Path) -> None:
    """The template of the ``late`` figure: the federation loaded and recalculated from scratch."""
    import pickle

    from scratch_database import fresh_database
    from sqlalchemy import text

    from zdb.db import create_db_engine, unit_of_work
    from zdb.exchange.synthetic import load_register, load_tournaments, organiser_prefixes, submission_of
    from zdb.migrate import upgrade
    from zdb.recalculation.run import run_recalculation
    from zdb.synthetic import generate, late_open

    url = fresh_database(server, LATE_TEMPLATE)
    upgrade(url)
    engine = create_db_engine(url)
    world = generate(1, scale)
    with unit_of_work(engine) as session:
        load_register(session, world)
        load_tournaments(session, world)
    late_file.write_bytes(pickle.dumps(submission_of(late_open(world), organiser_prefixes(world))))
    run_recalculation(engine, from_scratch=True)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM (ANALYZE)"))
    engine.dispose()


def _late(scale: float, server: str) -> dict[str, Any]:
    # Imported here, in the measuring process: the side's own ``zdb`` (``PYTHONPATH``).
    import pickle

    from scratch_database import fresh_database
    from sqlalchemy import text

    from zdb.db import create_db_engine, unit_of_work
    from zdb.rating.kernel import compiled
    from zdb.recalculation.run import run_recalculation
    from zdb.tournaments.service import submit_tournaments

    url = fresh_database(server, DATABASE, template=LATE_TEMPLATE)
    engine = create_db_engine(url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM (ANALYZE)"))
        connection.execute(text("CHECKPOINT"))
    kernel = compiled()
    if kernel is not None:
        kernel.warm_up()
    run_recalculation(engine)  # nothing to do: the modules loaded
    with unit_of_work(engine) as session:
        submit_tournaments(session, [pickle.loads(Path(os.environ[_LATE_FILE]).read_bytes())], by="benchmark")
    began, cpu = time.perf_counter(), time.process_time()
    outcome = run_recalculation(engine)
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
    engine.dispose()
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "reevaluated": outcome.evaluated}


_FIGURES = {"replay": _replay, "load": _load, "late": _late}


def _measure(figure: str, scale: float, server: str, package: Path | None) -> dict[str, Any]:
    """One measurement in a fresh process, with ``package``'s ``zdb`` (this checkout's if None)."""
    environment = dict(os.environ)
    if package is not None:
        environment["PYTHONPATH"] = str(package)
    command = [sys.executable, __file__, "--measure", figure, "--scale", str(scale), "--server", server]
    done = subprocess.run(command, env=environment, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def export_revision(revision: str, folder: Path) -> None:
    """The package ``zdb`` as it is at ``revision``, written into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "zdb"], check=True, capture_output=True
    ).stdout
    archive_file = folder / "zdb.tar"
    archive_file.write_bytes(archive)
    with tarfile.open(archive_file) as tar:
        tar.extractall(folder, filter="data")


def run(revision: str, figure: str, scale: float, rounds: int, server: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch)
        export_revision(revision, other)
        if figure == "late":
            late_file = other / "late.pickle"
            os.environ[_LATE_FILE] = str(late_file)
            _prepare_late(scale, server, late_file)
        sides: dict[str, list[dict[str, Any]]] = {revision: [], "this checkout": []}
        for round_number in range(1, rounds + 1):
            for name, package in ((revision, other), ("this checkout", None)):
                result = _measure(figure, scale, server, package)
                sides[name].append(result)
                print(f"round {round_number}, {name}: {result['seconds']:.2f} s", file=sys.stderr, flush=True)
    best = {name: min(results, key=lambda r: r["seconds"]) for name, results in sides.items()}
    return {
        "figure": figure,
        "scale": scale,
        "rounds": {name: [round(r["seconds"], 3) for r in results] for name, results in sides.items()},
        "best": {name: {key: round(value, 3) for key, value in r.items()} for name, r in best.items()},
        "other_over_this": round(best[revision]["seconds"] / best["this checkout"]["seconds"], 2),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("revision", nargs="?", help="the revision to compare with (a commit, branch or tag)")
    parser.add_argument("--figure", choices=sorted(_FIGURES), default="replay")
    parser.add_argument("--scale", type=float, default=0.1, help="size of the federation (1.0: ~5 M games)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--server", default=SERVER, help="PostgreSQL server for --figure load and late")
    parser.add_argument("--measure", choices=sorted(_FIGURES), help=argparse.SUPPRESS)  # one side, one process
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(_FIGURES[args.measure](args.scale, args.server)))
        return 0
    if args.revision is None:
        parser.error("name the revision to compare with")
    print(json.dumps(run(args.revision, args.figure, args.scale, args.rounds, args.server), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
