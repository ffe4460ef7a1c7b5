"""The hot reads (``zdb.api.hot_reads``): the player card and the club list answer, byte for
byte, what the read queries' models give on the same data (``zdb.players.queries.player_card``,
``zdb.ratings.club_list_queries.club_ratings``), for the public and for a club token that sees non-public
fields; in PostgreSQL they come from the read pool, in SQLite from the sessions. Conditional
GETs work alike, and a public request never looks at the token table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.world import MEMBERSHIPS, NAMES, World
from zdb.app import create_app
from zdb.auth.principal import PUBLIC, Principal
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.endpoints import dependencies
from zdb.endpoints.pagination import Page
from zdb.federations.models import Club, Federation
from zdb.ratings.club_list_queries import club_ratings
from zdb.ratings.player_queries import player_card
from zdb.ratings.schemas import ClubMemberRating

#: who asks: the world's token name (None: the public) and the principal the queries are given
CALLERS = [(None, PUBLIC), ("club_c0327", Principal("club", "C0327"))]


def _body(world: World, path: str, token: str | None, **params: Any) -> bytes:
    answer = world.get(path, token, **params)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    return bytes(answer.content)


def test_the_read_pool_serves_postgresql_only(world: World) -> None:
    pool = world.client.app.state.read_pool
    assert (pool is not None) == world.url.startswith("postgresql")


@pytest.mark.parametrize(("token", "caller"), CALLERS, ids=["public", "club"])
def test_player_card_equals_the_query_model(world: World, token: str | None, caller: Principal) -> None:
    visible = 0
    with unit_of_work(engine_for(world.url)) as session:
        for pid in sorted(NAMES):
            pkz = world.pkz[pid]
            card = player_card(session, pkz, caller, complaint_days=Settings().complaint_days)
            visible += card.private_fields_visible
            assert _body(world, f"/players/{pkz}", token) == card.model_dump_json().encode(), pid
            days = Settings().complaint_days  # the card marks provisional evaluations (issue 35) on both paths
            at = player_card(session, pkz, caller, card.history[0].date if card.history else None, complaint_days=days)
            if card.history:
                assert _body(world, f"/players/{pkz}", token, at=str(card.history[0].date)) == (
                    at.model_dump_json().encode()
                ), pid
    assert visible == (0 if token is None else len([p for p, ms in MEMBERSHIPS.items() if _current_c0327(ms)]))


def _current_c0327(memberships: Any) -> bool:
    return any(club == "C0327" and until is None for club, _, _, until in memberships)


@pytest.mark.parametrize(("token", "caller"), CALLERS, ids=["public", "club"])
@pytest.mark.parametrize("club", ["C0327", "C0101", "D0001"])
@pytest.mark.parametrize("page", [{}, {"limit": 2, "offset": 1}, {"offset": 50}, {"changed_since": "2000-01-01"}])
def test_club_list_equals_the_query_model(
    world: World, token: str | None, caller: Principal, club: str, page: dict[str, Any]
) -> None:
    limit, offset = page.get("limit", 5000), page.get("offset", 0)
    since = page.get("changed_since")
    with unit_of_work(engine_for(world.url)) as session:
        items, total, _ = club_ratings(
            session,
            club,
            caller,
            changed_since=None if since is None else datetime.fromisoformat(since),
            limit=limit,
            offset=offset,
            complaint_days=Settings().complaint_days,  # both paths mark provisional ratings (issue 35)
        )
    expected = Page[ClubMemberRating](items=items, total=total, limit=limit, offset=offset)
    assert _body(world, f"/clubs/{club}/ratings", token, **page) == expected.model_dump_json().encode()


@pytest.mark.parametrize("path", ["/players/{pkz}", "/clubs/C0327/ratings"])
def test_conditional_get_of_the_hot_reads(world: World, path: str) -> None:
    url = "/api/v1" + path.format(pkz=world.pkz["A"])
    first = world.client.get(url)
    tag = first.headers["etag"]
    assert first.headers["last-modified"] and first.headers["vary"] == "Authorization"
    again = world.client.get(url, headers={"If-None-Match": f'W/{tag}, "other"'})
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
    assert world.client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    club = world.client.get(url, headers={"Authorization": f"Bearer {world.tokens['club_c0327']}"})
    assert club.headers["etag"] != tag  # the club sees the birth dates: another answer, another tag
    assert world.client.get(url, headers={"If-None-Match": tag, **club.request.headers}).status_code == 200


def test_hot_reads_refuse_like_the_others(world: World) -> None:
    missing = world.get("/players/999999999")
    assert (missing.status_code, missing.headers["content-type"]) == (404, "application/problem+json")
    assert world.get("/clubs/X9999/ratings").status_code == 404
    assert world.get(f"/players/{world.pkz['A']}", "revoked").status_code == 401
    bad = world.client.get(f"/api/v1/players/{world.pkz['A']}", headers={"Authorization": "Basic x"})
    assert bad.status_code == 401


def test_public_hot_reads_never_look_at_tokens(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> Principal:
        raise AssertionError("the token table was asked")

    monkeypatch.setattr(dependencies, "authenticate", refuse)
    assert world.get(f"/players/{world.pkz['A']}").status_code == 200
    assert world.get("/clubs/C0327/ratings").status_code == 200


def test_club_without_current_members(database_url: str) -> None:
    """A club whose members all left answers an empty list (not a 404), on every page."""
    with unit_of_work(engine_for(database_url)) as session:
        session.add(Federation(prefix="", name="Deutscher Schachbund", level=0, parent_prefix=None))
        session.flush()
        session.add(Club(code="E0001", name="SV Leer", federation_prefix=""))
    app = create_app(Settings(database_url=database_url, read_pool_size=1), recalculation=False)
    with TestClient(app) as client, unit_of_work(engine_for(database_url)) as session:
        for params in ({}, {"offset": 3}, {"changed_since": "2000-01-01T00:00:00Z"}):
            answer = client.get("/api/v1/clubs/E0001/ratings", params=params)
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"items": [], "total": 0, "limit": 5000, "offset": params.get("offset", 0)}
            since = params.get("changed_since")
            items, total, _ = club_ratings(
                session,
                "E0001",
                PUBLIC,
                changed_since=None if since is None else datetime.fromisoformat(since),
                limit=5000,
                offset=int(params.get("offset", 0)),
            )
            assert (items, total) == ([], 0)
        assert client.get("/api/v1/clubs/E0002/ratings").status_code == 404
