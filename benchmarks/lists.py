"""Benchmark of the readers a federation moving in needs: its rating-list ZIP and FIDE's list.

    python benchmarks/lists.py [--scale 1] [--seed 1] [--xml] [--keep DIR] [--json]

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--xml", action="store_true", help="also generate and read the XML list")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep the files")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--read", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
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
