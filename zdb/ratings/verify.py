"""``zdb verify``: recompute the whole time line in memory and compare it with every stored
figure: evaluation rows, history rows, current states. Pending changes count as differences:
until they are recalculated the database does not equal the from-scratch evaluation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.rating import CONVERSIONS, EMPTY_STATE, Event, Tournament, order_key, replay_steps
from zdb.ratings import repository as repo
from zdb.ratings.models import Evaluation, HistoryRow, PlayerRating
from zdb.tournaments import repository as tournaments

__all__ = ["verify"]

_EVALUATION_FIELDS = (
    "position", "rule_set", "member", "stage", "fide_start", "r0", "i0", "w", "n", "unrated_games", "we", "e", "k",
    "rh", "sonder", "rn", "i_new", "stored", "leftover_used", "leftover_stored",
)  # fmt: skip


def _expected(
    session: Session,
) -> tuple[dict[Any, tuple[Any, ...]], dict[Any, tuple[Any, ...]], dict[int, tuple[Any, ...]]]:
    initial = repo.load_initial_states(session)
    loaded = tournaments.load_tournaments(session)
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
    history = {
        (r.event_date, r.event_phase, r.event_text, r.event_id, r.player_pkz): (
            r.tournament_id,
            r.tournament_version,
            r.old_rating,
            r.old_index,
            r.old_leftover,
            r.new_rating,
            r.new_index,
            r.new_leftover,
            r.evaluated,
        )
        for r in session.execute(select(h)).scalars()
    }
    e = Evaluation
    evaluations = {
        (r.tournament_id, r.version, r.player_pkz): tuple(getattr(r, f) for f in _EVALUATION_FIELDS)
        for r in session.execute(select(e)).scalars()
    }
    current = {
        r.player_pkz: (r.rating, r.rating_index, r.leftover) for r in session.execute(select(PlayerRating)).scalars()
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
