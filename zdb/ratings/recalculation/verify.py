"""``zdb verify``: recompute the whole time line in memory and compare it with every stored
figure: evaluation rows, history rows, current states. Pending changes count as differences:
until they are recalculated the database does not equal the from-scratch evaluation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.bulk import stream_rows
from zdb.rating import CONVERSIONS, EMPTY_STATE, Event, Tournament, order_key, replay_steps
from zdb.ratings.models import HistoryRow, PlayerRating
from zdb.ratings.recalculation import repository as repo
from zdb.ratings.recalculation import tournament_loader
from zdb.tournaments import repository as tournaments

__all__ = ["verify"]


def _expected(
    session: Session,
) -> tuple[dict[Any, tuple[Any, ...]], dict[Any, tuple[Any, ...]], dict[int, tuple[Any, ...]]]:
    initial = repo.load_initial_states(session)
    loaded = tournament_loader.load_tournaments(session)
    events: list[Event] = [t for t, _ in loaded.values()]
    events += repo.load_start_ratings(session)
    events += CONVERSIONS
    history: dict[Any, tuple[Any, ...]] = {}
    evaluations: dict[Any, tuple[Any, ...]] = {}
    final = dict(initial)
    for step in replay_steps(initial, sorted(events, key=order_key)):
        final.update(step.outputs)
        version = loaded[step.key[3]][1] if isinstance(step.event, Tournament) else None
        for row in repo.history_rows(step, version):
            history[(*row[:4], row[4])] = row[5:]
        if step.evaluation is not None:
            assert version is not None
            for row in repo.evaluation_rows(step.key[3], version, step.evaluation.rule_set, step.evaluation.rows):
                evaluations[(row[0], row[1], row[2])] = row[3:]
    current = {
        int(pid): (s.rating, s.index, repo.encode_leftover(s.leftover)) for pid, s in final.items() if s != EMPTY_STATE
    }
    return history, evaluations, current


def _stored(
    session: Session,
) -> tuple[dict[Any, tuple[Any, ...]], dict[Any, tuple[Any, ...]], dict[int, tuple[Any, ...]]]:
    h = HistoryRow
    history_query = select(
        h.event_date,
        h.event_phase,
        h.event_text,
        h.event_id,
        h.player_pkz,
        h.tournament_id,
        h.tournament_version,
        h.old_rating,
        h.old_index,
        h.old_leftover,
        h.new_rating,
        h.new_index,
        h.new_leftover,
        h.evaluated,
    )
    history = {row[:5]: row[5:] for row in stream_rows(session, history_query)}
    evaluations = {row[:3]: row[3:] for row in stream_rows(session, select(*repo.EVALUATION_VALUES))}
    r = PlayerRating
    current = {
        row[0]: row[1:] for row in stream_rows(session, select(r.player_pkz, r.rating, r.rating_index, r.leftover))
    }
    return history, evaluations, current


def _compare(kind: str, expected: dict[Any, Any], stored: dict[Any, Any]) -> Iterator[str]:
    for key in sorted(expected.keys() | stored.keys(), key=repr):
        want, have = expected.get(key), stored.get(key)
        if want != have:
            if want is None:
                yield f"{kind} {key}: stored but not expected: {have}"
            elif have is None:
                yield f"{kind} {key}: missing, expected {want}"
            else:
                yield f"{kind} {key}: stored {have}, expected {want}"


def verify(session: Session) -> list[str]:
    """Every difference between the stored results and a from-scratch evaluation."""
    differences = [
        f"tournament {p.id}: {'withdrawal' if p.withdrawn else f'version {p.current_version}'} not yet recalculated"
        for p in tournaments.pending_tournaments(session)
    ]
    differences += [
        f"start rating of {s.pid} on {s.date}: not yet recalculated" for s in repo.load_start_ratings(session, True)
    ]
    expected, stored = _expected(session), _stored(session)
    for kind, want, have in zip(("history", "evaluation", "current"), expected, stored, strict=True):
        differences += _compare(kind, want, have)
    return differences
