"""The metrics of the outbox and the notifications, read from the database at each scrape (so
every API process answers the same values):

* ``zdb_outbox_pending``, ``zdb_outbox_oldest_pending_age_seconds`` — messages of the outbox not
  yet handed on, and how long the oldest has waited (a relay that stopped when it grows);
* ``zdb_notification_deliveries`` — deliveries per status (pending, delivered, failed);
* ``zdb_notification_oldest_pending_age_seconds`` — how long the oldest pending delivery has waited;
* ``zdb_notification_subscriptions_paused`` — subscriptions paused after three days of failures.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine

from zdb.db import unit_of_work
from zdb.notifications.queries import delivery_figures
from zdb.outbox.relay import oldest_pending

__all__ = ["NotificationMetrics"]


def _age(since: datetime | None) -> float:
    return 0.0 if since is None else max(0.0, (datetime.now(UTC) - since).total_seconds())


class NotificationMetrics(Collector):
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        with unit_of_work(self.engine) as session:
            waiting, oldest = oldest_pending(session.connection())
            figures = delivery_figures(session)
        outbox = GaugeMetricFamily("zdb_outbox_pending", "outbox messages not yet handed on")
        outbox.add_metric([], waiting)
        outbox_age = GaugeMetricFamily(
            "zdb_outbox_oldest_pending_age_seconds", "how long the oldest outbox message has waited (0: none waits)"
        )
        outbox_age.add_metric([], _age(oldest))
        deliveries = GaugeMetricFamily(
            "zdb_notification_deliveries", "notification deliveries per status", labels=["status"]
        )
        for status, count in sorted(figures.by_status.items()):
            deliveries.add_metric([status], count)
        delivery_age = GaugeMetricFamily(
            "zdb_notification_oldest_pending_age_seconds",
            "how long the oldest pending notification has waited (0: none waits)",
        )
        delivery_age.add_metric([], _age(figures.oldest_pending))
        paused = GaugeMetricFamily(
            "zdb_notification_subscriptions_paused", "subscriptions paused after three days of failed deliveries"
        )
        paused.add_metric([], figures.paused)
        yield from (outbox, outbox_age, deliveries, delivery_age, paused)
