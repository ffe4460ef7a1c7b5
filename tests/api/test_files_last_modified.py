"""The club files' ``Last-Modified`` moves with their content and nothing else, and a client that
sends it back in ``If-Modified-Since`` is answered 304 while nothing changed: club scripts
mirror the files every night that way."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import pytest

from tests.api.test_submissions import _body
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.audit.models import AuditEntry
from zdb.audit.reader import last_write_at
from zdb.common.utc import as_utc
from zdb.db import engine_for, unit_of_work

FILES = ["/files/rating-list.zip", "/clubs/C0327/members.csv"]


def _headers(world: World, token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {world.tokens[token]}"}


@pytest.mark.parametrize("path", FILES)
def test_last_modified_moves_with_an_evaluation_and_not_with_a_preview(fresh: World, path: str) -> None:
    client = fresh.client
    first = client.get(f"/api/v1{path}")
    assert first.status_code == 200
    stamp = first.headers["last-modified"]
    since = {"If-Modified-Since": stamp}
    assert client.get(f"/api/v1{path}", headers=since).status_code == 304
    assert client.get(f"/api/v1{path}", headers={"Accept": "application/json", **since}).status_code == 304

    # two members of C0327 (by person number and by membership number) and two other players
    players = [{"pkz": fresh.pkz["A"]}, {"club_code": "C0327", "member_no": 2}, {"fide_id": 4600003}]
    body = _body(fresh, players=[*players, {"pkz": fresh.pkz["D"]}])
    preview = client.post("/api/v1/tournaments/preview", json=body, headers=_headers(fresh, "referee_c"))
    assert preview.status_code == 200, preview.text
    after_preview = client.get(f"/api/v1{path}", headers=since)
    assert after_preview.status_code == 304 and after_preview.headers["last-modified"] == stamp
    assert client.get(f"/api/v1{path}").headers["last-modified"] == stamp

    submitted = client.post("/api/v1/tournaments", json=body, headers=_headers(fresh, "referee_c"))
    assert submitted.status_code == 201, submitted.text
    # stored, not yet evaluated: the file holds what it held
    assert client.get(f"/api/v1{path}", headers=since).status_code == 304
    recalc(fresh.url)  # A's and B's ratings change
    changed = client.get(f"/api/v1{path}", headers=since)
    assert changed.status_code == 200 and changed.content != first.content
    moved = changed.headers["last-modified"]
    assert parsedate_to_datetime(moved) > parsedate_to_datetime(stamp)
    assert client.get(f"/api/v1{path}", headers={"If-Modified-Since": moved}).status_code == 304
    # If-None-Match wins over If-Modified-Since (RFC 9110 §13.1.3)
    both = {"If-Modified-Since": moved, "If-None-Match": '"other"'}
    assert client.get(f"/api/v1{path}", headers=both).status_code == 200


def test_a_preview_is_no_write_the_answers_date_from(database_url: str) -> None:
    """The JSON reads dated by the last write (clubs, federations, a club's ratings) are not
    moved by a preview's record in the audit log either."""
    written, previewed = datetime(2026, 11, 2, 8, tzinfo=UTC), datetime(2026, 11, 2, 9, tzinfo=UTC)
    with unit_of_work(engine_for(database_url)) as session:
        session.add(AuditEntry(action="player.update", target="player 10000001", detail={}, at=written))
        session.add(AuditEntry(action="tournament.preview", target="tournament (new)", detail={}, at=previewed))
    with unit_of_work(engine_for(database_url)) as session:
        stamp = last_write_at(session)
    assert stamp is not None and as_utc(stamp) == written
