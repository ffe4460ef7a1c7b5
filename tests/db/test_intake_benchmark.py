"""Smoke test of ``benchmarks/intake.py`` at a tiny scale: both bulk doors take the same
synthetic federation in and store the same games. Times are not asserted (machines differ)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from tests.databases import _admin, _with_database
from zdb.db import engine_for
from zdb.tournaments.models import GameRow, Participation

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "intake.py"


def test_both_bulk_doors_store_the_same_federation(postgres_server: str) -> None:
    command = [sys.executable, str(BENCHMARK), "--scale", "0.002", "--server", postgres_server, "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600)
    report = json.loads(done.stdout)
    assert report["games"] > 1000
    assert report["synth_games_per_s"] > 0 and report["import_games_per_s"] > 0
    counted = []
    for database in ("zdb_intake_synth", "zdb_intake_import"):
        engine = engine_for(_with_database(postgres_server, database))
        with engine.connect() as connection:
            counted.append(
                tuple(
                    connection.execute(select(func.count()).select_from(table)).scalar_one()
                    for table in (GameRow, Participation)
                )
            )
        engine.dispose()
        with _admin(postgres_server) as admin:
            admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
    assert counted[0] == counted[1] and counted[0][0] == report["games"]
