"""Mending re-applied steps: an incremental run rewrites only the rows that changed.

When a change spreads, the incremental replay re-evaluates every later tournament with a
participant whose state differs, and re-applies a conversion to such players. Most rows of
those steps come out as stored (measured: about three in four report rows and nine in ten
history rows of a late weekend open's re-evaluated tournaments): writing only the differing
rows saves most of the run's writes. A row's identity is its primary key; a row that differs
is deleted and inserted again (COPY beats UPDATE for any number of rows worth saving).

Steps at keys that changed (new, corrected or withdrawn events) are rewritten whole by the
caller; this module handles only stored steps applied again to the same event and version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from zdb.rating import OrderKey, PlayerId, Step
from zdb.recalculation import store
from zdb.timeline.models import Evaluation, HistoryRow

__all__ = ["mend"]

_HISTORY_KEY = ("event_date", "event_phase", "event_text", "event_id", "player_pkz")
_EVALUATION_KEY = ("tournament_id", "version", "player_pkz")


def mend(
    session: Session, steps: Sequence[tuple[Step, int | None, store.DbStep]]
) -> dict[OrderKey, tuple[set[PlayerId], set[PlayerId]]]:
    """Delete the stored rows of re-applied ``steps`` (new step, tournament version, stored
    step) that differ from the new ones; per step, the players whose history rows and report
    rows are to be inserted (``repository.write_steps``'s ``only``)."""
    reports = store.stored_evaluations(session, [(s.key[3], v) for s, v, _ in steps if s.evaluation and v])
    stale_history: list[tuple[Any, ...]] = []
    stale_reports: list[tuple[int, int, int]] = []
    fresh: dict[OrderKey, tuple[set[PlayerId], set[PlayerId]]] = {}
    for step, version, old in steps:
        flags = {row.pid: row.stored for row in step.evaluation.rows} if step.evaluation is not None else {}
        # A partial conversion covers only its players; the others' rows stand.
        players = step.partial if step.partial is not None else old.inputs.keys() | step.inputs.keys()
        history: set[PlayerId] = set()
        inputs, outputs, stored_rows = step.inputs, step.outputs, old.players
        for pid in players:
            before = inputs.get(pid)
            if pid not in stored_rows:
                if before is not None:
                    history.add(pid)
            elif before is None:
                stale_history.append((*step.key, int(pid)))
            elif not old.holds(pid, before, outputs[pid], flags.get(pid)):
                stale_history.append((*step.key, int(pid)))
                history.add(pid)
        reported: set[PlayerId] = set()
        if step.evaluation is not None:
            assert version is not None
            tid = step.key[3]
            stored = reports[(tid, version)]
            new_rows = store.evaluation_rows(tid, version, step.evaluation.rule_set, step.evaluation.rows)
            for report_row, values in zip(step.evaluation.rows, new_rows, strict=True):
                pkz = values[2]
                had = stored.pop(pkz, None)
                if had != values[3:]:
                    reported.add(report_row.pid)
                    if had is not None:
                        stale_reports.append((tid, version, pkz))
            stale_reports += [(tid, version, pkz) for pkz in stored]  # no longer reported
        fresh[step.key] = (history, reported)
    store.delete_rows(session, HistoryRow.__table__, _HISTORY_KEY, stale_history)  # type: ignore[arg-type]
    store.delete_rows(session, Evaluation.__table__, _EVALUATION_KEY, stale_reports)  # type: ignore[arg-type]
    return fresh
