"""Database recalculation benchmark on the synthetic federation in PostgreSQL.

    python benchmarks/recalc.py [--scale 1.0] [--seed 1] [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                [--database zdb_bench] [--[no-]stream] [--no-array-path] [--json]

Creates a fresh database (``zdb_bench`` unless told otherwise) on the server, loads the synthetic federation
(``zdb.synthetic``, the engine benchmark's world) and reports in one run:

- the full from-scratch recalculation (load everything, replay, write every row, commit), as
  wall time from the call to the committed result;
- the raw floor: reading every game in replay order and writing as many evaluation-shaped rows
  with COPY, computing nothing (rolled back);
- their ratio (target ≤ 2, goal 1.5), and the CPU time of this process during the run (the
  rest of the run is the server's work: storing rows, checking keys, maintaining indexes);
- one late weekend open ending 12 months before the end of the time line: the time from its
  commit to a consistent database, how many tournaments were re-evaluated, the history and
  report rows the run wrote, and its phases (``_LATE_PHASES``: wall time inside each, nested
  ones inside the walk; target ≤ 0.5 s at scale 1, goal 0.3 s);
- the peak memory of the full recalculation (the process's largest resident set, taken
  before the late open; the process's peak after it beside), which stays flat in the number of
  years: the run reads the tournaments a window at a time
  (``zdb.recalculation.windows``);
- the full recalculation once more with the compiled kernel switched off
  (``ZDB_COMPILED_KERNEL=off``, the array path), its ratio to the kernel's, and the peak memory
  of its process. It runs last, on the time line with the late open (one tournament more);
  ``--no-array-path`` leaves it out;
- the database's size at the end.

Above scale 1 (or with ``--stream``) the federation's tournaments are drawn onto disk and loaded
from there (``spooled_federation``): at scale 10 (~52 M games) they would not fit into memory as
the generator's tuples. The load's figure then leaves out the time spent reading them back
(``load_spool_read_s``, reported beside it).

The full recalculation and the floor each run in a fresh process of their own, on a database at
rest (``_at_rest``), so that neither pays for what ran before it. Measured in the process that
had generated the world and recalculated, and in the wake of the run's writes (its checkpoint,
autovacuum's first pass over its fresh rows), the floor took a fifth to a half longer
than alone, and the ratio came out smaller than it is.

Figures are ratios measured in one run on one machine: machines are noisy, ratios less so.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scratch_database import fresh_database  # beside this script
from spooled_federation import late_open_view, spooled  # beside this script
from sqlalchemy import text

from zdb.db import create_db_engine, unit_of_work
from zdb.exchange.synthetic import load_register, load_tournaments, organiser_prefixes, submission_of
from zdb.migrate import upgrade
from zdb.recalculation.run import run_recalculation
from zdb.synthetic import generate, late_open
from zdb.tournaments.service import submit_tournaments

DATABASE = "zdb_bench"


def _at_rest(engine: object) -> None:
    """A federation's database between two runs: autovacuum has long since set the hint bits
    and statistics of the rows last written, and a checkpoint has flushed them. Without this
    the next timed section pays for the previous one's writes (the first reader of fresh rows
    sets their hint bits; autovacuum and the checkpointer take a core beside it)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:  # type: ignore[attr-defined]
        connection.execute(text("VACUUM (ANALYZE)"))
        connection.execute(text("CHECKPOINT"))


def _raw_floor(engine: object, rows_to_write: int) -> tuple[float, int]:
    """Read every game in replay order (server-side cursor) and COPY as many evaluation-shaped
    rows into a scratch table; nothing computed, everything rolled back."""
    started = time.perf_counter()
    read = 0
    with engine.connect() as connection:  # type: ignore[attr-defined]
        driver = connection.connection.driver_connection
        with driver.cursor(name="replay_order") as cursor:
            cursor.itersize = 50_000
            cursor.execute(
                "SELECT g.tournament_id, g.seq, g.white_pkz, g.black_pkz, g.result"
                " FROM games g JOIN tournaments t ON t.id = g.tournament_id AND t.current_version = g.version"
                " JOIN tournament_versions v ON v.tournament_id = t.id AND v.version = t.current_version"
                " WHERE t.status <> 'withdrawn' ORDER BY v.end_date, v.acronym, v.tournament_id, g.seq"
            )
            while batch := cursor.fetchmany(50_000):
                read += len(batch)
        with driver.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE floor_rows (LIKE evaluations)")
            columns = "tournament_id, version, player_pkz, position, rule_set, member, stage, fide_start, w, n, "
            columns += "unrated_games, sonder, stored, leftover_used, leftover_stored, r0, i0, we, e, rh, rn, i_new"
            row: tuple[object, ...] = (1, 1, 1, 0, "classic", True, "established", False, 1.0, 1, 0, False, True, 0, 0)
            row += (1500, 10, 0.5, 20, 1500, 1510, 11)
            with cursor.copy(f"COPY floor_rows ({columns}) FROM STDIN") as copy:
                for k in range(rows_to_write):
                    copy.write_row((row[0], row[1], k, *row[3:]))
        driver.rollback()
    return time.perf_counter() - started, read


def run(
    scale: float,
    seed: int,
    server: str,
    database: str = DATABASE,
    *,
    stream: bool | None = None,
    array_path: bool = True,
) -> dict[str, float | int]:
    """The figures of one run. ``stream`` (default: above scale 1) draws the federation's
    tournaments onto disk and loads them from there (``spooled_federation``), never all in
    memory; the time spent reading them back is reported apart and not counted in the load.
    ``array_path=False`` leaves out the last section, the recalculation without the kernel."""
    url = fresh_database(server, database)
    upgrade(url)
    engine = create_db_engine(url)
    with tempfile.TemporaryDirectory() as scratch:
        began = time.perf_counter()
        world = (
            spooled(seed, scale, Path(scratch)) if (scale > 1 if stream is None else stream) else generate(seed, scale)
        )
        generated = time.perf_counter() - began
        began = time.perf_counter()
        with unit_of_work(engine) as session:
            load_register(session, world)
            games = load_tournaments(session, world)
        spool_read = getattr(world.tournaments, "read_s", 0.0)
        loaded = time.perf_counter() - began - spool_read
        players, tournaments = len(world.players), len(world.tournaments)
        late_file = Path(scratch) / "late.pickle"
        late_file.write_bytes(pickle.dumps(submission_of(late_open(late_open_view(world)), organiser_prefixes(world))))
        del world
        _at_rest(engine)
        recalculated = _in_fresh_process("full", url, str(late_file))
    _at_rest(engine)
    floor = _in_fresh_process("floor", url, str(recalculated["evaluation_rows"]))
    without_kernel: dict[str, Any] = {}
    if array_path:
        _at_rest(engine)
        array = _in_fresh_process("full-array-path", url, "", {"ZDB_COMPILED_KERNEL": "off"})
        without_kernel = {
            "array_path_full_recalculation_s": round(array["full_s"], 2),
            "array_path_full_recalculation_client_cpu_s": round(array["full_cpu_s"], 2),
            "array_path_peak_memory_mb": array["peak_mb"],
            "array_path_over_kernel": round(array["full_s"] / recalculated["full_s"], 2),
            "array_path_over_kernel_client_cpu": round(array["full_cpu_s"] / recalculated["full_cpu_s"], 2),
        }
    with engine.connect() as connection:
        size = connection.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
    engine.dispose()
    return {
        "scale": scale,
        "players": players,
        "tournaments": tournaments,
        "games": games,
        "games_read_by_floor": floor["read"],
        "evaluation_rows": recalculated["evaluation_rows"],
        "generate_s": round(generated, 2),
        "load_s": round(loaded, 2),
        "load_spool_read_s": round(spool_read, 2),
        "full_recalculation_s": round(recalculated["full_s"], 2),
        "full_recalculation_client_cpu_s": round(recalculated["full_cpu_s"], 2),
        "raw_floor_s": round(floor["floor_s"], 2),
        "full_over_floor": round(recalculated["full_s"] / floor["floor_s"], 2),
        "late_open_to_consistent_s": round(recalculated["late_s"], 3),
        "late_open_client_cpu_s": round(recalculated["late_cpu_s"], 3),
        "late_open_reevaluated": recalculated["reevaluated"],
        "late_open_changed_players": recalculated["changed_players"],
        "late_open_history_rows_written": recalculated["history_rows_written"],
        "late_open_report_rows_written": recalculated["report_rows_written"],
        **{f"late_open_phase_{name}_s": round(value, 3) for name, value in recalculated["late_phases"].items()},
        "full_recalculation_peak_memory_mb": recalculated["full_peak_mb"],
        "with_late_open_peak_memory_mb": recalculated["peak_mb"],
        **without_kernel,
        "database_size_mb": round(size / 2**20),
    }


#: how a section's process learns the database's address (not on its command line: it may hold a password)
_URL_VARIABLE = "ZDB_BENCHMARK_DATABASE_URL"


def _in_fresh_process(section: str, url: str, argument: str, settings: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a timed section in a process of its own (with ``settings`` in its environment); its figures."""
    command = [sys.executable, __file__, "--section", section, argument]
    environment = {**os.environ, **(settings or {}), _URL_VARIABLE: url}
    finished = subprocess.run(command, check=True, capture_output=True, text=True, env=environment)
    return dict(json.loads(finished.stdout))


def _full_and_late(url: str, late_file: str) -> dict[str, Any]:
    """The full recalculation, then, on the database at rest, the late open from its commit to
    a consistent database (in the same process: a worker that has recalculated before)."""
    engine = create_db_engine(url)
    began, cpu = time.perf_counter(), time.process_time()
    run_recalculation(engine, from_scratch=True)
    full, full_cpu = time.perf_counter() - began, time.process_time() - cpu  # to the commit, included
    full_peak = _peak_mb()  # before the late open: the full run's own
    with engine.connect() as connection:
        evaluation_rows = connection.execute(text("SELECT count(*) FROM evaluations")).scalar_one()
    _at_rest(engine)
    with unit_of_work(engine) as session:
        submit_tournaments(session, [pickle.loads(Path(late_file).read_bytes())], by="benchmark")
    with _timed_phases() as phases:
        committed, cpu = time.perf_counter(), time.process_time()
        incremental = run_recalculation(engine)
        late, late_cpu = time.perf_counter() - committed, time.process_time() - cpu
    written = _written_by_last_run(engine)
    return {
        "full_s": full,
        "full_cpu_s": full_cpu,
        "evaluation_rows": evaluation_rows,
        "late_s": late,
        "late_cpu_s": late_cpu,
        "reevaluated": incremental.evaluated,
        "changed_players": incremental.changed_players,
        "history_rows_written": written["rating_history"],
        "report_rows_written": written["evaluations"],
        "late_phases": phases,
        "full_peak_mb": full_peak,
        "peak_mb": _peak_mb(),
    }


#: phases of the incremental run timed in the benchmark's process (module, function, name).
#: ``walk`` holds the ``walk_`` phases (and reading the stored steps as keys and players);
#: ``compare`` includes deleting the stored rows that differ (mending); ``read_states`` is the
#: participants' states read in one statement before the walk, ``read_states_one_by_one`` the
#: few the walk reads itself. ``tail`` is the run from states (``compiled_tail``, PostgreSQL with
#: the compiled pass) and holds the ``tail_`` phases; ``write`` is inside ``tail_compare_and_write``
_LATE_PHASES = (
    ("zdb.timeline.stored_state", "states_before", "read_states"),
    ("zdb.timeline.stored_state", "state_before", "read_states_one_by_one"),
    ("zdb.recalculation.recalculate", "replay_incremental", "walk"),
    ("zdb.recalculation.store", "stored_rows", "walk_read_step_rows"),
    ("zdb.tournaments.engine_view", "load_tournaments", "walk_load_tournaments"),
    ("zdb.rating.replay", "evaluate_tournaments", "walk_evaluate"),
    ("zdb.recalculation.mending", "mend", "compare"),
    ("zdb.recalculation.compiled_tail", "replay_tail", "tail"),
    ("zdb.recalculation.compiled_tail", "read_stored_tail", "tail_read_stored_rows"),
    ("zdb.recalculation.compiled_tail", "initial_states", "tail_initial_states"),
    ("zdb.recalculation.compiled_tail", "tail_events", "tail_read_tournaments"),
    ("zdb.recalculation.compiled_tail", "replayed", "tail_pass"),
    ("zdb.recalculation.compiled_tail", "write_differences", "tail_compare_and_write"),
    ("zdb.recalculation.compiled_tail", "stored_reports", "tail_read_reports"),
    ("zdb.recalculation.compiled_tail", "delete_stored", "tail_delete_stale_rows"),
    ("zdb.recalculation.store", "delete_history_at", "write"),
    ("zdb.recalculation.store", "delete_evaluations", "write"),
    ("zdb.recalculation.store", "write_steps", "write"),
    ("zdb.recalculation.store", "write_current_ratings", "write"),
)


@contextmanager
def _timed_phases() -> Iterator[dict[str, float]]:
    """Wall time spent inside each phase of ``_LATE_PHASES`` while the block runs (the
    functions wrapped where the run looks them up, and restored after)."""
    totals: dict[str, float] = dict.fromkeys((name for _, _, name in _LATE_PHASES), 0.0)
    saved: list[tuple[Any, str, Any]] = []

    def timed(function: Callable[..., Any], name: str) -> Callable[..., Any]:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                totals[name] += time.perf_counter() - began

        return wrapper

    for module_name, attribute, name in _LATE_PHASES:
        module = importlib.import_module(module_name)
        if not hasattr(module, attribute):  # an earlier revision's run (``PYTHONPATH``) lacks the phase
            continue
        saved.append((module, attribute, getattr(module, attribute)))
        setattr(module, attribute, timed(getattr(module, attribute), name))
    try:
        yield totals
    finally:
        for module, attribute, function in reversed(saved):
            setattr(module, attribute, function)


def _written_by_last_run(engine: Any) -> dict[str, int]:
    """History and report rows inserted by the last transaction that wrote the late open's
    rows (those carrying its transaction id)."""
    written = {}
    with engine.connect() as connection:
        for table in ("rating_history", "evaluations"):
            written[table] = connection.execute(
                text(
                    f"SELECT count(*) FROM {table} WHERE xmin = (SELECT xmin FROM evaluations"
                    " WHERE tournament_id = (SELECT max(tournament_id) FROM evaluations) LIMIT 1)"
                )
            ).scalar_one()
    return written


def _peak_mb() -> int:
    """This process's largest resident set. Linux's ``ru_maxrss`` carries over the parent's at
    the fork (the parent here holds the generated world), so it is read as ``VmHWM``, the
    high-water mark of this program's own memory, where there is one."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)  # kilobytes on Linux


def _full_only(url: str, _: str) -> dict[str, Any]:
    """The full recalculation alone (with the settings of the environment)."""
    began, cpu = time.perf_counter(), time.process_time()
    run_recalculation(create_db_engine(url), from_scratch=True)
    return {"full_s": time.perf_counter() - began, "full_cpu_s": time.process_time() - cpu, "peak_mb": _peak_mb()}


def _floor(url: str, rows: str) -> dict[str, Any]:
    floor, read = _raw_floor(create_db_engine(url), int(rows))
    return {"floor_s": floor, "read": read}


_SECTIONS = {"full": _full_and_late, "floor": _floor, "full-array-path": _full_only}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", default=DATABASE, help="scratch database to drop and create")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--stream",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="draw the tournaments onto disk and load them from there (default: above scale 1)",
    )
    parser.add_argument(
        "--array-path",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also recalculate without the compiled kernel (the last section)",
    )
    parser.add_argument("--section", nargs=2, metavar=("NAME", "ARGUMENT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.section:  # one timed section, in a process of its own (``_in_fresh_process``)
        name, argument = args.section
        print(json.dumps(_SECTIONS[name](os.environ[_URL_VARIABLE], argument)))
        return 0
    figures = run(args.scale, args.seed, args.server, args.database, stream=args.stream, array_path=args.array_path)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
