"""Helpers of the database scenarios: submit an events file, recalculate, compare."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import inspect, select, text

from tests.vector_compare import assert_rows, canonical_states
from zdb.db import engine_for, unit_of_work
from zdb.exchange.events_import import import_events
from zdb.exchange.results_export import export_results
from zdb.recalculation.recalculate import RecalcOutcome
from zdb.recalculation.run import run_recalculation
from zdb.recalculation.verify import verify
from zdb.timeline.models import RecalcState


def submit(url: str, document: dict[str, Any]) -> dict[str, int]:
    with unit_of_work(engine_for(url)) as session:
        return import_events(session, document, by="test")


def recalc(url: str, from_scratch: bool = False) -> RecalcOutcome:
    return run_recalculation(engine_for(url), from_scratch=from_scratch)


def differences(url: str) -> list[str]:
    with unit_of_work(engine_for(url)) as session:
        return verify(session)


def exported(url: str) -> dict[str, Any]:
    with unit_of_work(engine_for(url)) as session:
        return export_results(session)


def is_clean(url: str) -> bool:
    with engine_for(url).connect() as connection:
        return connection.execute(select(RecalcState.dirty_date).where(RecalcState.id == 1)).scalar() is None


def wait_for_a_blocked_writer(url: str, gave_up: Callable[[], bool], bound: float = 30.0) -> None:
    """Return once a session of the PostgreSQL database ``url`` waits for a lock another holds;
    fail when ``gave_up()`` (the writer finished without waiting) or after ``bound`` seconds."""
    deadline = time.monotonic() + bound
    engine = engine_for(url)
    while True:
        # A new transaction each time: pg_stat_activity is a snapshot taken once per transaction.
        with engine.connect() as connection:
            waiting = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            ).scalar_one()
        if waiting:
            return
        assert not gave_up(), "the second writer finished without waiting for the first"
        assert time.monotonic() < deadline, f"no writer waited for a lock within {bound} s"
        time.sleep(0.02)


def table_names(url: str) -> set[str]:
    return set(inspect(engine_for(url)).get_table_names())


def assert_export_equals(document: dict[str, Any], expected: dict[str, Any]) -> None:
    assert document["order"] == expected["order"]
    assert canonical_states(document["final_states"]) == canonical_states(expected["final_states"])
    assert document["history"] == expected["history"]
    assert list(document["reports"]) == list(expected["reports"])
    for tournament_id, rows in expected["reports"].items():
        assert_rows(rows, document["reports"][tournament_id], tournament_id)


def big_time_line(tournaments: int, players: int = 12) -> dict[str, Any]:
    """Many club round robins: enough work for a run that can be killed half-way."""
    events = []
    for t in range(1, tournaments + 1):
        group = [f"P{(t * 7 + k) % 400}" for k in range(players)]
        games = [
            {"white": group[a], "black": group[b], "result": ("1-0", "0-1", "1/2-1/2")[(a * 3 + b + t) % 3]}
            for a in range(players)
            for b in range(a + 1, players)
        ]
        month = 1 + t % 12
        events.append(
            {
                "id": t,
                "acronym": "CLM",
                "end_date": f"{2017 + t * 9 // tournaments}-{month:02d}-15",
                "players": [{"pid": p, "birth_year": 1960 + (int(p[1:]) % 50)} for p in group],
                "games": games,
            }
        )
    states = {f"P{k}": {"rating": 1000 + 3 * k, "index": 5, "leftover": []} for k in range(0, 400, 2)}
    return {"initial_states": states, "events": events}
