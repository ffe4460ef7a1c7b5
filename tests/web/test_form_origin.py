"""A state-changing form post names this site as its sender: its ``Origin``, or — when a browser
sends none or ``null`` — its ``Referer``. A post that names no sender, ``null`` without a
Referer of this site, or another site is refused (403, in the page's language) and changes
nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World, build_world
from tests.web.signed_in import audit_actions, signed_in

HERE = "http://testserver"


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _bare(world: World) -> TestClient:
    """A client that sends no Origin of its own."""
    return TestClient(world.client.app, follow_redirects=False)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Origin": "null"},
        {"Origin": "null", "Referer": "https://elsewhere.example/form"},
        {"Referer": "https://elsewhere.example/referee/sign-in"},
        {"Origin": "https://elsewhere.example", "Referer": f"{HERE}/referee/sign-in"},
    ],
)
def test_a_sign_in_that_names_no_sender_of_this_site_is_refused(world: World, headers: dict[str, str]) -> None:
    answer = _bare(world).post(
        "/referee/sign-in", data={"token": world.tokens["referee_c"], "next": "/referee"}, headers=headers
    )
    assert answer.status_code == 403, answer.text
    assert "zdb_session" not in answer.cookies
    assert "Website" in answer.text  # German by default


@pytest.mark.parametrize(
    "headers", [{"Origin": HERE}, {"Referer": f"{HERE}/referee/sign-in"}, {"Origin": "null", "Referer": f"{HERE}/x"}]
)
def test_a_sign_in_from_this_site_is_taken(world: World, headers: dict[str, str]) -> None:
    answer = _bare(world).post(
        "/referee/sign-in", data={"token": world.tokens["referee_c"], "next": "/referee"}, headers=headers
    )
    assert answer.status_code == 303, answer.text


def test_a_staff_form_without_a_sender_changes_nothing(fresh: World) -> None:
    client = signed_in(fresh, "admin")
    before = audit_actions(fresh, "club C0327")
    answer = client.post("/staff/clubs/C0327", data={"name": "Umbenannt"}, headers={"Origin": "null"})
    assert answer.status_code == 403, answer.text
    assert audit_actions(fresh, "club C0327") == before
