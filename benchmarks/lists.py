"""Benchmark of the readers a federation moving in needs: its rating-list ZIP and FIDE's list,
and of the rating list's import into PostgreSQL.

    python benchmarks/lists.py [--scale 1] [--seed 1] [--xml] [--keep DIR] [--json]
    python benchmarks/lists.py --database-url postgresql+psycopg://USER@HOST/DB [--scale 1] [--changed 0.01]
        [--fide-players 1930000]

Generates, with ``zdb.synthetic.rating_lists`` and ``zdb.synthetic.fide_lists`` (made-up names,
every quirk of the real files), a rating-list ZIP of ``100,000 × scale`` memberships in the
portal's 2026 layout (Windows-1252) and FIDE's combined list of ``1,930,000 × scale`` players as
fixed-width text (with ``--xml`` also as XML, about 450 bytes a player). Then each file is read
in a fresh Python process, so that one reading's memory does not hide in another's figure:
``zdb.formats.list_reader.read_rating_list`` on the ZIP's bytes, ``read_fide_txt`` /
``read_fide_xml`` streaming the file (every player is built, then dropped, as a sync would).

Reported per reading: wall and CPU time in seconds, the process's peak resident memory in MB
(``VmHWM`` of ``/proc/self/status``, the interpreter and its imports included; where that is
missing ``resource.getrusage`` maxrss, which on Linux a child inherits from the process that
forked it, hence not first choice) and the count of values and problems read. Target for the
FIDE text at scale 1: at most 60 s and 500 MB, judged on wall time; on a machine shared with
other work the CPU time shows what the reading itself costs. A missed target is reported, not
an error; the exit code is 1 only when a reading fails.

With ``--database-url`` (a PostgreSQL server database to create a scratch database from, which is
dropped afterwards) it measures the import instead (``zdb.lists.service.import_rating_list``, one
transaction, the ZIP's reading included): the list of ``100,000 × scale`` memberships into the
empty, migrated database, then the same list with ``--changed`` (1 %) of its people changed (a
corrected surname for half of them, a transfer to another club for the other half), and the
register rows that re-import wrote (people, memberships, starting states; the audit entries
beside them not counted). Targets at scale 1: 30 s and 10 s; a miss is reported, not an error.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LIST_MEMBERSHIPS = 100_000
FIDE_PLAYERS = 1_930_000
TARGET_SECONDS = 60.0
TARGET_MB = 500.0


def _generate(directory: Path, scale: float, seed: int, xml: bool) -> dict[str, Path]:
    from zdb.synthetic.fide_lists import fide_players, write_fide_txt, write_fide_xml
    from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

    paths = {"list": directory / "LV-0-csv.zip", "fide-txt": directory / "players_list_foa.txt"}
    memberships = max(10, round(LIST_MEMBERSHIPS * scale))
    paths["list"].write_bytes(list_zip_bytes(synthetic_list(seed, memberships), "portal"))
    players = max(10, round(FIDE_PLAYERS * scale))
    with paths["fide-txt"].open("wb") as out:
        write_fide_txt(fide_players(seed, players), out)
    if xml:
        paths["fide-xml"] = directory / "players_list_xml_foa.xml"
        with paths["fide-xml"].open("wb") as out:
            write_fide_xml(fide_players(seed, players), out)
    return paths


def _read(kind: str, path: Path) -> dict[str, float | int | str]:
    """Reads one file in this process; returns its figures."""
    from zdb.formats.fide_list import FidePlayer
    from zdb.formats.fide_txt import read_fide_txt
    from zdb.formats.fide_xml import read_fide_xml
    from zdb.formats.list_reader import read_rating_list

    start, cpu = time.perf_counter(), time.process_time()
    if kind == "list":
        rating_list = read_rating_list(path.read_bytes())
        values, problems = len(rating_list.members), len(rating_list.problems)
    else:
        values = problems = 0
        with path.open("rb") as lines:
            reader = read_fide_txt(lines) if kind == "fide-txt" else read_fide_xml(lines)
            for item in reader:
                if isinstance(item, FidePlayer):
                    values += 1
                else:
                    problems += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "kind": kind,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "peak_mb": round(_peak_mb(), 1),
        "values": values,
        "problems": problems,
        "bytes": path.stat().st_size,
    }


def _peak_mb() -> float:
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _measure(kind: str, path: Path) -> dict[str, float | int | str]:
    command = [sys.executable, __file__, "--read", kind, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    figures: dict[str, float | int | str] = json.loads(done.stdout)
    return figures


IMPORT_TARGET_SECONDS = 30.0
SYNC_TARGET_SECONDS = 10.0


def _changed_list(data: Any, share: float, seed: int) -> Any:
    """``data`` with ``share`` of its people changed: every other one renamed, the others moved
    to another club (a membership ends, another begins)."""
    from dataclasses import replace
    from random import Random

    rng = Random(seed)
    people = sorted({m.person_id for m in data.members if m.person_id is not None})
    chosen = rng.sample(people, max(1, round(len(people) * share)))
    renamed, moved = set(chosen[::2]), set(chosen[1::2])
    codes = [club.code for club in data.clubs]
    numbers = 90_000
    members = []
    for member in data.members:
        if member.person_id in renamed:
            member = replace(member, surname=f"{member.surname}-Neu")  # noqa: PLW2901 - the changed line
        elif member.person_id in moved and member.status == "active":
            numbers += 1
            other = next(code for code in rng.sample(codes, 2) if code != member.club_code)
            member = replace(member, club_code=other, member_no=numbers)  # noqa: PLW2901
        members.append(member)
    return replace(data, members=tuple(members))


def _fide_import(engine: Any, players: int, seed: int) -> tuple[float, float, int]:
    """FIDE's list of ``players`` stored as an edition: wall and CPU seconds, players stored."""
    from datetime import date

    from zdb.db import unit_of_work
    from zdb.lists.fide_import import import_fide_list
    from zdb.synthetic.fide_lists import fide_players, write_fide_txt

    with tempfile.TemporaryDirectory(prefix="zdb-fide-") as scratch:
        path = Path(scratch) / "players_list_foa.txt"
        with path.open("wb") as out:
            write_fide_txt(fide_players(seed, players), out)
        start, cpu = time.perf_counter(), time.process_time()
        with unit_of_work(engine) as session, path.open("rb") as lines:
            answer = import_fide_list(session, lines, file=path.name, edition=date(2026, 11, 1), skip_problems=True)
        return time.perf_counter() - start, time.process_time() - cpu, answer.players


def _import_benchmark(server_url: str, scale: float, seed: int, share: float, fide_players: int = 0) -> int:
    import uuid

    import psycopg
    from sqlalchemy.engine import make_url

    from zdb.db import engine_for, unit_of_work
    from zdb.lists.service import import_rating_list
    from zdb.migrate import upgrade
    from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

    memberships = max(10, round(LIST_MEMBERSHIPS * scale))
    data = synthetic_list(seed, memberships)
    first = list_zip_bytes(data)
    second = list_zip_bytes(_changed_list(data, share, seed))
    url = make_url(server_url)
    name = f"zdb_bench_lists_{uuid.uuid4().hex[:8]}"
    admin = {"host": url.host, "port": url.port or 5432, "user": url.username, "password": url.password}
    with psycopg.connect(**admin, dbname=url.database, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = url.set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(database)
        engine = engine_for(database)
        figures = []
        for label, zipped, target in (
            ("import", first, IMPORT_TARGET_SECONDS),
            ("re-import", second, SYNC_TARGET_SECONDS),
        ):
            start, cpu = time.perf_counter(), time.process_time()
            with unit_of_work(engine) as session:
                answer = import_rating_list(
                    session, zipped, file="LV-0-csv.zip", list_date=None, skip_problems=True, by="benchmark"
                )
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            figures.append((label, seconds, cpu, answer, target))
        fide = _fide_import(engine, fide_players, seed) if fide_players else None
        engine.dispose()
    finally:
        with psycopg.connect(**admin, dbname=url.database, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"scale {scale}: {memberships} memberships, {share:.1%} of the people changed in the second list")
    for label, seconds, cpu, answer, target in figures:
        written = answer.changes
        met = "met" if seconds <= target else "MISSED"
        line = f"{label:9} {seconds:7.2f} s (CPU {cpu:6.2f} s)  {written:>7} register rows written"
        if scale >= 1:
            line += f"  target {target:.0f} s: {met}"
        print(line)
        counts = {k: v for k, v in answer.counts.items() if v}
        print(f"          {counts}")
    ratio = figures[1][1] / figures[0][1]
    print(f"re-import / import: {ratio:.2f}")
    if fide is not None:
        seconds, cpu, stored = fide
        print(f"FIDE list {seconds:7.2f} s (CPU {cpu:6.2f} s)  {stored:>7} players stored as one edition")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--xml", action="store_true", help="also generate and read the XML list")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep the files")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--read", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help="measure the import into a scratch database on this PostgreSQL server")
    parser.add_argument("--changed", type=float, default=0.01, help="share of the people the second list changes")
    parser.add_argument("--fide-players", type=int, default=0, help="also store a FIDE list of this many players")
    args = parser.parse_args(argv)
    if args.database_url:
        return _import_benchmark(args.database_url, args.scale, args.seed, args.changed, args.fide_players)
    if args.read:
        print(json.dumps(_read(args.read[0], Path(args.read[1]))))
        return 0
    with tempfile.TemporaryDirectory(prefix="zdb-lists-") as scratch:
        directory = args.keep or Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        paths = _generate(directory, args.scale, args.seed, args.xml)
        generated = round(time.perf_counter() - start, 1)
        try:
            results = [_measure(kind, path) for kind, path in paths.items()]
        except subprocess.CalledProcessError as error:
            print(error.stderr, file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps({"scale": args.scale, "generated_seconds": generated, "readings": results}))
        return 0
    print(f"scale {args.scale}: files generated in {generated} s")
    for figures in results:
        line = (
            f"{figures['kind']:9} {figures['bytes'] / 1e6:8.1f} MB file  {figures['values']:>9} values "
            f"{figures['problems']:>4} problems  {figures['seconds']:7.2f} s (CPU {figures['cpu_seconds']:7.2f} s)  "
            f"peak {figures['peak_mb']:6.1f} MB"
        )
        if figures["kind"] == "fide-txt" and args.scale >= 1:
            met = float(figures["seconds"]) <= TARGET_SECONDS and float(figures["peak_mb"]) <= TARGET_MB
            line += f"  target {TARGET_SECONDS:.0f} s / {TARGET_MB:.0f} MB: {'met' if met else 'MISSED'}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
