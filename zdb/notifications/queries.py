"""What the metrics and the pages read about the notifications: deliveries per status, the
oldest one waiting, the paused subscriptions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.notifications.models import NotificationDelivery, Subscription

__all__ = ["DeliveryFigures", "delivery_figures"]


@dataclass(frozen=True, slots=True)
class DeliveryFigures:
    by_status: dict[str, int]
    oldest_pending: datetime | None
    paused: int


def _aware(moment: datetime | None) -> datetime | None:
    return moment if moment is None or moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def delivery_figures(session: Session) -> DeliveryFigures:
    d = NotificationDelivery
    counts = dict.fromkeys(("pending", "delivered", "failed"), 0)
    counts.update({status: int(n) for status, n in session.execute(select(d.status, func.count()).group_by(d.status))})
    oldest = session.execute(select(func.min(d.created_at)).where(d.status == "pending")).scalar()
    paused = session.execute(select(func.count()).where(Subscription.status == "paused")).scalar_one()
    return DeliveryFigures(counts, _aware(oldest), int(paused))
