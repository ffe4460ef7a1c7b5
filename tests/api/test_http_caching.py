"""What a shared cache may keep (``zdb.api.http_caching``), at every door: the API, the pages,
the club-software door and the DeWIS files. Public reads are cacheable for a short while, a
published edition for long and immutable; nothing a token or a session asked for, and no
refusal, is ever cacheable by a shared cache; pages answer conditional GETs as the API does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World
from tests.web.signed_in import signed_in

LIVE = "public, max-age=30, stale-while-revalidate=60"
EDITION = "public, max-age=86400, immutable"
RS = "/dsbwertungsportal/rs"


@pytest.fixture(scope="module")
def published(world: World) -> Iterator[World]:
    """The world with the edition 2026-Q3 published (its day lies before the world's late tournaments)."""
    admin = {"Authorization": f"Bearer {world.tokens['admin']}"}
    made = world.client.post("/api/v1/editions", json={"date": "2026-09-30", "name": "2026-Q3"}, headers=admin)
    assert made.status_code == 201, made.text
    assert made.headers["cache-control"] == "no-store"  # a write: never kept
    yield world


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/players/{A}",
        "/api/v1/clubs/C0327/ratings",
        "/api/v1/clubs/C0327/members.csv",
        "/api/v1/files/rating-list.zip",
        "/api/v1/tournaments",
        "/api/v1/editions",
        "/api/v1/editions/2026-Q3/changes",
        "/players/{A}",
        "/clubs/C0327",
        f"{RS}/dwz/dwzliste/persons",
        "/php/dewis/verein.php?zps=C0327",
    ],
)
def test_a_public_read_is_kept_for_seconds_and_carries_its_tag(published: World, path: str) -> None:
    answer = published.client.get(path.format(A=published.pkz["A"]))
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == LIVE
    assert "Authorization" in answer.headers["vary"]
    etag = answer.headers["etag"]
    again = published.client.get(path.format(A=published.pkz["A"]), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag and again.headers["cache-control"] == LIVE


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/editions/2026-Q3",
        "/api/v1/editions/2026-Q3/ratings",
        "/api/v1/editions/2026-Q3/ratings?club=C0327",
        "/api/v1/clubs/C0327/members.csv?edition=2026-Q3",
        "/api/v1/files/rating-list.zip?edition=2026-Q3",
        "/api/v1/clubs/C0327/ratings?edition=2026-Q3",
    ],
)
def test_a_published_edition_is_immutable(published: World, path: str) -> None:
    answer = published.client.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == EDITION


def test_an_edition_not_published_is_a_refusal_never_kept(published: World) -> None:
    answer = published.client.get("/api/v1/editions/2031-Q1/ratings")
    assert answer.status_code == 404
    assert answer.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "path", ["/api/v1/players/{A}", "/api/v1/clubs/C0327/ratings", "/api/v1/editions/2026-Q3", "/players/{A}"]
)
def test_a_read_with_a_token_is_private(published: World, path: str) -> None:
    headers = {"Authorization": f"Bearer {published.tokens['club_c0327']}"}
    answer = published.client.get(path.format(A=published.pkz["A"]), headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "private, no-cache"


def test_a_wrong_token_and_an_unknown_address_are_never_kept(published: World) -> None:
    wrong = published.client.get("/api/v1/players/1", headers={"Authorization": "Bearer nonsense"})
    assert wrong.status_code == 401 and wrong.headers["cache-control"] == "no-store"
    unknown = published.client.get("/api/v1/players/999999999")
    assert unknown.status_code == 404 and unknown.headers["cache-control"] == "no-store"
    bad = published.client.get("/api/v1/clubs/C0327/ratings", params={"limit": "many"})
    assert bad.status_code in (400, 422) and bad.headers["cache-control"] == "no-store"


def test_the_portal_token_and_a_portal_refusal_are_never_kept(published: World) -> None:
    token = published.client.post(
        f"{RS}/auth/token", data={"grant_type": "client_credentials", "client_id": "x", "client_secret": "y"}
    )
    assert token.status_code in (400, 401) and token.headers["cache-control"] == "no-store"
    refused = published.client.get(f"{RS}/dwz/tournaments")
    assert refused.status_code == 401 and refused.headers["cache-control"] == "no-store"


def test_health_and_metrics_are_never_kept(published: World) -> None:
    for path in ("/api/v1/health", "/api/v1/health/live", "/metrics"):
        answer = published.client.get(path)
        assert answer.headers["cache-control"] == "no-store", path


def test_a_signed_in_referees_pages_are_stored_nowhere(published: World) -> None:
    client: TestClient = signed_in(published)
    for path in ("/referee", f"/players/{published.pkz['A']}"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["cache-control"] == "private, no-store", path
    # the sign-in page's answer sets the cookie: never kept, not even the redirect
    fresh = TestClient(published.client.app, follow_redirects=False, headers={"Origin": "http://testserver"})
    answer = fresh.post("/referee/sign-in", data={"token": published.tokens["referee_c"], "next": "/referee"})
    assert answer.status_code == 303 and answer.headers["cache-control"] == "private, no-store"


def test_pages_vary_by_cookie_the_language_kept_in_one(published: World) -> None:
    answer = published.client.get("/clubs/C0327")
    assert {v.strip() for v in answer.headers["vary"].split(",")} >= {"Authorization", "Cookie"}
    german = published.client.get("/clubs/C0327", params={"lang": "de"})
    english = published.client.get("/clubs/C0327", params={"lang": "en"})
    assert german.headers["etag"] != english.headers["etag"]  # another language, other bytes, another tag
