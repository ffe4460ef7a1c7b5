"""Sending the due deliveries, and what becomes of each attempt.

A worker takes due deliveries for a while (``lease``) in a transaction of its own (two workers
take different ones), sends each outside any transaction, then records the attempt. Success (a
2xx answer) marks the delivery delivered, once: an attempt of a worker that outlived its lease
finds it delivered and only adds its line to the log. A receiver may therefore see an event
twice (a worker killed after sending, before recording): the ``webhook-id`` is the same, so it
drops the repetition. A failure is tried again after a pause that doubles (30 s, 1 min, … 6 h)
for ``retry_for`` (three days); then the delivery has failed and its subscription is paused
(its owner reads why in the API and on the page), until the owner resumes it.
"""

from __future__ import annotations

import http.client
import json
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, or_, select

from zdb.db import unit_of_work
from zdb.notifications.models import DeliveryAttempt, NotificationDelivery, Subscription
from zdb.notifications.signing import signed_headers
from zdb.notifications.targets import TargetPolicy, TargetRefusedError, post

__all__ = ["DeliveryPass", "DeliveryPolicy", "body_bytes", "deliver_due", "retry_pause", "signing_keys"]

_log = logging.getLogger(__name__)
_ERROR_LENGTH = 500


@dataclass(frozen=True, slots=True)
class DeliveryPolicy:
    target: TargetPolicy = field(default_factory=TargetPolicy)
    retry_for: timedelta = timedelta(hours=72)
    #: longer than an attempt can take (connect and read limits)
    lease: timedelta = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class DeliveryPass:
    delivered: int = 0
    failed_attempts: int = 0
    given_up: int = 0


def retry_pause(attempts: int) -> timedelta:
    """The pause after the ``attempts``-th failed attempt: 30 s doubled each time, at most 6 h."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 6 * 3600))


def body_bytes(delivery: NotificationDelivery) -> bytes:
    return json.dumps(delivery.body, separators=(",", ":"), ensure_ascii=False).encode()


def signing_keys(subscription: Subscription, now: datetime) -> list[str]:
    keys = [subscription.secret]
    until = subscription.previous_until
    if until is not None and until.tzinfo is None:  # SQLite keeps no zone: the value was UTC
        until = until.replace(tzinfo=UTC)
    if subscription.previous_secret and until is not None and until > now:
        keys.append(subscription.previous_secret)
    return keys


@dataclass(frozen=True, slots=True)
class _Taken:
    id: int
    url: str
    body: bytes
    event_id: str
    keys: list[str]


def _take(engine: Engine, now: datetime, limit: int, lease: timedelta) -> list[_Taken]:
    d, s = NotificationDelivery, Subscription
    with unit_of_work(engine) as session:
        rows = session.execute(
            select(d, s)
            .join(s, s.id == d.subscription_id)
            .where(
                d.status == "pending",
                d.next_attempt_at <= now,
                or_(d.taken_until.is_(None), d.taken_until < now),
                s.status == "active",  # a paused subscription's deliveries wait for its resumption
            )
            .order_by(d.next_attempt_at, d.id)
            .limit(limit)
            .with_for_update(of=d, skip_locked=True)
        ).all()
        taken = []
        for delivery, subscription in rows:
            delivery.taken_until = now + lease
            taken.append(
                _Taken(
                    delivery.id,
                    subscription.url,
                    body_bytes(delivery),
                    delivery.event_id,
                    signing_keys(subscription, now),
                )
            )
        return taken


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _record(
    engine: Engine,
    taken: _Taken,
    *,
    code: int | None,
    error: str | None,
    latency_ms: int,
    now: datetime,
    policy: DeliveryPolicy,
) -> str:
    ok = code is not None and 200 <= code < 300
    with unit_of_work(engine) as session:
        delivery = session.get(NotificationDelivery, taken.id, with_for_update=True)
        if delivery is None:  # its subscription was deleted meanwhile
            return "gone"
        session.add(
            DeliveryAttempt(
                delivery_id=delivery.id, at=now, status_code=code, latency_ms=latency_ms, ok=ok, error=error
            )
        )
        delivery.attempts += 1
        if delivery.status != "pending":  # another worker recorded it first (this one outlived its lease)
            return "late"
        delivery.taken_until = None
        if ok:
            delivery.status, delivery.delivered_at = "delivered", now
            return "delivered"
        if now - _aware(delivery.retry_since) >= policy.retry_for:
            delivery.status = "failed"
            subscription = session.get(Subscription, delivery.subscription_id, with_for_update=True)
            if subscription is not None and subscription.status == "active":
                subscription.status, subscription.paused_at = "paused", now
                subscription.paused_reason = (
                    f"event {delivery.event_id} could not be delivered for {policy.retry_for.total_seconds() / 3600:g} "
                    f"hours (last: {error or code})"
                )[:500]
            return "given up"
        delivery.next_attempt_at = now + retry_pause(delivery.attempts)
        return "failed"


def deliver_due(
    engine: Engine, policy: DeliveryPolicy, *, now: datetime | None = None, limit: int = 50
) -> DeliveryPass:
    """Send the due deliveries (at most ``limit``); what became of them. ``now`` is the moment
    the pass believes it is (what is due, the backoff); the signatures carry the real time."""
    moment = now or datetime.now(UTC)
    counts = {"delivered": 0, "failed": 0, "given up": 0}
    for taken in _take(engine, moment, limit, policy.lease):
        code: int | None = None
        error: str | None = None
        began = time.monotonic()
        try:
            headers = signed_headers(taken.event_id, taken.body, taken.keys, datetime.now(UTC))
            code = post(taken.url, taken.body, headers, policy.target)
            if not 200 <= code < 300:
                error = f"answered {code}"
        except TargetRefusedError as refused:
            error = str(refused.message)
        except (OSError, http.client.HTTPException) as failure:
            error = f"{type(failure).__name__}: {failure}"
        latency = int((time.monotonic() - began) * 1000)
        outcome = _record(
            engine,
            taken,
            code=code,
            error=error and error[:_ERROR_LENGTH],
            latency_ms=latency,
            now=moment,
            policy=policy,
        )
        if outcome in counts:
            counts[outcome] += 1
    return DeliveryPass(counts["delivered"], counts["failed"], counts["given up"])
