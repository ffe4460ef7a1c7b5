"""One pass of the relay, as the Celery task and the embedded thread run it: the outbox's due
messages (with the notifications' fan-out beside the wiring's own handlers), then the due
deliveries."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from sqlalchemy import Engine

from zdb.config import Settings
from zdb.notifications.delivery import DeliveryPolicy, deliver_due
from zdb.notifications.fanout import HANDLERS
from zdb.notifications.targets import TargetPolicy
from zdb.outbox.relay import Handler, relay_due
from zdb.reviews.directory import OFFICER_MAIL, mail_officer_message

__all__ = ["delivery_policy", "relay_pass"]

_MESSAGES = 200
_DELIVERIES = 50


def delivery_policy(settings: Settings) -> DeliveryPolicy:
    target = TargetPolicy(
        allow_http=settings.notifications_allow_http, allow_private=settings.notifications_allow_private
    )
    return DeliveryPolicy(
        target=target,
        retry_for=timedelta(hours=settings.notification_retry_hours),
        lease=timedelta(seconds=settings.notification_lease_seconds),
    )


def relay_pass(engine: Engine, handlers: Mapping[str, Handler], policy: DeliveryPolicy) -> bool:
    """One pass; whether a batch was full (more may be waiting)."""
    relayed = relay_due(engine, {**HANDLERS, OFFICER_MAIL: mail_officer_message, **handlers}, limit=_MESSAGES)
    sent = deliver_due(engine, policy, limit=_DELIVERIES)
    return (
        relayed.done + relayed.failed >= _MESSAGES
        or sent.delivered + sent.failed_attempts + sent.given_up >= _DELIVERIES
    )
