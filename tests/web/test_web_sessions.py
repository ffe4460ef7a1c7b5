"""The referee pages' sign-in keeps a server-side session: the browser's cookie holds a session
id, never the API token; signing out deletes the session, so a copied cookie opens nothing; a
session ends when it expires or its token is revoked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from tests.api.world import World
from tests.web.same_site import SAME_SITE
from tests.web.test_referee_pages import _signed_in, fresh  # noqa: F401 - the fixture, by name
from zdb.auth.models import ApiToken
from zdb.auth.service import revoke_token
from zdb.auth.web_sessions import WebSession
from zdb.db import engine_for, unit_of_work

COOKIE = "zdb_session"


def _sessions(world: World) -> int:
    with unit_of_work(engine_for(world.url)) as session:
        return int(session.execute(select(func.count()).select_from(WebSession)).scalar_one())


def _with_cookie(world: World, value: str, name: str = COOKIE) -> TestClient:
    client = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    client.cookies.set(name, value)
    return client


def test_the_cookie_holds_a_session_id_not_the_token(fresh: World) -> None:  # noqa: F811
    token = fresh.tokens["referee_c"]
    client = _signed_in(fresh)
    session_id = client.cookies[COOKIE]
    assert token not in str(client.cookies.jar) and session_id != token
    assert _sessions(fresh) == 1
    # The id opens the pages from another browser too, until the referee signs out; the token
    # itself in a cookie opens nothing.
    copied = _with_cookie(fresh, session_id)
    assert copied.get("/referee").status_code == 200
    assert _with_cookie(fresh, token).get("/referee").status_code == 303
    assert _with_cookie(fresh, token, "zdb_token").get("/referee").status_code == 303
    assert client.post("/referee/sign-out").status_code == 303
    assert _sessions(fresh) == 0
    assert copied.get("/referee").status_code == 303


def _token_id(world: World, label: str) -> int:
    with unit_of_work(engine_for(world.url)) as session:
        return int(session.execute(select(ApiToken.id).where(ApiToken.label == label)).scalar_one())


def test_a_session_ends_when_it_expires_or_its_token_is_revoked(fresh: World) -> None:  # noqa: F811
    expiring, revoked = _signed_in(fresh), _signed_in(fresh, "admin")
    assert expiring.get("/referee").status_code == revoked.get("/referee").status_code == 200
    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(
            update(WebSession)
            .where(WebSession.token_id == _token_id(fresh, "referee_c"))
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
        revoke_token(session, str(_token_id(fresh, "admin")))
    assert expiring.get("/referee").status_code == 303
    assert revoked.get("/referee").status_code == 303
    # The next sign-in deletes the expired session; the revoked token's stays until it expires
    # (it opens nothing meanwhile), and the new one is added: two rows again.
    assert _sessions(fresh) == 2
    _signed_in(fresh, "referee_d")
    assert _sessions(fresh) == 2


def test_a_sign_in_lasts_the_configured_time(fresh: World) -> None:  # noqa: F811
    before = datetime.now(UTC)
    client = TestClient(fresh.client.app, follow_redirects=False, headers=SAME_SITE)
    answer = client.post("/referee/sign-in", data={"token": fresh.tokens["referee_c"], "next": "/referee"})
    assert answer.status_code == 303, answer.text
    hours = fresh.client.app.state.settings.web_session_hours
    assert f"max-age={int(hours * 3600)}" in answer.headers["set-cookie"].lower()
    with unit_of_work(engine_for(fresh.url)) as session:
        expires = session.execute(select(WebSession.expires_at)).scalar_one()
    expires = expires if expires.tzinfo else expires.replace(tzinfo=UTC)  # SQLite keeps no zone
    assert before + timedelta(hours=hours) <= expires <= datetime.now(UTC) + timedelta(hours=hours)
