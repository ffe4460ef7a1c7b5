"""No silent duplicate persons (issue 31, point 3): the rating office entering a person whose
name and birth date a record has is refused (409 naming it) unless it insists; a similar name
(one edit on the folded name, or given name and surname swapped) of the same birth year is a
warning naming the record, in the office's answers and pages, in the referee's previews (API and
page) and in the submission's answer. The example files' register: ``example_register.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from tests.api.example_register import EXAMPLES, Office, kranz
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work


@pytest.fixture
def office(database_url: str) -> Office:
    return Office(database_url)


IDA = {"surname": "Kranz", "given_name": "Ida", "birth_date": "2012-04-05", "sex": "F"}


def _warned(answer: Any, pkz: int) -> list[str]:
    return [w["message"] for w in answer.json()["warnings"] if str(pkz) in w["message"]]


def test_the_same_name_and_birth_date_is_refused_unless_the_office_insists(office: Office) -> None:
    first = office.admin_post("/players", IDA)
    assert first.status_code == 201, first.text
    assert first.json()["warnings"] == []
    pkz = first.json()["pkz"]
    # Umlauts and case fold as everywhere: the same name
    again = office.admin_post("/players", {**IDA, "surname": "KRANZ"})
    assert again.status_code == 409, again.text
    assert str(pkz) in again.json()["detail"] and "allow_duplicate" in again.json()["detail"]
    insisted = office.admin_post("/players", {**IDA, "allow_duplicate": True})
    assert insisted.status_code == 201, insisted.text
    assert _warned(insisted, pkz), insisted.json()
    other_day = office.admin_post("/players", {**IDA, "birth_date": "2012-04-06"})
    assert other_day.status_code == 201 and _warned(other_day, pkz) == []  # another birthday: another person
    with unit_of_work(engine_for(office.url)) as session:
        detail = session.execute(
            select(AuditEntry.detail).where(AuditEntry.target == f"player {insisted.json()['pkz']}")
        ).scalar_one()
    assert detail["allow_duplicate_of"] == [pkz]


def test_a_similar_name_of_the_same_birth_is_a_warning_naming_the_record(office: Office) -> None:
    pkz = office.admin_post("/players", IDA).json()["pkz"]
    for given in (
        {"given_name": "Idda"},  # one letter more
        {"surname": "Krnaz"},  # two letters swapped
        {"surname": "Ida", "given_name": "Kranz"},  # given name and surname swapped
        {"surname": "Kranz", "given_name": "Ida", "birth_date": None, "birth_year": 2012},  # the year alone
    ):
        answer = office.admin_post("/players", {**IDA, **given})
        assert answer.status_code == 201, (given, answer.text)
        assert _warned(answer, pkz), (given, answer.json())
    for given in ({"given_name": "Iddaa"}, {"birth_date": "2013-04-05"}):  # two edits; another year
        answer = office.admin_post("/players", {**IDA, **given})
        assert answer.status_code == 201 and _warned(answer, pkz) == [], (given, answer.json())


def test_a_newcomer_of_a_similar_name_is_a_warning_in_previews_and_submissions(office: Office) -> None:
    submitted = office.trf("POST", "/tournaments/trf", "open.trf")
    assert submitted.status_code == 201, submitted.text
    ida = kranz(submitted)["pkz"]
    # the same file, its sixth player misspelt: "Kranz, Idda", born on Ida Kranz's day
    spelt = (EXAMPLES / "open.trf").read_text(encoding="utf-8").replace("Kranz, Ida  ", "Kranz, Idda ")
    assert "Kranz, Idda" in spelt
    previewed = office.trf("POST", "/tournaments/preview/trf", "", text=spelt)
    assert previewed.status_code == 200, previewed.text
    assert kranz(previewed)["pkz"] is None  # a newcomer, as the referee wrote him
    assert _warned(previewed, ida), previewed.json()["warnings"]

    page = office.signed_in()
    files = {"file": ("open.trf", spelt.encode(), "text/plain")}
    shown = page.post("/referee/upload", data={"acronym": "OPN", "federation": "101", "action": "preview"}, files=files)
    assert shown.status_code == 200, shown.text
    assert f"der Datensatz {ida} (Ida Kranz, Jahrgang 2012) hat aber einen ähnlichen Namen" in shown.text

    # the same games under another name: stored only as confirmed another tournament (zdb.tournaments.duplicates)
    winter = spelt.replace("Herbstopen", "Winteropen")
    stored = office.trf("POST", "/tournaments/trf", "", text=winter, confirm_duplicate="true")
    assert stored.status_code == 201, stored.text
    assert kranz(stored)["created"] is True and _warned(stored, ida)


def test_the_staff_page_names_the_records_that_may_be_the_person(office: Office) -> None:
    pkz = office.admin_post("/players", IDA).json()["pkz"]
    twin = office.admin_post("/players", {**IDA, "given_name": "Idda"}).json()["pkz"]
    page = office.signed_in("admin").get(f"/staff/players/{twin}")
    assert page.status_code == 200
    assert f"der Spieler {pkz} (Ida Kranz, Jahrgang 2012) hat denselben oder einen ähnlichen Namen" in page.text
    edited = office.client.patch(
        f"/api/v1/players/{twin}", json={"given_name": "Ida"}, headers={"Authorization": f"Bearer {office.admin}"}
    )
    assert edited.status_code == 200 and _warned(edited, pkz), edited.json()
