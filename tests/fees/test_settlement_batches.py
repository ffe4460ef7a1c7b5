"""The settlement books in batches (``zdb.fees.ledger.BATCH``), and what it books is what booking
tournament by tournament gives: on the synthetic federation, rated, with one schedule that reaches
back before its first tournament, the facts read at once (``drafts_at_once``) equal those read
one by one (``draft_fees``: counts, payer, schedule, lines), and a settlement in batches of seven
books every evaluated tournament once with exactly its draft's lines; a second settlement books
nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.databases import database_copy
from zdb.cli import main
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Federation
from zdb.fees import ledger
from zdb.fees.drafts import draft_fees, drafts_at_once
from zdb.fees.models import FeeAssessment, FeeLine
from zdb.fees.schedules import save_schedule
from zdb.fees.schemas import FeeScheduleIn
from zdb.tournaments.models import TournamentRecord, TournamentVersion


@pytest.fixture(scope="module")
def rated(postgres_server: str, postgres_template: str) -> Iterator[str]:
    """The synthetic federation, rated, with a schedule for its root from before its first tournament."""
    with database_copy(postgres_server, postgres_template, "zdb_fees") as url:
        loaded = CliRunner().invoke(main, ["synth", "--scale", "0.003", "--database-url", url])
        assert loaded.exit_code == 0, loaded.output
        with unit_of_work(engine_for(url)) as session:
            root = session.execute(select(Federation.prefix).where(Federation.parent_prefix.is_(None))).scalar_one()
            first = session.execute(select(func.min(TournamentVersion.end_date))).scalar_one()
            body = FeeScheduleIn(
                federation=root,
                valid_from=date(first.year, 1, 1),
                dwz_per_tournament=Decimal("10.00"),
                dwz_per_game=Decimal("0.50"),
                dwz_per_non_member=Decimal("2.00"),
            )
            save_schedule(session, body, by="test")
        yield url


def _evaluated(session: Session) -> list[TournamentRecord]:
    t = TournamentRecord
    return list(session.execute(select(t).where(t.evaluated_version.is_not(None)).order_by(t.id)).scalars())


def test_the_drafts_read_at_once_are_those_read_one_by_one(rated: str) -> None:
    with unit_of_work(engine_for(rated)) as session:
        records = _evaluated(session)
        assert len(records) > 2 * 7, "more tournaments than two batches of the next test"
        at_once = drafts_at_once(session, [r.id for r in records])
        assert at_once == [draft_fees(session, r, r.evaluated_version or 0) for r in records]
        assert all(d.schedule is not None and d.lines for d in at_once)


def test_a_settlement_in_batches_books_each_tournament_once_with_its_draft(
    rated: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger, "BATCH", 7)
    with unit_of_work(engine_for(rated)) as session:
        records = _evaluated(session)
        drafts = {d.tournament_id: d for d in drafts_at_once(session, [r.id for r in records])}
        now = datetime(2030, 1, 1, tzinfo=UTC)
        assert ledger.settle(session, now=now) == len(records)
        assert ledger.settle(session, now=now) == 0
        booked = session.execute(select(FeeAssessment.tournament_id, FeeAssessment.players, FeeAssessment.games))
        assert sorted(booked) == sorted((t, d.basis.players, d.basis.games) for t, d in drafts.items())
        lines = session.execute(
            select(
                FeeLine.tournament_id, FeeLine.kind, FeeLine.quantity, FeeLine.unit_cents, FeeLine.amount_cents
            ).where(FeeLine.credit_of.is_(None))
        ).all()
        assert sorted(lines) == sorted(
            (t, x.kind, x.quantity, x.unit_cents, x.amount_cents) for t, d in drafts.items() for x in d.lines
        )
        assert {line.booked_on for line in session.execute(select(FeeLine)).scalars()} == {now.date()}
        session.rollback()
