"""The German pages of FIDE registration and fees: the referee registers an announced
tournament with FIDE and reads its state and the fees of his tournaments; staff keep the fee
schedule, book the fees, issue an invoice and print it, with its CSV. The same figures as the
API (``tests/api/test_fees.py``): the FIDE-rated round robin of four players (average Elo 2450,
the 12 € tier), one guest, six rated games, 11 days late: 123,00 €."""

from __future__ import annotations

import pytest

from tests.api.fees_world import SCHEDULE, announce, days_from_today, list_arbiter, played, submit
from tests.api.world import World, build_world
from tests.db.scenario import recalc
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions, signed_in

GERMAN = {"Accept-Language": "de"}


@pytest.fixture
def fresh(database_url: str) -> World:
    made = build_world(database_url)
    recalc(database_url)
    return made


def _schedule_form(**changes: str) -> dict[str, str]:
    form = {
        "federation": "C03",
        "valid_from": "01.01.2026",
        "valid_until": "",
        "dwz_per_tournament": "10,00",
        "dwz_per_game": "0,50",
        "dwz_per_non_member": "2,00",
        "fide_per_player": "3,00",
        "tiers": "0: 3,00; 2230: 6,00; 2380: 12,00; 2600: 20,00; 2700: 30,00",
        "fide_late_report": "60,00",
        "note": SCHEDULE["note"],
    }
    return {**form, **changes}


def test_a_referee_registers_with_fide_and_reads_the_fees_staff_invoice_them(fresh: World) -> None:
    list_arbiter(fresh)
    code = announce(fresh, -20, -18)
    referee = signed_in(fresh)
    page = referee.get(f"/referee/fide/{code}", headers=GERMAN)
    assert page.status_code == 200 and "Zur FIDE-Auswertung anmelden" in page.text
    refused = referee.post(
        f"/referee/fide/{code}",
        data={
            "chief_fide_id": "abc",
            "chief_name": "Weber, Anna",
            "rate_of_play": "90 min",
            "category": "standard",
            "system": "round_robin",
            "rounds": "3",
        },
        headers=GERMAN,
    )
    assert refused.status_code == 422
    sent = referee.post(
        f"/referee/fide/{code}",
        data={
            "chief_fide_id": "4612345",
            "chief_name": "Weber, Anna",
            "deputy_fide_id": "4699999",
            "deputy_name": "Neu, Norbert",
            "rate_of_play": "90 min/40 Züge + 30 min + 30 s",
            "category": "standard",
            "system": "round_robin",
            "rounds": "3",
        },
        headers=GERMAN,
    )
    assert sent.status_code == 303, sent.text
    shown = text_of(referee.get(f"/referee/fide/{code}", headers=GERMAN).text)
    assert "Stand der Anmeldung: angemeldet" in shown
    assert "FIDE-ID 4699999 (Neu, Norbert) steht nicht in der FIDE-Liste, die ZDB führt" in shown
    assert "verspätet" in shown  # registered after the start
    assert audit_actions(fresh, f"announcement {code}") == ["announcement.create", "fide.registration"]

    tid = submit(fresh, played(fresh, -20, [2300, 2400, 2500, 2600]), code)
    recalc(fresh.url)
    shown = text_of(referee.get(f"/referee/fide/{code}", headers=GERMAN).text)
    assert "Stand der Anmeldung: ausgewertet" in shown or "Stand der Anmeldung: Ausgewertet" in shown.title()
    assert ("11 Tage verspätet" in shown and "FIDE-Meldedatei" in shown) or "TRF" in shown

    staff = signed_in(fresh, "admin")
    assert referee.get("/staff/fees", headers=GERMAN).status_code == 403
    made = staff.post("/staff/fees/schedules", data=_schedule_form(), headers=GERMAN)
    assert made.status_code == 303, made.text
    overlapping = staff.post("/staff/fees/schedules", data=_schedule_form(valid_from="01.06.2026"), headers=GERMAN)
    assert overlapping.status_code == 422 and "deckt Tage dieser ab" in text_of(overlapping.text)

    pending = text_of(referee.get(f"/referee/tournaments/{tid}/fees", headers=GERMAN).text)
    assert "Noch nicht gebucht" in pending and "123,00 €" in pending
    assert staff.post("/staff/fees/settlement", headers=GERMAN).status_code == 303
    booked = text_of(referee.get(f"/referee/tournaments/{tid}/fees", headers=GERMAN).text)
    assert "Gebucht insgesamt: 123,00 €" in booked
    assert "FIDE-Gebühr je Spieler (Rundenturnier, nach Elo-Schnitt)" in booked and "Elo-Schnitt 2450" in booked
    assert "Gebühr für verspätete Meldung (FIDE)" in booked and "60,00 €" in booked
    listed = text_of(referee.get("/referee/fees", headers=GERMAN).text)
    assert "Gebühren Ihrer Turniere" in listed and "48,00 €" in listed

    overview = text_of(staff.get("/staff/fees", headers=GERMAN).text)
    assert "Gebührenordnungen" in overview and "Noch nicht abgerechnet" in overview
    assert "SK Musterstadt 1920" in overview
    today = days_from_today(0)
    issued = staff.post(
        "/staff/fees/invoices",
        data={"payer": "SK Musterstadt 1920", "period_from": today, "period_to": today},
        headers=GERMAN,
    )
    assert issued.status_code == 303, issued.text
    number = issued.headers["location"].rsplit("/", 1)[1]
    printed = text_of(staff.get(f"/staff/fees/invoices/{number}", headers=GERMAN).text)
    assert f"Rechnung {number}" in printed and "An: SK Musterstadt 1920" in printed and "Summe 123,00 €" in printed
    csv = staff.get(f"/staff/fees/invoices/{number}.csv")
    assert csv.status_code == 200 and csv.text.count("\r\n") == 1 + 5 and ";-" not in csv.text
    assert audit_actions(fresh, f"invoice {number}") == ["fees.invoice.issue"]


def test_staff_change_a_schedule_on_the_page_and_a_post_from_elsewhere_is_refused(fresh: World) -> None:
    staff = signed_in(fresh, "admin")
    assert staff.post("/staff/fees/schedules", data=_schedule_form(), headers=GERMAN).status_code == 303
    page = staff.get("/staff/fees", headers=GERMAN)
    schedule = int(page.text.split('data-testid="schedule-', 1)[1].split('"', 1)[0])
    changed = staff.post(
        f"/staff/fees/schedules/{schedule}",
        data=_schedule_form(valid_until="31.12.2026", tiers="0: 4,00"),
        headers=GERMAN,
    )
    assert changed.status_code == 303, changed.text
    shown = text_of(staff.get(changed.headers["location"], headers=GERMAN).text)
    assert "Gespeichert: zuvor berechnete Gebühren bleiben, wie sie waren." in shown
    assert "01.01.2026 – 31.12.2026" in shown and "0: 4,00" in shown
    bad_tiers = staff.post(
        "/staff/fees/schedules", data=_schedule_form(valid_from="01.01.2027", tiers="ab"), headers=GERMAN
    )
    assert bad_tiers.status_code == 422 and "hat nicht die Form" in text_of(bad_tiers.text)
    elsewhere = staff.post("/staff/fees/settlement", headers={"Origin": "https://elsewhere.example", **GERMAN})
    assert elsewhere.status_code == 403
    assert audit_actions(fresh, "fees") == []
    assert audit_actions(fresh, f"fee schedule {schedule}") == ["fees.schedule.create", "fees.schedule.change"]
