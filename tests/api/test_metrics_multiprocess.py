"""``/metrics`` in ``prometheus_client``'s multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, as
with ``zdb serve --workers``): the counts added up from every process's files, and beside them
the metrics read from the database at the scrape (``zdb.api.metrics``), which no process's file
holds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.world import World

#: another serving process: it counts one accepted JSON submission into its own file
_ANOTHER_PROCESS = (
    "from prometheus_client import Counter\n"
    "Counter('zdb_submissions_total', 'tournaments accepted', ['format', 'kind']).labels('json', 'new').inc()\n"
)


def test_the_database_metrics_are_answered_beside_every_process_counts(
    fresh: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", _ANOTHER_PROCESS], env=environment, check=True, timeout=60)
    assert list(tmp_path.glob("counter_*.db"))  # the other process's file
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    answer = fresh.client.get("/metrics")
    assert answer.status_code == 200
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }
    # the other process's count, from its file
    assert samples[("zdb_submissions_total", frozenset({("format", "json"), ("kind", "new")}))] == 1.0
    # read from the database at this scrape: the world's recalculation has run, nothing waits
    assert samples[("zdb_recalculation_pending", frozenset())] == 0.0
    assert samples[("zdb_recalculation_dirty_age_seconds", frozenset())] == 0.0
    assert ("zdb_recalculation_last_evaluated", frozenset()) in samples
    # the outbox's and the notifications' (no subscription in the world, none paused)
    assert ("zdb_outbox_pending", frozenset()) in samples
    assert samples[("zdb_notification_subscriptions_paused", frozenset())] == 0.0
