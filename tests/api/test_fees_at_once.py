"""Two at once: two staff issuing the same invoice — one wins, the other gets 409 naming it, and
the fees are booked once (both issues settle first), on PostgreSQL and on SQLite alike; two
invoices of two payers at once get the next two numbers; two referees registering one
announcement with FIDE — one wins, the other gets 409."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.api.at_once import at_once
from tests.api.fees_world import SCHEDULE, announce, days_from_today, played, register, submit
from tests.api.test_submissions import _headers
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.db import engine_for, unit_of_work
from zdb.fees.models import FeeAssessment, FeeLine


def _twice(send: Callable[[], Any]) -> list[Any]:
    return at_once(send, send)


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
    # the fees' lock (SQLite: its write lock): the second finds the lines invoiced and names the invoice
    refused = next(a.json() for a in answers if a.status_code == 409)
    assert refused["detail"] == f"the fees of 'SK Musterstadt 1920' in this period are on invoice {number} already"
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(FeeAssessment).filter_by(tournament_id=tid).count() == 1
        # not announced as FIDE-rated: the national fees only, 10.00 + 6 x 0.50 + 1 x 2.00
        assert sum(line.amount_cents for line in session.query(FeeLine).filter_by(tournament_id=tid)) == 1500


def test_two_payers_invoiced_at_once_get_the_next_two_numbers(fresh: World) -> None:
    assert (
        fresh.client.post("/api/v1/fees/schedules", json=SCHEDULE, headers=_headers(fresh, "admin")).status_code == 201
    )
    payers = ["SK Musterstadt 1920", "SV Nebenan 1887"]
    for payer, start in zip(payers, (-20, -30), strict=True):  # another weekend: not the same tournament twice
        code = announce(fresh, start, start + 2, organiser=payer)
        submit(fresh, played(fresh, start, [2300, 2400, 2500, 2600]), code)
    recalc(fresh.url)

    def issue(payer: str) -> Callable[[], Any]:
        body = {"payer": payer, "period_from": days_from_today(0), "period_to": days_from_today(0)}
        return lambda: fresh.client.post("/api/v1/fees/invoices", json=body, headers=_headers(fresh, "admin"))

    answers = at_once(*(issue(payer) for payer in payers))
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    year = days_from_today(0)[:4]
    assert sorted(a.json()["number"] for a in answers) == [f"{year}-0001", f"{year}-0002"]
    # each payer's invoice holds its own tournament's national fees: 10.00 + 6 x 0.50 + 1 x 2.00
    assert sorted((a.json()["payer"], a.json()["total"]) for a in answers) == [(p, "15.00") for p in payers]


def test_one_announcement_registered_twice_at_once_is_registered_once(fresh: World) -> None:
    code = announce(fresh, 60, 62)
    answers = _twice(lambda: register(fresh, code))
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
