"""Fees: a schedule of the federation's published rules (2026) kept by staff, overlapping
validity refused; the fees of an evaluated FIDE-rated round robin booked with their basis; a
schedule changed later leaves them as computed; a correction and a withdrawal adjust them by
credits; an invoice of the organiser holds what is open, is numbered, audited and never changed.

Known answers worked by hand from ``SCHEDULE`` (``fees_world.py``): the round robin of four
players (FIDE ratings 2300, 2400, 2500, 2600: average 2450, the 12 € tier), one of them a
guest, six rated games, results sent 18 days after the end (11 days late):
10.00 + 6 x 0.50 + 1 x 2.00 + 4 x 12.00 + 60.00 = 123.00.
"""

from __future__ import annotations

from typing import Any

from tests.api.fees_world import SCHEDULE, announce, days_from_today, played, register, submit
from tests.api.test_submissions import _headers
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work

ORGANISER = "SK Musterstadt 1920"  # the announcements' organiser: the invoices' payer


def _admin(world: World) -> dict[str, str]:
    return _headers(world, "admin")


def _fees(world: World, tournament_id: int) -> Any:
    answer = world.client.get(f"/api/v1/tournaments/{tournament_id}/fees", headers=_headers(world, "referee_c"))
    assert answer.status_code == 200, answer.text
    return answer.json()


def _settle(world: World) -> int:
    answer = world.client.post("/api/v1/fees/settlement", headers=_admin(world))
    assert answer.status_code == 200, answer.text
    return int(answer.json()["booked"])


def _lines(assessment: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    return [(x["kind"], x["quantity"], x["unit"], x["amount"]) for x in assessment["lines"]]


def _schedule(world: World) -> int:
    made = world.client.post("/api/v1/fees/schedules", json=SCHEDULE, headers=_admin(world))
    assert made.status_code == 201, made.text
    assert made.json()["fide_round_robin"][2] == {"from_elo": 2380, "amount": "12.00"}
    return int(made.json()["id"])


def test_a_schedule_is_kept_by_staff_and_overlapping_validity_is_refused(fresh: World) -> None:
    assert (
        fresh.client.post("/api/v1/fees/schedules", json=SCHEDULE, headers=_headers(fresh, "referee_c")).status_code
        == 403
    )
    first = _schedule(fresh)
    overlapping = fresh.client.post(
        "/api/v1/fees/schedules", json={**SCHEDULE, "valid_from": "2026-06-01"}, headers=_admin(fresh)
    )
    assert overlapping.status_code == 422, overlapping.text
    assert overlapping.json()["errors"][0]["place"] == "body.valid_from"
    assert "valid from 2026-01-01 to open end" in overlapping.text
    ended = {**SCHEDULE, "valid_until": "2026-12-31"}
    assert fresh.client.put(f"/api/v1/fees/schedules/{first}", json=ended, headers=_admin(fresh)).status_code == 200
    following = {**SCHEDULE, "valid_from": "2027-01-01", "dwz_per_tournament": "12.50"}
    assert fresh.client.post("/api/v1/fees/schedules", json=following, headers=_admin(fresh)).status_code == 201
    district = {**SCHEDULE, "federation": "C01"}  # another federation's schedule may cover the same days
    assert fresh.client.post("/api/v1/fees/schedules", json=district, headers=_admin(fresh)).status_code == 201
    bad = {**SCHEDULE, "valid_from": "2028-01-01", "valid_until": "2027-01-01", "dwz_per_game": "0.005"}
    assert fresh.client.post("/api/v1/fees/schedules", json=bad, headers=_admin(fresh)).status_code == 422
    bad_tiers = {
        **SCHEDULE,
        "valid_from": "2030-01-01",
        "fide_round_robin": [{"from_elo": 2230, "amount": "6.00"}, {"from_elo": 0, "amount": "3.00"}],
    }
    assert fresh.client.post("/api/v1/fees/schedules", json=bad_tiers, headers=_admin(fresh)).status_code == 422
    listed = fresh.client.get("/api/v1/fees/schedules", params={"federation": "C03"}).json()
    assert [(s["valid_from"], s["valid_until"], s["dwz_per_tournament"]) for s in listed] == [
        ("2026-01-01", "2026-12-31", "10.00"),
        ("2027-01-01", None, "12.50"),
    ]
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(AuditEntry).filter_by(action="fees.schedule.create").count() == 3
        assert session.query(AuditEntry).filter_by(action="fees.schedule.change").count() == 1


def test_fees_are_booked_kept_when_the_schedule_changes_and_adjusted_by_credits(fresh: World) -> None:
    schedule = _schedule(fresh)
    code = announce(fresh, -20, -18)
    assert register(fresh, code, token="admin").status_code == 201
    tid = submit(fresh, played(fresh, -20, [2300, 2400, 2500, 2600]), code)
    assert _fees(fresh, tid)["pending"] is None  # not evaluated yet
    recalc(fresh.url)
    pending = _fees(fresh, tid)["pending"]
    assert (pending["total"], pending["computed_at"]) == ("123.00", None)
    assert _fees(fresh, tid)["assessments"] == []
    assert _settle(fresh) >= 1
    assert _settle(fresh) == 0  # safe to run twice: nothing is booked twice
    fees = _fees(fresh, tid)
    assert (fees["total"], fees["pending"]) == ("123.00", None)
    booked = fees["assessments"][0]
    basis = ("players", "games", "non_members", "fide_system", "average_elo", "days_late", "payer", "schedule_id")
    assert tuple(booked[k] for k in basis) == (4, 6, 1, "round_robin", 2450, 11, ORGANISER, schedule)
    assert _lines(booked) == [
        ("dwz_tournament", 1, "10.00", "10.00"),
        ("dwz_game", 6, "0.50", "3.00"),
        ("dwz_non_member", 1, "2.00", "2.00"),
        ("fide_round_robin", 4, "12.00", "48.00"),
        ("fide_late", 1, "60.00", "60.00"),
    ]

    # the schedule changes later: the fees booked stay as they were computed
    dearer = {**SCHEDULE, "dwz_per_tournament": "20.00"}
    assert fresh.client.put(f"/api/v1/fees/schedules/{schedule}", json=dearer, headers=_admin(fresh)).status_code == 200
    assert _fees(fresh, tid)["total"] == "123.00"

    # a correction (lower ratings: average 2150, the 3 € tier) evaluated again: credits, then the new charges
    corrected = played(fresh, -20, [2000, 2100, 2200, 2300])
    answer = fresh.client.put(f"/api/v1/tournaments/{tid}", json=corrected, headers=_headers(fresh, "referee_c"))
    assert answer.status_code == 200, answer.text
    recalc(fresh.url)
    assert _settle(fresh) >= 1
    fees = _fees(fresh, tid)
    again = fees["assessments"][1]
    assert (again["version"], again["average_elo"], again["reason"]) == (2, 2150, "evaluation")
    credits = [line for line in again["lines"] if line["credit_of"] is not None]
    assert sorted(c["amount"] for c in credits) == ["-10.00", "-2.00", "-3.00", "-48.00", "-60.00"]
    assert [x for x in _lines(again) if not x[3].startswith("-")] == [
        ("dwz_tournament", 1, "20.00", "20.00"),
        ("dwz_game", 6, "0.50", "3.00"),
        ("dwz_non_member", 1, "2.00", "2.00"),
        ("fide_round_robin", 4, "3.00", "12.00"),
        ("fide_late", 1, "60.00", "60.00"),
    ]
    assert fees["total"] == "97.00"  # 123.00 - 123.00 + 97.00

    # the withdrawal credits what is left
    gone = fresh.client.delete(f"/api/v1/tournaments/{tid}", headers=_headers(fresh, "referee_c"))
    assert gone.status_code == 204, gone.text
    recalc(fresh.url)
    _settle(fresh)
    fees = _fees(fresh, tid)
    assert fees["assessments"][2]["reason"] == "withdrawal"
    assert sorted(x[3] for x in _lines(fees["assessments"][2])) == ["-12.00", "-2.00", "-20.00", "-3.00", "-60.00"]
    assert fees["total"] == "0.00"


def test_a_correction_that_changes_no_fee_leaves_the_charges(fresh: World) -> None:
    _schedule(fresh)
    code = announce(fresh, -20, -18)
    assert register(fresh, code, token="admin", system="swiss").status_code == 201
    tid = submit(fresh, played(fresh, -20, [2300, 2400, 2500, 2600]), code)
    recalc(fresh.url)
    _settle(fresh)
    assert _fees(fresh, tid)["total"] == "87.00"  # 10.00 + 3.00 + 2.00 + 4 x 3.00 + 60.00
    body = played(fresh, -20, [2300, 2400, 2500, 2601], name="Herbstturnier (berichtigt)")
    assert (
        fresh.client.put(f"/api/v1/tournaments/{tid}", json=body, headers=_headers(fresh, "referee_c")).status_code
        == 200
    )
    recalc(fresh.url)
    _settle(fresh)
    fees = _fees(fresh, tid)
    assert [a["version"] for a in fees["assessments"]] == [1, 2]
    assert fees["assessments"][1]["lines"] == [] and fees["total"] == "87.00"


def test_invoices_hold_the_open_fees_are_numbered_and_never_change(fresh: World) -> None:
    _schedule(fresh)
    swiss = announce(fresh, -5, -3)
    assert register(fresh, swiss, token="admin", system="swiss").status_code == 201
    on_time = submit(fresh, played(fresh, -5, [None, None, None, None]), swiss)  # sent 3 days after the end
    recalc(fresh.url)
    today = days_from_today(0)
    period = {"payer": ORGANISER, "period_from": today, "period_to": today}
    refused = fresh.client.post("/api/v1/fees/invoices", json=period, headers=_headers(fresh, "referee_c"))
    assert refused.status_code == 403
    made = fresh.client.post("/api/v1/fees/invoices", json=period, headers=_admin(fresh))  # books first
    assert made.status_code == 201, made.text
    invoice = made.json()
    number = invoice["number"]
    assert number == f"{today[:4]}-0001" and made.headers["location"] == f"/api/v1/fees/invoices/{number}"
    assert invoice["total"] == "27.00"  # 10.00 + 3.00 + 2.00 + 4 x 3.00, on time: no late fee
    assert {line["tournament_id"] for line in invoice["lines"]} == {on_time}
    again = fresh.client.post("/api/v1/fees/invoices", json=period, headers=_admin(fresh))
    assert again.status_code == 409 and number in again.text
    nobody = fresh.client.post("/api/v1/fees/invoices", json={**period, "payer": "Niemand"}, headers=_admin(fresh))
    assert nobody.status_code == 422
    csv = fresh.client.get(f"/api/v1/fees/invoices/{number}.csv", headers=_admin(fresh))
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    rows = csv.text.splitlines()
    assert rows[0].startswith("Rechnung;Datum;Zahler;Turnier") and len(rows) == 1 + len(invoice["lines"])
    assert f"{number};{today};{ORGANISER};{on_time};" in rows[1] and rows[-1].split(";")[9] == "12,00"

    # a withdrawal after the invoice: its credits wait for the next invoice, the first stays as issued
    assert (
        fresh.client.delete(f"/api/v1/tournaments/{on_time}", headers=_headers(fresh, "referee_c")).status_code == 204
    )
    recalc(fresh.url)
    credit = fresh.client.post("/api/v1/fees/invoices", json=period, headers=_admin(fresh))
    assert credit.status_code == 201, credit.text
    assert (credit.json()["number"], credit.json()["total"]) == (f"{today[:4]}-0002", "-27.00")
    first = fresh.client.get(f"/api/v1/fees/invoices/{number}", headers=_admin(fresh)).json()
    assert first == invoice
    listed = fresh.client.get("/api/v1/fees/invoices", params={"payer": ORGANISER}, headers=_admin(fresh)).json()
    assert [i["number"] for i in listed["items"]] == [f"{today[:4]}-0002", number] and listed["total"] == 2
    paged = fresh.client.get("/api/v1/fees/invoices", params={"limit": 1, "offset": 1}, headers=_admin(fresh)).json()
    assert [i["number"] for i in paged["items"]] == [number]
    open_fees = fresh.client.get("/api/v1/fees/open", headers=_admin(fresh)).json()
    assert ORGANISER not in {o["payer"] for o in open_fees}
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(AuditEntry).filter_by(action="fees.invoice.issue").count() == 2
