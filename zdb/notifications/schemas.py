"""What the API reads and answers about subscriptions and their deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from zdb.notifications.models import Subscription
from zdb.notifications.service import DeliveryLine

__all__ = ["AttemptOut", "DeliveryOut", "SubscriptionIn", "SubscriptionOut", "delivery_out", "subscription_out"]


class SubscriptionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=8, max_length=2000, description="where the events go: an HTTPS address")
    events: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="the event types wanted (empty: all): rating.changed, ratings.recalculated, "
        "tournament.state_changed, list.edition_published",
    )
    federation: str | None = Field(
        default=None,
        max_length=20,
        description="staff only: the federation subtree (a club-code prefix); default the token's own",
    )
    description: str = Field(default="", max_length=200)


class SubscriptionOut(BaseModel):
    id: int
    url: str
    events: list[str]
    scope: str = Field(description="the club's code (a club's subscription) or the federation prefix")
    description: str
    status: str = Field(description="active, or paused (after three days of failed deliveries; resume it)")
    paused_reason: str | None
    paused_at: datetime | None
    created_at: datetime
    secret: str | None = Field(
        default=None, description="the signing secret (whsec_…), answered when made and when rotated only"
    )
    previous_secret_until: datetime | None = Field(description="the rotated-out secret signs too until then")


class AttemptOut(BaseModel):
    at: datetime
    status_code: int | None = Field(description="the receiver's answer; null when there was none")
    latency_ms: int
    ok: bool
    error: str | None


class DeliveryOut(BaseModel):
    id: int
    event_id: str = Field(description="the webhook-id header: the same on every attempt")
    event_type: str
    status: str = Field(description="pending, delivered or failed")
    created_at: datetime
    delivered_at: datetime | None
    next_attempt_at: datetime | None
    body: dict[str, Any]
    attempts: list[AttemptOut]


def subscription_out(subscription: Subscription, *, with_secret: bool = False) -> SubscriptionOut:
    return SubscriptionOut(
        id=subscription.id,
        url=subscription.url,
        events=list(subscription.events),
        scope=subscription.scope,
        description=subscription.description,
        status=subscription.status,
        paused_reason=subscription.paused_reason,
        paused_at=subscription.paused_at,
        created_at=subscription.created_at,
        secret=subscription.secret if with_secret else None,
        previous_secret_until=subscription.previous_until if subscription.previous_secret else None,
    )


def delivery_out(line: DeliveryLine) -> DeliveryOut:
    d = line.delivery
    return DeliveryOut(
        id=d.id,
        event_id=d.event_id,
        event_type=d.event_type,
        status=d.status,
        created_at=d.created_at,
        delivered_at=d.delivered_at,
        next_attempt_at=d.next_attempt_at if d.status == "pending" else None,
        body=d.body,
        attempts=[
            AttemptOut(at=a.at, status_code=a.status_code, latency_ms=a.latency_ms, ok=a.ok, error=a.error)
            for a in line.attempts
        ],
    )
