"""FIDE registration of an announced tournament: the arbiters with their FIDE ids (one unknown
to FIDE's list ZDB holds is a warning), the six weeks' deadline (a warning, or a refusal by the
federation's rule; the rating office only warned), one registration per announcement, and the
state shown: registered, results received (late after 7 days), evaluated."""

from __future__ import annotations

from datetime import date

from tests.api.fees_world import CHIEF, DEPUTY, announce, days_from_today, list_arbiter, played, register, submit
from tests.api.test_submissions import _headers
from tests.api.world import FIDE_IDS, World
from tests.db.scenario import recalc
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.formats.trf import parse_trf
from zdb.lists.models import FideRatingRow


def test_a_registration_in_time_names_its_arbiters_and_warns_about_an_unknown_one(fresh: World) -> None:
    list_arbiter(fresh)
    code = announce(fresh, 60, 62)
    made = register(fresh, code)
    assert made.status_code == 201, made.text
    out = made.json()
    assert made.headers["location"] == f"/api/v1/announcements/{code}/fide-registration"
    assert (out["chief_arbiter_fide_id"], out["deputy_arbiter_fide_id"]) == (CHIEF, DEPUTY)
    assert (out["days_before"], out["registered_late"], out["state"]) == (60, False, "registered")
    assert out["registration_deadline"] == days_from_today(60 - 42)
    assert out["warnings"] == [f"FIDE id {DEPUTY} (Neu, Norbert) is not in FIDE's list ZDB holds"]
    assert fresh.client.get(f"/api/v1/announcements/{code}").json()["fide_rated"] is True
    assert fresh.client.get(f"/api/v1/announcements/{code}/fide-registration").json() == out
    again = register(fresh, code)
    assert again.status_code == 409 and "registered with FIDE already" in again.text
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(AuditEntry).filter_by(action="fide.registration").count() == 1


def test_a_late_registration_is_warned_or_refused_by_the_federations_rule(fresh: World) -> None:
    list_arbiter(fresh)
    code = announce(fresh, 41, 43)  # one day past the six weeks
    warned = register(fresh, code)
    assert warned.status_code == 201, warned.text
    assert warned.json()["registered_late"] is True
    assert any("41 days before the start" in w for w in warned.json()["warnings"])
    rule = fresh.client.put(
        "/api/v1/federations/C/settings", json={"fide_registration": "refuse"}, headers=_headers(fresh, "admin")
    )
    assert rule.status_code == 200 and rule.json()["fide_registration"] == "refuse"
    assert fresh.client.get("/api/v1/federations/C03/settings").json()["fide_registration_from"] == "C"
    other = announce(fresh, 41, 43, name="Winterturnier Musterstadt")
    refused = register(fresh, other)
    assert refused.status_code == 422, refused.text
    assert "FIDE asks for at least 42 days" in refused.text
    assert fresh.client.get(f"/api/v1/announcements/{other}/fide-registration").status_code == 404
    office = register(fresh, other, token="admin")  # the rating office decides about exceptions
    assert office.status_code == 201 and office.json()["registered_late"] is True


def test_bad_registrations_are_refused(fresh: World) -> None:
    code = announce(fresh, 60, 62)
    assert register(fresh, code, token="referee_d").status_code == 403  # C03 lies outside region D
    assert register(fresh, code, token=None).status_code in (401, 403)
    assert register(fresh, "2026-9999").status_code == 404
    wrong = register(fresh, code, category="bullet", rounds=0)
    assert wrong.status_code == 422
    assert {e["place"] for e in wrong.json()["errors"]} >= {"body.category", "body.rounds"}


def test_results_after_seven_days_are_marked_late_and_the_state_follows_the_tournament(fresh: World) -> None:
    list_arbiter(fresh)
    on_time = announce(fresh, -9, -7)  # ended 7 days ago: today is the last day in time
    late = announce(fresh, -20, -18, name="Sommerturnier Musterstadt")  # ended 18 days ago: 11 days late
    for code in (on_time, late):
        assert register(fresh, code, token="admin").status_code == 201
    submit(fresh, played(fresh, -9, [2300, 2400, 2500, 2600]), on_time)
    late_id = submit(fresh, played(fresh, -20, [2300, 2400, 2500, 2600], acronym="SOM"), late)
    first = fresh.client.get(f"/api/v1/announcements/{on_time}/fide-registration").json()
    assert first["state"] == "results_received"
    assert (first["report"]["late"], first["report"]["days_late"]) == (False, 0)
    assert first["report"]["report_due"] == days_from_today(0)
    second = fresh.client.get(f"/api/v1/announcements/{late}/fide-registration").json()
    assert (second["report"]["late"], second["report"]["days_late"], second["report"]["tournament_id"]) == (
        True,
        11,
        late_id,
    )
    recalc(fresh.url)
    assert fresh.client.get(f"/api/v1/announcements/{late}/fide-registration").json()["state"] == "evaluated"


def test_the_report_file_carries_the_registration_and_the_rating_of_its_category(fresh: World) -> None:
    code = announce(fresh, -20, -18)
    assert register(fresh, code, token="admin", category="rapid", system="swiss").status_code == 201
    with unit_of_work(engine_for(fresh.url)) as session:  # FIDE's list before the start: A's ratings
        session.add(
            FideRatingRow(
                fide_id=FIDE_IDS["A"], edition=date(2026, 1, 1), name="", federation="GER", standard=2000, rapid=1900
            )
        )
    tid = submit(fresh, played(fresh, -20, [None, None, None, None]), code)
    answer = fresh.client.get(f"/api/v1/tournaments/{tid}/fide-report.trf", headers=_headers(fresh, "referee_c"))
    assert answer.status_code == 200, answer.text
    report = parse_trf(answer.content)
    assert report.ok, report.errors
    assert report.player(1) is not None and report.player(1).rating == 1900  # rapid, not standard
    assert (report.city, report.tournament_type) == ("Musterstadt", "Individual: Swiss-System")
    assert (report.chief_arbiter, report.deputy_arbiters) == (f"Weber, Anna ({CHIEF})", (f"Neu, Norbert ({DEPUTY})",))
    assert report.time_control == "90 min/40 moves + 30 min + 30 s"
