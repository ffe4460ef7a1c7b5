"""What the streaming replicas of this serving process look like (``zdb.db_routing``): their lag
in ``/metrics`` and on ``/api/v1/health/replicas``.

* ``zdb_replica_lag_seconds{replica}`` — the last measured lag (absent while a replica does
  not answer);
* ``zdb_replica_usable{replica}`` — 1 while reads go to it, 0 while it is skipped (behind the
  bound or not answering).

A replica skipped does not make the service unready: its reads go to the primary. The health
answer says which replicas serve, so that an operator sees one fall behind before the readers
do. Without replicas, the list is empty.
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter, Request, Response
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from pydantic import BaseModel, Field

from zdb.api.conditional import conditional_json
from zdb.db_routing import Replicas

__all__ = ["ReplicaHealth", "ReplicaLag", "ReplicasHealth", "router"]

router = APIRouter(prefix="/health", tags=["meta"])


class ReplicaLag(Collector):
    def __init__(self, replicas: Replicas) -> None:
        self.replicas = replicas

    def collect(self) -> Iterator[Metric]:
        lag = GaugeMetricFamily("zdb_replica_lag_seconds", "a replica's last measured lag", labels=["replica"])
        usable = GaugeMetricFamily("zdb_replica_usable", "1 while reads go to the replica", labels=["replica"])
        for state in self.replicas.states:
            if state.lag is not None:
                lag.add_metric([state.name], state.lag)
            usable.add_metric([state.name], 1 if state.usable else 0)
        yield from (lag, usable)


class ReplicaHealth(BaseModel):
    replica: str = Field(description="its address, without the password")
    usable: bool = Field(description="reads go to it; false while it lags beyond the bound or does not answer")
    lag_seconds: float | None = Field(description="the last measured lag; null while it does not answer")


class ReplicasHealth(BaseModel):
    max_lag_seconds: float | None = Field(description="the bound beyond which a replica is skipped")
    replicas: list[ReplicaHealth]


@router.get("/replicas", response_model=ReplicasHealth, summary="The streaming replicas and their lag")
def replicas(*, request: Request) -> Response:
    found: Replicas | None = request.app.state.replicas
    if found is None:
        return conditional_json(request, ReplicasHealth(max_lag_seconds=None, replicas=[]))
    states = [
        ReplicaHealth(replica=s.name, usable=s.usable, lag_seconds=None if s.lag in (None, float("inf")) else s.lag)
        for s in found.states
    ]
    return conditional_json(request, ReplicasHealth(max_lag_seconds=found.max_lag, replicas=states))
