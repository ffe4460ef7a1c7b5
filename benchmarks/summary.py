"""The figures of issue 39 in one run, each beside its floor, written as JSON and into README.

    python benchmarks/summary.py [--scale 1] [--seed 1] [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                 [--database zdb_bench] [--no-engine] [--no-readme]
                                 [--recalc-figures FILE --recalc-command TEXT --recalc-date TEXT --recalc-load B A]

Runs, one after the other, the benchmarks that measure issue 39's figures and keeps their own
floors beside them: ``engine.py --json`` (the compiled pass against its compiled floor loop, the
engine's in-memory replay of the late open) in a process of its own, then ``recalc.py``'s
``run`` (the bulk load, the full recalculation against the raw floor, its peak memory, the late
open to a consistent database). Nothing is measured twice here: the figures are those scripts'.
The run's figures, with the command, the date and the machine's load average before and after,
go to ``benchmarks/figures/scale-<scale>.json`` (replacing that scale's last run), and the table
of every scale's stored run to README, between the marker comments of ``performance_table``.

Above scale 1 ``engine.py`` is left out (it keeps the whole time line in memory) and
``recalc.py`` streams the federation from disk. ``--recalc-figures`` takes ``recalc.py --json``'s
output of a run made before instead of running it again (a scale-10 run takes an hour), with the
command that made it, when it began and the load averages before and after it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import performance_table  # beside this script
import recalc  # beside this script

HERE = Path(__file__).resolve().parent
FIGURES = HERE / "figures"
README = HERE.parent / "README.md"


def _load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _engine(scale: float, seed: int) -> dict[str, Any]:
    """``engine.py --json`` in a process of its own (its memory and its garbage collector's
    settings stay there)."""
    command = [sys.executable, str(HERE / "engine.py"), "--scale", f"{scale:g}", "--seed", str(seed), "--json"]
    finished = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    return dict(json.loads(finished.stdout))


def measure(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """One run at ``args.scale``: its figures and how they were made."""
    before, began = _load_average(), time.time()
    engine = _engine(args.scale, args.seed) if args.engine else None
    commands = [command]
    if args.recalc_figures:  # a run made before: its own command, date and load average
        figures = dict(json.loads(Path(args.recalc_figures).read_text()))
        commands = [args.recalc_command or f"recalc.py figures from {args.recalc_figures}"]
        date, before, after = args.recalc_date, args.recalc_load[0], args.recalc_load[1]
    else:
        figures = recalc.run(args.scale, args.seed, args.server, args.database, array_path=False)
        date, after = datetime.fromtimestamp(began, UTC).strftime("%Y-%m-%d %H:%M UTC"), _load_average()
    return {
        "scale": args.scale,
        "seed": args.seed,
        "date": date,
        "minutes": None if args.recalc_figures else round((time.time() - began) / 60, 1),
        "cores": os.cpu_count(),
        "load_average": {"before": before, "after": after},
        "commands": commands,
        "engine": engine,
        "recalc": figures,
    }


def write(run: dict[str, Any], figures: Path, readme: Path | None) -> Path:
    """Store ``run`` as its scale's figures and regenerate README's table from every stored run."""
    figures.mkdir(exist_ok=True)
    path = figures / f"scale-{run['scale']:g}.json"
    path.write_text(json.dumps(run, indent=2, ensure_ascii=False) + "\n")
    if readme is not None:
        runs = [json.loads(p.read_text()) for p in sorted(figures.glob("scale-*.json"))]
        readme.write_text(performance_table.replace_block(readme.read_text(), performance_table.render(runs)))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", default=recalc.DATABASE, help="scratch database to drop and create")
    parser.add_argument(
        "--engine",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run engine.py (default: up to scale 1; it holds the whole time line in memory)",
    )
    parser.add_argument("--recalc-figures", help="recalc.py --json output of an earlier run, instead of running it")
    parser.add_argument("--recalc-command", help="the command that made --recalc-figures")
    parser.add_argument("--recalc-date", help="when that run began (YYYY-MM-DD HH:MM UTC)")
    parser.add_argument(
        "--recalc-load",
        nargs=2,
        type=lambda text: [float(x) for x in text.split(",")],
        metavar=("BEFORE", "AFTER"),
        help="the load averages (1,5,15 min) before and after that run",
    )
    parser.add_argument("--figures", type=Path, default=FIGURES, help="where each scale's figures are kept")
    parser.add_argument("--readme", type=Path, default=README)
    parser.add_argument("--no-readme", action="store_true", help="write the figures only")
    args = parser.parse_args(argv)
    if args.engine is None:
        args.engine = args.scale <= 1 and not args.recalc_figures
    if args.recalc_figures and not (args.recalc_command and args.recalc_date and args.recalc_load):
        parser.error("--recalc-figures needs --recalc-command, --recalc-date and --recalc-load")
    command = shlex.join(["python", "benchmarks/summary.py", *(sys.argv[1:] if argv is None else argv)])
    run = measure(args, command)
    path = write(run, args.figures, None if args.no_readme else args.readme)
    print(json.dumps(run, indent=2, ensure_ascii=False))
    print(f"written: {path}" + ("" if args.no_readme else f" and {args.readme}"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
