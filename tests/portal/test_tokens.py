"""The portal's token endpoint (``POST …/rs/auth/token``), on both backends: client credentials
and refresh tokens, the scopes, the 300 s lifetime, only the newest refresh token valid, the
quota of 5 new tokens per client per 30 minutes (renewals not counted), the refusals' texts
byte for byte (``client-interfaces.md`` §1.1), a revoked client, every issue and refusal in the
audit log, the setting that makes the list's paths need a token, a club's client limited to its
``vkz``, and a wrong secret counted as a failed sign-in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.api.world import MEMBERSHIPS, World
from tests.portal.portal import RS, bearer, make_client, take_token
from zdb.app import create_app
from zdb.audit.models import AuditEntry
from zdb.auth.portal_tokens import issue_token, revoke_client
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work


def _renew(world: World, client_id: str, secret: str, refresh: str, scope: str) -> Any:
    return world.client.post(
        f"{RS}/auth/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": refresh,
            "client_id": client_id,
            "client_secret": secret,
            "scope": scope,
        },
    )


def _audit(world: World, client_id: str) -> list[tuple[str, Any]]:
    with unit_of_work(engine_for(world.url)) as session:
        rows = session.execute(
            select(AuditEntry.action, AuditEntry.detail)
            .where(AuditEntry.target == f"portal client {client_id}")
            .order_by(AuditEntry.id)
        )
        return [(row.action, row.detail) for row in rows]


def test_a_token_opens_the_tournament_paths_for_300_seconds(world: World) -> None:
    secret = make_client(world, "club-web-1", ["dsb_tournament", "dwz_liste"])
    answer = take_token(world, "club-web-1", secret, "dsb_tournament")
    assert answer.status_code == 200
    body = answer.json()
    assert body["expires_in"] == 300 and body["access_token"] and body["refresh_token"]
    assert answer.headers["cache-control"] == "no-store"
    headers = {"Authorization": f"Bearer {body['access_token']}"}
    assert world.client.get(f"{RS}/dwz/tournaments", headers=headers).status_code == 200
    # an access token issued 301 s ago has expired
    with unit_of_work(engine_for(world.url)) as session:
        old = issue_token(
            session,
            grant_type="client_credentials",
            client_id="club-web-1",
            client_secret=secret,
            scope="dsb_tournament",
            refresh_token=None,
            now=datetime.now(UTC) - timedelta(seconds=301),
        )
    expired = world.client.get(f"{RS}/dwz/tournaments", headers={"Authorization": f"Bearer {old.access_token}"})
    assert expired.status_code == 401
    assert expired.json() == {"error": "invalid_token", "error_description": "Invalid access token"}


def test_the_refusals_carry_the_portals_texts(world: World) -> None:
    secret = make_client(world, "club-web-2", ["dwz_liste"])
    wrong = take_token(world, "club-web-2", secret + "x", "dwz_liste")
    assert wrong.status_code == 401
    assert wrong.content == b'{"error":"invalid_client","error_description":"Bad client credentials"}'
    unknown = take_token(world, "nobody", secret, "dwz_liste")
    assert unknown.status_code == 401 and unknown.json()["error_description"] == "Bad client credentials"
    scope = take_token(world, "club-web-2", secret, "dwz_liste dsb_tournament")  # one scope not granted
    assert scope.status_code == 403
    assert scope.json() == {"error": "access_denied", "error_description": "Wrong or no scope(s) provided"}
    assert take_token(world, "club-web-2", secret, "").json()["error_description"] == "Wrong or no scope(s) provided"
    stale = _renew(world, "club-web-2", secret, "not-a-refresh-token", "dwz_liste")
    assert stale.status_code == 400
    assert stale.json() == {"error": "invalid_grant", "error_description": "Refresh Token already used or invalid"}


def test_five_new_tokens_per_client_in_30_minutes_renewals_not_counted(world: World) -> None:
    secret = make_client(world, "club-web-3", ["dsb_tournament"])
    first = take_token(world, "club-web-3", secret, "dsb_tournament").json()
    refresh = first["refresh_token"]
    for _ in range(3):  # renewals: not counted
        renewed = _renew(world, "club-web-3", secret, refresh, "dsb_tournament")
        assert renewed.status_code == 200
        refresh = renewed.json()["refresh_token"]
    for _ in range(4):
        assert take_token(world, "club-web-3", secret, "dsb_tournament").status_code == 200
    sixth = take_token(world, "club-web-3", secret, "dsb_tournament")
    assert sixth.status_code == 403
    assert sixth.json() == {"error": "access_denied", "error_description": "Too much access tokens"}
    # tokens issued 31 minutes ago no longer count
    with unit_of_work(engine_for(world.url)) as session:
        secret_b = make_client(world, "club-web-3b", ["dsb_tournament"])
        for _ in range(5):
            issue_token(
                session,
                grant_type="client_credentials",
                client_id="club-web-3b",
                client_secret=secret_b,
                scope="dsb_tournament",
                refresh_token=None,
                now=datetime.now(UTC) - timedelta(minutes=31),
            )
    assert take_token(world, "club-web-3b", secret_b, "dsb_tournament").status_code == 200


def test_only_the_newest_refresh_token_is_valid(world: World) -> None:
    secret = make_client(world, "club-web-4", ["dsb_tournament"])
    first = take_token(world, "club-web-4", secret, "dsb_tournament").json()
    second = _renew(world, "club-web-4", secret, first["refresh_token"], "dsb_tournament")
    assert second.status_code == 200
    again = _renew(world, "club-web-4", secret, first["refresh_token"], "dsb_tournament")
    assert again.status_code == 400
    assert again.json()["error_description"] == "Refresh Token already used or invalid"
    # a new token by client credentials uses up the renewed one's refresh token too
    take_token(world, "club-web-4", secret, "dsb_tournament")
    assert _renew(world, "club-web-4", secret, second.json()["refresh_token"], "dsb_tournament").status_code == 400


def test_issues_and_refusals_are_audited_and_a_revoked_client_is_refused(world: World) -> None:
    secret = make_client(world, "club-web-5", ["dwz_liste"])
    token = take_token(world, "club-web-5", secret, "dwz_liste").json()["access_token"]
    take_token(world, "club-web-5", "wrong", "dwz_liste")
    take_token(world, "club-web-5", secret, "dsb_tournament")
    with unit_of_work(engine_for(world.url)) as session:
        revoke_client(session, "club-web-5")
    assert take_token(world, "club-web-5", secret, "dwz_liste").status_code == 401
    assert [(action, (detail or {}).get("reason")) for action, detail in _audit(world, "club-web-5")] == [
        ("portal.client.create", None),
        ("portal.token.issue", None),
        ("portal.token.refuse", "Bad client credentials"),
        ("portal.token.refuse", "Wrong or no scope(s) provided"),
        ("portal.client.revoke", None),
        ("portal.token.refuse", "Bad client credentials"),
    ]
    settings = Settings(database_url=world.url, portal_list_token=True)
    with TestClient(create_app(settings, recalculation=False)) as strict:
        refused = strict.get(f"{RS}/dwz/dwzliste/persons", headers={"Authorization": f"Bearer {token}"})
        assert refused.status_code == 401


def test_the_list_paths_need_a_token_where_the_setting_says_so(world: World) -> None:
    assert world.client.get(f"{RS}/dwz/dwzliste/persons").status_code == 200  # the default: no token
    settings = Settings(database_url=world.url, portal_list_token=True)
    with TestClient(create_app(settings, recalculation=False)) as strict:
        assert strict.get(f"{RS}/dwz/dwzliste/persons").status_code == 401
        assert strict.get(f"{RS}/dwz/dwzliste/download/LV-0-dwzliste.zip").status_code == 401
        tournaments_only = bearer(world, "club-web-6", ["dsb_tournament"])
        assert strict.get(f"{RS}/dwz/dwzliste/persons", headers=tournaments_only).status_code == 403
        listing = bearer(world, "club-web-7", ["dwz_liste"])
        assert strict.get(f"{RS}/dwz/dwzliste/persons", headers=listing).status_code == 200


def test_a_clubs_client_reads_its_own_vkz_only(world: World) -> None:
    headers = bearer(world, "club-c0327", ["dsb_tournament", "dwz_liste"], vkz="C0327")
    own = world.client.get(f"{RS}/dwz/dwzliste/persons", headers=headers).json()
    expected = {
        pid for pid, held in MEMBERSHIPS.items() for code, *_, until in held if until is None and code == "C0327"
    }
    assert {p["nuLigaPersonId"] for p in own["data"]} == expected
    other = world.client.get(f"{RS}/dwz/dwzliste/persons", params={"vkz": "D"}, headers=headers)
    assert other.status_code == 403
    assert world.client.get(f"{RS}/dwz/tournaments", params={"vkz": "C01"}, headers=headers).status_code == 403


@pytest.mark.parametrize("world_url", ["sqlite"], indirect=True)
def test_a_wrong_secret_counts_as_a_failed_sign_in(world: World) -> None:
    settings = Settings(database_url=world.url, rate_limits=True, rate_limit_failed_auth="2/minute")
    with TestClient(create_app(settings, recalculation=False)) as limited:
        secret = make_client(world, "club-web-8", ["dsb_tournament"])

        def ask(client_secret: str) -> Any:
            return limited.post(
                f"{RS}/auth/token",
                data={
                    "grant_type": "client_credentials",
                    "client_id": "club-web-8",
                    "client_secret": client_secret,
                    "scope": "dsb_tournament",
                },
            )

        assert [ask("no").status_code for _ in range(2)] == [401, 401]
        # the third wrong secret is over the limit: 429, told how long to wait
        over = ask("no")
        assert over.status_code == 429
        assert int(over.headers["Retry-After"]) >= 1
        assert set(over.json()) == {"error", "error_description"}
        # the right secret is never refused for the failures (a guesser cannot lock the club out)
        right = ask(secret)
        assert right.status_code == 200, right.text
        assert right.json()["expires_in"] == 300
