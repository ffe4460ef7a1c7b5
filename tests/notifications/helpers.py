"""What the notification tests share: an application that may notify this machine over plain
HTTP (the receiver of ``receiver.py``), subscribing, and the relay driven by hand."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.notifications.delivery import DeliveryPass, DeliveryPolicy, deliver_due
from zdb.notifications.fanout import HANDLERS
from zdb.notifications.targets import TargetPolicy
from zdb.outbox.models import OutboxMessage
from zdb.outbox.relay import relay_due

#: the tests' receiver listens on this machine over plain HTTP
LOCAL = TargetPolicy(allow_http=True, allow_private=True, connect_seconds=2.0, read_seconds=5.0)
POLICY = DeliveryPolicy(target=LOCAL)


def local_client(url: str) -> TestClient:
    settings = Settings(database_url=url, notifications_allow_http=True, notifications_allow_private=True)
    return TestClient(create_app(settings, recalculation=False))


def subscribe(client: TestClient, secret: str, target: str, events: list[str] | None = None, **more: Any) -> Any:
    body = {"url": target, "events": events or [], **more}
    return client.post("/api/v1/subscriptions", json=body, headers={"Authorization": f"Bearer {secret}"})


def _handed_on(_session: Session, _message: OutboxMessage) -> None:
    """The recalculation and the imports are run by the tests themselves."""


def fan_out(url: str, now: datetime | None = None) -> int:
    """One pass of the relay over the outbox; how many messages it handled."""
    handlers = {**HANDLERS, "recalculate": _handed_on, "list.import": _handed_on}
    done = relay_due(engine_for(url), handlers, now=now)
    assert done.failed == 0
    return done.done


def deliver(url: str, now: datetime | None = None, policy: DeliveryPolicy = POLICY) -> DeliveryPass:
    return deliver_due(engine_for(url), policy, now=now)
