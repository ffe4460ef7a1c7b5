"""``zdb export``: a results file, the stored results in the vectors' ``expected`` format (order, final
states, history, reports), players and tournaments named as in the imported file."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.formats.rating_json import dump_state
from zdb.players.models import Player
from zdb.rating import CONVERSIONS, EMPTY_STATE, Event, StartRating, event_name, order_key
from zdb.timeline import stored_state
from zdb.timeline.models import Evaluation, HistoryRow, PlayerRating
from zdb.tournaments import engine_view

__all__ = ["export_results"]


def export_results(session: Session) -> dict[str, Any]:
    names = {r.pkz: r.external_id or str(r.pkz) for r in session.execute(select(Player.pkz, Player.external_id))}
    live = engine_view.load_tournaments(session)
    events: list[Event] = [t for t, _ in live.values()]
    events += stored_state.load_start_ratings(session)
    events += CONVERSIONS
    timeline = sorted(events, key=order_key)
    order = [
        f"start-rating:{names[int(event.pid)]}" if isinstance(event, StartRating) else event_name(event)
        for event in timeline
    ]

    current = {
        r.player_pkz: stored_state.state_from_columns(r.rating, r.rating_index, r.leftover)
        for r in session.execute(
            select(PlayerRating.player_pkz, PlayerRating.rating, PlayerRating.rating_index, PlayerRating.leftover)
        )
    }
    involved = {int(pid) for pid in stored_state.load_initial_states(session)}
    history: dict[str, list[dict[str, Any]]] = {}
    h = HistoryRow
    rows = session.execute(
        select(h).order_by(h.player_pkz, h.event_date, h.event_phase, h.event_text, h.event_id)
    ).scalars()
    for row in rows:
        involved.add(row.player_pkz)
        entry: dict[str, Any] = {}
        if row.event_phase == 1:
            entry = {"event": row.event_id, "date": row.event_date.isoformat(), "acronym": row.event_text}
        elif row.event_phase == 2:
            entry = {"event": row.event_text, "date": row.event_date.isoformat()}
        else:
            entry = {"event": f"start-rating:{names[row.player_pkz]}", "date": row.event_date.isoformat()}
        entry["old"] = [row.old_rating, row.old_index]
        entry["new"] = [row.new_rating, row.new_index]
        if row.event_phase == 1:
            entry["evaluated"] = row.evaluated
        history.setdefault(names[row.player_pkz], []).append(entry)

    reports: dict[str, list[dict[str, Any]]] = {}
    by_tournament: dict[int, list[Evaluation]] = {}
    for evaluation in session.execute(
        select(Evaluation).order_by(Evaluation.tournament_id, Evaluation.position)
    ).scalars():
        by_tournament.setdefault(evaluation.tournament_id, []).append(evaluation)
    for name in order:
        if isinstance(name, int) and name in by_tournament:
            reports[str(name)] = [_row(e, names) for e in by_tournament[name]]
    return {
        "order": order,
        "final_states": {
            names[p]: dump_state(current.get(p, EMPTY_STATE)) for p in sorted(involved, key=lambda p: names[p])
        },
        "history": history,
        "reports": reports,
    }


def _row(e: Evaluation, names: dict[int, str]) -> dict[str, Any]:
    return {
        "pid": names[e.player_pkz],
        "member": e.member,
        "stage": e.stage,
        "fide_start": e.fide_start,
        "r0": e.r0,
        "i0": e.i0,
        "W": float(e.w),
        "n": e.n,
        "unrated_games": e.unrated_games,
        "We": e.we,
        "E": e.e,
        "K": None if e.k is None else float(e.k),
        "Rh": e.rh,
        "sonder": e.sonder,
        "rn": e.rn,
        "i_new": e.i_new,
        "stored": e.stored,
        "leftover_used": e.leftover_used,
        "leftover_stored": e.leftover_stored,
    }
