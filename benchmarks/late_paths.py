"""A late change through either incremental path, on a database ``recalc.py`` left behind.

    python benchmarks/late_paths.py --database zdb_perf_s10 --path tail|walk
                                    [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]

Withdraws the last tournament submitted (``recalc.py``'s late weekend open, 12 months back) and
times the incremental run from the commit of the withdrawal to a consistent database, through
the pass from states (``--path tail``: ``zdb.recalculation.compiled_tail``, whatever the length
of the tail) or through the walk (``--path walk``), with the run's phases as ``recalc.py``
times them, its CPU time and the process's peak memory. One JSON line.

To compare the two paths on the same change, copy the database first and run one path on each
copy (the withdrawal is not undone):

    psql -c 'CREATE DATABASE zdb_perf_s10b TEMPLATE zdb_perf_s10 STRATEGY FILE_COPY'
    python benchmarks/late_paths.py --database zdb_perf_s10 --path tail
    python benchmarks/late_paths.py --database zdb_perf_s10b --path walk

This is how ``compiled_tail.MAX_TAIL_TOURNAMENTS`` was chosen: at scale 10 (22,951 tournaments
in the tail) the pass took 20.8 s and 2,691 MB, the walk 9.0 s and 711 MB.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

import recalc  # beside this script
from sqlalchemy import text
from sqlalchemy.engine import make_url

from zdb.db import create_db_engine, unit_of_work
from zdb.recalculation import compiled_tail
from zdb.recalculation.run import run_recalculation
from zdb.tournaments.service import withdraw_tournament


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", required=True, help="a database recalc.py recalculated (kept after its run)")
    parser.add_argument("--path", choices=("tail", "walk"), required=True)
    args = parser.parse_args(argv)
    if args.path == "walk":
        compiled_tail.available = lambda session: False  # type: ignore[assignment]
    else:
        compiled_tail.MAX_TAIL_TOURNAMENTS = 2**31  # the pass, however long the tail
    url = make_url(args.server).set(database=args.database).render_as_string(hide_password=False)
    engine = create_db_engine(url)
    with engine.connect() as connection:
        tournament = connection.execute(text("SELECT max(id) FROM tournaments")).scalar_one()
    recalc._at_rest(engine)
    with unit_of_work(engine) as session:
        withdraw_tournament(session, tournament, by="benchmark")
    with recalc._timed_phases() as phases:
        began, cpu = time.perf_counter(), time.process_time()
        outcome = run_recalculation(engine)
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    figures = {
        "path": args.path,
        "withdrawn": tournament,
        "to_consistent_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "reevaluated": outcome.evaluated,
        "changed_players": outcome.changed_players,
        "peak_memory_mb": recalc._peak_mb(),
        "phases_s": {name: round(value, 3) for name, value in phases.items() if value},
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
