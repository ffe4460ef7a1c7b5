"""Security headers on every answer (``zdb.api.security_headers``), pages that fit their
Content-Security-Policy, and the API documentation served without a CDN (``zdb.api.docs``)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from fastapi.testclient import TestClient

from zdb.app import create_app
from zdb.config import Settings


@pytest.fixture
def plain(sqlite_url: str) -> TestClient:
    return TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))


def _hardened(answer: object) -> dict[str, str]:
    headers = answer.headers  # type: ignore[attr-defined]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin" and headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    return dict(headers)


@pytest.mark.parametrize(
    "path", ["/", "/federations", "/simulator", "/api/v1/players", "/api/v1/no/such", "/static/style.css"]
)
def test_every_answer_is_hardened(plain: TestClient, path: str) -> None:
    headers = _hardened(plain.get(path))
    assert "strict-transport-security" not in headers
    assert "script-src 'self';" in headers["content-security-policy"]


def test_refusals_are_hardened_too(plain: TestClient) -> None:
    _hardened(plain.post("/api/v1/tournaments", content=b"{}"))  # the request guard's 401


def test_hsts_only_behind_tls(sqlite_url: str) -> None:
    client = TestClient(create_app(Settings(database_url=sqlite_url, behind_tls=True), recalculation=False))
    assert client.get("/api/v1/players").headers["strict-transport-security"].startswith("max-age=")


@pytest.mark.parametrize("path", ["/", "/federations", "/simulator", "/referee"])
def test_the_pages_fit_their_policy(plain: TestClient, path: str) -> None:
    html = plain.get(path).text
    for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL):
        assert 'src="/' in attributes and not body.strip(), "an inline script needs the policy to allow it"
    assert " style=" not in html and "<style" not in html
    assert all(href.startswith("/") for href in re.findall(r'<link[^>]+href="([^"]+)"', html))


def test_the_documentation_is_served_by_the_service(plain: TestClient) -> None:
    page = plain.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.text
    assert "cdn" not in html.lower() and "https://" not in html
    for asset in re.findall(r'(?:src|href)="(/api/v1/docs/assets/[^"]+)"', html):
        fetched = plain.get(asset)
        assert fetched.status_code == 200 and len(fetched.content) > 100, asset
    assert "/api/v1/docs/assets/swagger-ui-bundle.js" in html
    policy = _hardened(page)["content-security-policy"]
    (inline,) = (body for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL) if body)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy and "'unsafe-inline'" not in policy.split("style-src")[0]
