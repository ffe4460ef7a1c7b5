"""Subscriptions as their owners manage them: make, list, change, pause and resume, rotate the
secret, delete; read the delivery log and deliver one event again by hand.

A club token subscribes for its club's members; a referee for his subtree; an admin for the whole
tree or the subtree he names. A subscription belongs to the token that made it: another token
(an admin aside) neither sees nor changes it (404, as if it did not exist). Every change is in the
audit log. Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.notifications.events import EVENT_TYPES
from zdb.notifications.models import DeliveryAttempt, NotificationDelivery, Subscription
from zdb.notifications.signing import new_secret
from zdb.notifications.targets import TargetPolicy, TargetRefusedError, check_target

__all__ = [
    "DeliveryLine",
    "create_subscription",
    "delete_subscription",
    "delivery_log",
    "owned_subscription",
    "redeliver",
    "resume_subscription",
    "rotate_secret",
    "subscriptions_of",
]

#: subscriptions one token may hold
MAX_PER_TOKEN = 20


def _problem(place: str, message: Message) -> ValidationError:
    return ValidationError([ValidationProblem(place, message)])


def _check_events(events: Sequence[str]) -> list[str]:
    unknown = sorted(set(events) - EVENT_TYPES)
    if unknown:
        raise _problem(
            "body.events",
            Message(
                "unknown event types {unknown}; known are {known}",
                unknown=", ".join(unknown),
                known=", ".join(sorted(EVENT_TYPES)),
            ),
        )
    return sorted(set(events))


def _check_url(url: str, policy: TargetPolicy) -> None:
    try:
        check_target(url, policy)
    except TargetRefusedError as refused:
        raise _problem("body.url", refused.message) from None


def _scope(principal: Principal, federation: str | None) -> str:
    if principal.role == "club":
        assert principal.scope is not None
        return principal.scope  # a club subscribes for its own members, whatever it asks
    own = principal.scope or "" if principal.role == "referee" else ""
    wanted = federation if federation is not None else own
    if not wanted.startswith(own):
        raise _problem(
            "body.federation", Message("{wanted} lies outside the token's subtree {own}", wanted=wanted, own=own)
        )
    return wanted


def create_subscription(
    session: Session,
    principal: Principal,
    *,
    url: str,
    events: Sequence[str],
    federation: str | None,
    description: str,
    policy: TargetPolicy,
) -> Subscription:
    """A new subscription; its secret is in ``secret`` (shown to its owner on the page and in the API)."""
    principal.require("club", "referee", "admin")
    assert principal.token_id is not None
    wanted = _check_events(events)
    _check_url(url, policy)
    scope = _scope(principal, federation)
    held = session.execute(select(func.count()).where(Subscription.token_id == principal.token_id)).scalar_one()
    if held >= MAX_PER_TOKEN:
        raise ConflictError(Message("a token holds at most {limit} subscriptions", limit=MAX_PER_TOKEN))
    subscription = Subscription(
        token_id=principal.token_id,
        owner_role=principal.role,
        scope=scope,
        url=url,
        events=wanted,
        description=description,
        secret=new_secret(),
        status="active",
        created_at=datetime.now(UTC),
    )
    session.add(subscription)
    session.flush()
    record_entry(
        session, principal.token_id, "subscription.create", f"subscription {subscription.id}", url=url, events=wanted
    )
    return subscription


def subscriptions_of(session: Session, principal: Principal) -> list[Subscription]:
    query = select(Subscription).order_by(Subscription.id)
    if principal.role != "admin":
        query = query.where(Subscription.token_id == principal.token_id)
    return list(session.scalars(query))


def owned_subscription(
    session: Session, principal: Principal, subscription_id: int, *, lock: bool = False
) -> Subscription:
    subscription = session.get(Subscription, subscription_id, with_for_update=lock)
    if subscription is None or (principal.role != "admin" and subscription.token_id != principal.token_id):
        raise NotFoundError(Message("subscription {id} does not exist", id=subscription_id))
    return subscription


def delete_subscription(session: Session, principal: Principal, subscription_id: int) -> None:
    subscription = owned_subscription(session, principal, subscription_id, lock=True)
    session.delete(subscription)
    session.flush()
    record_entry(session, principal.token_id, "subscription.delete", f"subscription {subscription_id}")


def resume_subscription(session: Session, principal: Principal, subscription_id: int) -> Subscription:
    """A paused subscription active again: its waiting deliveries go out at once."""
    subscription = owned_subscription(session, principal, subscription_id, lock=True)
    if subscription.status != "paused":
        raise ConflictError(Message("subscription {id} is not paused", id=subscription_id))
    subscription.status, subscription.paused_at, subscription.paused_reason = "active", None, None
    now = datetime.now(UTC)
    waiting = session.scalars(
        select(NotificationDelivery).where(
            NotificationDelivery.subscription_id == subscription.id, NotificationDelivery.status == "pending"
        )
    )
    for delivery in waiting:  # a fresh window of retries from now
        delivery.next_attempt_at = delivery.retry_since = now
    session.flush()
    record_entry(session, principal.token_id, "subscription.resume", f"subscription {subscription_id}")
    return subscription


def rotate_secret(session: Session, principal: Principal, subscription_id: int, overlap: timedelta) -> Subscription:
    """A new secret; the old one signs beside it for ``overlap``, so that the receiver can switch."""
    subscription = owned_subscription(session, principal, subscription_id, lock=True)
    subscription.previous_secret = subscription.secret
    subscription.previous_until = datetime.now(UTC) + overlap
    subscription.secret = new_secret()
    session.flush()
    record_entry(
        session,
        principal.token_id,
        "subscription.rotate_secret",
        f"subscription {subscription_id}",
        old_secret_until=subscription.previous_until.isoformat(),
    )
    return subscription


@dataclass(frozen=True, slots=True)
class DeliveryLine:
    delivery: NotificationDelivery
    attempts: list[DeliveryAttempt]


def delivery_log(
    session: Session, principal: Principal, subscription_id: int, *, limit: int, offset: int
) -> tuple[list[DeliveryLine], int]:
    """The subscription's deliveries, the newest first, each with its attempts (time, answer, latency)."""
    owned_subscription(session, principal, subscription_id)
    d = NotificationDelivery
    total = session.execute(select(func.count()).where(d.subscription_id == subscription_id)).scalar_one()
    deliveries = list(
        session.scalars(
            select(d).where(d.subscription_id == subscription_id).order_by(d.id.desc()).limit(limit).offset(offset)
        )
    )
    attempts: dict[int, list[DeliveryAttempt]] = {delivery.id: [] for delivery in deliveries}
    if deliveries:
        for attempt in session.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.delivery_id.in_(attempts)).order_by(DeliveryAttempt.id)
        ):
            attempts[attempt.delivery_id].append(attempt)
    return [DeliveryLine(delivery, attempts[delivery.id]) for delivery in deliveries], total


def redeliver(session: Session, principal: Principal, subscription_id: int, delivery_id: int) -> NotificationDelivery:
    """Send one event again (the same ``webhook-id``: a receiver that has it may drop it)."""
    owned_subscription(session, principal, subscription_id)
    delivery = session.get(NotificationDelivery, delivery_id, with_for_update=True)
    if delivery is None or delivery.subscription_id != subscription_id:
        raise NotFoundError(Message("delivery {id} does not exist", id=delivery_id))
    if delivery.status == "pending":
        raise ConflictError(Message("delivery {id} is waiting to be sent already", id=delivery_id))
    now = datetime.now(UTC)
    delivery.status, delivery.next_attempt_at, delivery.retry_since = "pending", now, now
    delivery.taken_until = delivery.delivered_at = None
    session.flush()
    record_entry(
        session, principal.token_id, "subscription.redeliver", f"subscription {subscription_id}", delivery=delivery_id
    )
    return delivery
