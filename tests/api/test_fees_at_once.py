"""Two at once: two staff issuing the same invoice — one wins, the other gets 409 naming it, and
the fees are booked once (both issues settle first); two referees registering one announcement
with FIDE — one wins, the other gets 409."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tests.api.fees_world import SCHEDULE, announce, days_from_today, played, register, submit
from tests.api.test_submissions import _headers
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.db import engine_for, unit_of_work
from zdb.fees.models import FeeAssessment, FeeLine


def _twice(send: Callable[[], Any]) -> list[Any]:
    answers: list[Any] = []
    start = threading.Barrier(2)

    def run() -> None:
        start.wait()
        answers.append(send())

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_the_same_invoice_twice_at_once_is_issued_once(fresh: World) -> None:
    assert (
        fresh.client.post("/api/v1/fees/schedules", json=SCHEDULE, headers=_headers(fresh, "admin")).status_code == 201
    )
    code = announce(fresh, -20, -18)
    tid = submit(fresh, played(fresh, -20, [2300, 2400, 2500, 2600]), code)
    recalc(fresh.url)
    period = {"payer": "SK Musterstadt 1920", "period_from": days_from_today(0), "period_to": days_from_today(0)}
    answers = _twice(lambda: fresh.client.post("/api/v1/fees/invoices", json=period, headers=_headers(fresh, "admin")))
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    number = next(a.json()["number"] for a in answers if a.status_code == 201)
    if fresh.url.startswith("postgresql"):  # the fees' lock: the second finds the lines invoiced
        assert number in next(a.text for a in answers if a.status_code == 409)
    # SQLite has no such lock: the second's statements meet the first's unique keys, a 409 as well
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(FeeAssessment).filter_by(tournament_id=tid).count() == 1
        # not announced as FIDE-rated: the national fees only, 10.00 + 6 x 0.50 + 1 x 2.00
        assert sum(line.amount_cents for line in session.query(FeeLine).filter_by(tournament_id=tid)) == 1500


def test_one_announcement_registered_twice_at_once_is_registered_once(fresh: World) -> None:
    code = announce(fresh, 60, 62)
    answers = _twice(lambda: register(fresh, code))
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
