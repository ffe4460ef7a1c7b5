"""The README's table of the metrics is the list a Grafana dashboard is built from: every metric
``/metrics`` answers is in it with its type, and it names none that does not exist."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT

_ROW = re.compile(r"^\| `(zdb_[a-z_]+)` \| (counter|gauge|histogram) \|", re.M)


def test_the_readme_lists_every_metric_with_its_type(client: TestClient) -> None:
    client.get("/api/v1/players/1")  # a request, so that the histogram has a series
    answer = client.get("/metrics")
    assert answer.status_code == 200
    served = {
        family.name + ("_total" if family.type == "counter" else ""): family.type
        for family in text_string_to_metric_families(answer.text)
        if not family.name.endswith("_created")  # prometheus_client's start time of a series
    }
    listed = dict(_ROW.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    # served only beside a Redis broker (tests/api/test_metrics.py reads it from one)
    assert listed.pop("zdb_broker_queue_length") == "gauge"
    # served only beside streaming replicas (tests/deploy/test_replica_reads.py reads them from one)
    assert listed.pop("zdb_replica_lag_seconds") == "gauge" and listed.pop("zdb_replica_usable") == "gauge"
    assert served and listed == served
