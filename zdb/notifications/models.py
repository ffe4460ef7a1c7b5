"""The tables of the notifications: subscriptions, deliveries (one per event and subscription)
and the log of each delivery's attempts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["DeliveryAttempt", "NotificationDelivery", "Subscription"]


class Subscription(Base):
    __tablename__ = "notification_subscriptions"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'paused')", name="status"),
        CheckConstraint("owner_role IN ('club', 'referee', 'admin')", name="owner_role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    #: the token that made it: only it (and an admin) sees and changes it
    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"), index=True)
    owner_role: Mapped[str] = mapped_column(String(10))
    #: a club's code (club), a federation prefix (staff; "" the whole tree)
    scope: Mapped[str] = mapped_column(String(20))
    url: Mapped[str] = mapped_column(String(2000))
    #: the event types wanted; empty: every type
    events: Mapped[list[str]] = mapped_column(JSON)
    description: Mapped[str] = mapped_column(String(200), default="")
    secret: Mapped[str] = mapped_column(String(100))
    #: the secret before the last rotation: it signs too until ``previous_until``
    previous_secret: Mapped[str | None] = mapped_column(String(100))
    previous_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(10), default="active")
    paused_reason: Mapped[str | None] = mapped_column(String(500))
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NotificationDelivery(Base):
    __tablename__ = "notification_deliveries"
    __table_args__ = (
        CheckConstraint("status IN ('pending', 'delivered', 'failed')", name="status"),
        # the fan-out of one outbox message is done once per subscription (a relay may run twice)
        UniqueConstraint("subscription_id", "source", "seq"),
        Index("ix_notification_deliveries_due", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("notification_subscriptions.id", ondelete="CASCADE"), index=True
    )
    #: the outbox message it came from, and its number among that message's events
    source: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int]
    #: the ``webhook-id``: the same on every attempt, so that a receiver can drop a repetition
    event_id: Mapped[str] = mapped_column(String(40), unique=True)
    event_type: Mapped[str] = mapped_column(String(60))
    #: the body as sent: {"type", "timestamp", "data"}
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: retries go on for ``notification_retry_hours`` from here (the event's making, or a redelivery by hand)
    retry_since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: a worker sends it until then; one that died lets it go when this passes
    taken_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DeliveryAttempt(Base):
    __tablename__ = "notification_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    delivery_id: Mapped[int] = mapped_column(ForeignKey("notification_deliveries.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: the receiver's answer code; None when there was none (refused, unreachable, timed out)
    status_code: Mapped[int | None]
    latency_ms: Mapped[int]
    ok: Mapped[bool]
    error: Mapped[str | None] = mapped_column(String(500))
