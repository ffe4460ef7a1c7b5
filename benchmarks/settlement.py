"""The first settlement after a schedule that reaches far back, on the synthetic federation.

    python benchmarks/settlement.py [--scale 0.05] [--seed 1] [--runs 3]
                                    [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                    [--database zdb_bench_fees]

Creates a fresh database on the server, loads and rates the synthetic federation (``zdb synth``),
and saves one schedule for the federation's root valid from the first day of its time line, so
that every evaluated tournament is owed fees at once. Then it books them (``zdb.fees.ledger.settle``)
``--runs`` times, each in a transaction of its own that is rolled back, and prints for the best
run: the tournaments booked, the lines written, their sum (the same figures for every way of
booking them), the wall time, and the SQL statements sent (a figure machines do not change).
Before the runs it checks that the drafts read at once (``zdb.fees.drafts.drafts_at_once``) are
those read tournament by tournament (``draft_fees``), for every tournament to book.

Figures are measured in one run on one machine: compare them on the same machine.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from click.testing import CliRunner
from scratch_database import fresh_database  # beside this script
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from zdb.cli import main
from zdb.db import create_db_engine, unit_of_work
from zdb.federations.models import Federation
from zdb.fees.drafts import draft_fees, drafts_at_once
from zdb.fees.ledger import settle
from zdb.fees.models import FeeLine
from zdb.fees.schedules import save_schedule
from zdb.fees.schemas import FeeScheduleIn
from zdb.migrate import upgrade
from zdb.tournaments.models import TournamentRecord, TournamentVersion

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server", default=SERVER)
    parser.add_argument("--database", default="zdb_bench_fees")
    return parser.parse_args()


def run() -> None:
    args = _arguments()
    url = fresh_database(args.server, args.database)
    upgrade(url)
    loaded = CliRunner().invoke(
        main, ["synth", "--scale", str(args.scale), "--seed", str(args.seed), "--database-url", url]
    )
    assert loaded.exit_code == 0, loaded.output
    engine = create_db_engine(url)
    with unit_of_work(engine) as session:
        root = session.execute(select(Federation.prefix).where(Federation.parent_prefix.is_(None))).scalar_one()
        first = session.execute(select(func.min(TournamentVersion.end_date))).scalar_one()
        body = FeeScheduleIn(
            federation=root,
            valid_from=date(first.year, 1, 1),
            dwz_per_tournament=Decimal("10.00"),
            dwz_per_game=Decimal("0.50"),
            dwz_per_non_member=Decimal("2.00"),
            fide_per_player=Decimal("3.00"),
            fide_late_report=Decimal("60.00"),
        )
        save_schedule(session, body, by="benchmark")
    with unit_of_work(engine) as session:
        records = list(
            session.execute(
                select(TournamentRecord)
                .where(TournamentRecord.evaluated_version.is_not(None))
                .order_by(TournamentRecord.id)
            ).scalars()
        )
        batch = drafts_at_once(session, [r.id for r in records])
        single = [draft_fees(session, r, r.evaluated_version) for r in records if r.evaluated_version is not None]
        assert batch == single, "the drafts read at once differ from those read one by one"
    statements = 0

    def count(*_: Any) -> None:
        nonlocal statements
        statements += 1

    event.listen(engine, "before_cursor_execute", count)
    best: tuple[float, int, int, int, int] | None = None
    for _ in range(args.runs):
        statements = 0
        with engine.connect() as connection:
            transaction = connection.begin()
            session = Session(bind=connection)
            started = time.perf_counter()
            booked = settle(session, now=datetime(2030, 1, 1, tzinfo=UTC))
            session.flush()
            seconds = time.perf_counter() - started
            sent = statements
            lines, total = session.execute(select(func.count(), func.sum(FeeLine.amount_cents))).one()
            session.close()
            transaction.rollback()
        run = (seconds, sent, booked, lines, int(total or 0))
        best = run if best is None or run < best else best
    assert best is not None
    seconds, sent, booked, lines, total = best
    print(f"scale {args.scale}: {booked} tournaments booked, {lines} lines, {total / 100:.2f} in all")
    print(f"settlement: {seconds:.2f} s (best of {args.runs}), {sent} SQL statements")


if __name__ == "__main__":
    run()
