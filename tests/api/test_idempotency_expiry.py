"""Idempotency keys expire after the documented window (``idempotency_key_hours``): within it a
retry is answered with the first answer, after it the key is forgotten and its request is new;
expired rows are deleted by the token's next keyed write and by the worker's beat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from tests.api.test_submissions import _another_weekend, _body, _post
from tests.api.world import World
from workers.tasks import forget_idempotency_keys
from zdb.config import settings
from zdb.db import engine_for, unit_of_work
from zdb.endpoints.idempotency_models import IdempotencyKey


def _age(world: World, key: str, by: timedelta) -> None:
    """Make a key older, as if it had been taken ``by`` earlier."""
    with unit_of_work(engine_for(world.url)) as session:
        session.execute(
            update(IdempotencyKey).where(IdempotencyKey.key == key).values(created_at=datetime.now(UTC) - by)
        )


def _keys(world: World) -> list[str]:
    with unit_of_work(engine_for(world.url)) as session:
        return sorted(session.execute(select(IdempotencyKey.key)).scalars())


def test_a_key_is_forgotten_after_its_window(fresh: World) -> None:
    window = timedelta(hours=fresh.client.app.state.settings.idempotency_key_hours)
    key = {"Idempotency-Key": "upload-1"}
    first = _post(fresh, _body(fresh), **key)
    assert first.status_code == 201, first.text
    _age(fresh, "upload-1", window - timedelta(minutes=5))
    assert _post(fresh, _body(fresh), **key).json() == first.json()  # still within the window
    # Another of the token's keys is old too; the token's next keyed write deletes both.
    older = {**_another_weekend(fresh), "acronym": "OLD"}
    assert _post(fresh, older, **{"Idempotency-Key": "upload-0"}).status_code == 201
    _age(fresh, "upload-0", window + timedelta(minutes=5))
    _age(fresh, "upload-1", window + timedelta(minutes=5))
    # Past the window the key names nothing: another request under it is new, not a conflict.
    again = _post(fresh, {**_another_weekend(fresh, weeks=8), "name": "Anders"}, **key)
    assert again.status_code == 201, again.text
    assert again.json()["id"] != first.json()["id"]
    assert _keys(fresh) == ["upload-1"]


def test_the_beat_forgets_every_tokens_expired_keys(fresh: World, monkeypatch: pytest.MonkeyPatch) -> None:
    for weeks, (token, key) in enumerate((("referee_c", "old-c"), ("admin", "old-admin"), ("referee_c", "new-c"))):
        body = _another_weekend(fresh, weeks=4 * weeks)  # three tournaments: the same one twice is refused
        assert _post(fresh, body, token, **{"Idempotency-Key": key}).status_code == 201
    _age(fresh, "old-c", timedelta(hours=25))
    _age(fresh, "old-admin", timedelta(hours=25))
    monkeypatch.setenv("ZDB_DATABASE_URL", fresh.url)
    settings.cache_clear()
    try:
        assert forget_idempotency_keys() == 2  # the beat's task, run here in the test's process
    finally:
        monkeypatch.undo()
        settings.cache_clear()
    assert _keys(fresh) == ["new-c"]
