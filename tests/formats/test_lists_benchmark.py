"""Smoke test of ``benchmarks/lists.py`` at a tiny scale: it generates its files, reads each in
a fresh process and reports its figures. Times are not asserted (machines differ)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "lists.py"


def test_the_list_benchmark_runs_at_a_small_scale() -> None:
    command = [sys.executable, str(BENCHMARK), "--scale", "0.0005", "--xml", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(done.stdout)
    readings = {reading["kind"]: reading for reading in report["readings"]}
    assert set(readings) == {"list", "fide-txt", "fide-xml"}
    assert readings["list"]["values"] == 50
    assert readings["fide-txt"]["values"] == readings["fide-xml"]["values"] == 965
    assert all(reading["problems"] == 0 and reading["peak_mb"] > 0 for reading in readings.values())
