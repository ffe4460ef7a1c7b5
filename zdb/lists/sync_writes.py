"""Writes a planned sync (``zdb.lists.sync_plan``) in set-based statements: COPY (PostgreSQL)
or executemany for the new rows, one executemany per kind of change. Flushes, never commits.

Order matters for the one current holder of a membership number per club: memberships end
first, changed numbers are cleared before they are set (two people may swap numbers), and new
memberships come last.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Table, bindparam, update
from sqlalchemy.orm import Session

from zdb.audit.writer import Entry, record_entries
from zdb.bulk import copy_rows
from zdb.federations.models import Club, Federation
from zdb.lists.models import ListBaseline
from zdb.lists.sync_plan import Plan, search_name
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.models import StartRatingRow

__all__ = ["WRITE_STEPS", "write_sync"]

#: the steps ``write_sync`` reports (``progress(step, WRITE_STEPS)`` after each)
WRITE_STEPS = 7


def _table(model: Any) -> Table:
    table: Table = model.__table__
    return table


def _update(session: Session, table: Table, key: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    columns = [name for name in rows[0] if name != key]
    statement = (
        update(table)
        .where(table.c[key] == bindparam(f"b_{key}"))
        .values({name: bindparam(f"b_{name}") for name in columns})
    )
    session.connection().execute(statement, [{f"b_{name}": value for name, value in row.items()} for row in rows])


def write_sync(
    session: Session,
    plan: Plan,
    *,
    import_id: int | None,
    by: str,
    actor_token_id: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    def advance(step: int) -> None:
        if progress is not None:
            progress(step, WRITE_STEPS)

    copy_rows(session, _table(Federation), ("prefix", "name", "level", "parent_prefix"), plan.federations_new)
    _update(
        session,
        _table(Federation),
        "prefix",
        [{"prefix": p, "name": n, "level": lv, "parent_prefix": pa} for p, n, lv, pa in plan.federations_changed],
    )
    copy_rows(session, _table(Club), ("code", "name", "federation_prefix"), plan.clubs_new)
    renamed = [{"code": c, "name": n, "federation_prefix": p} for c, n, p in plan.clubs_changed]
    _update(session, _table(Club), "code", renamed)
    advance(1)
    numbers = create_players(
        session,
        [
            NewPlayer(
                surname=p.facts.surname,
                given_name=p.facts.given_name,
                birth_year=p.facts.birth_year,
                sex=p.facts.sex,
                fide_id=p.facts.fide_id,
                nation=p.facts.nation,
                external_id=p.external_id,
                pkz=p.number,
            )
            for p in plan.people_new
        ],
    )

    def pkz(ref: int) -> int:
        return ref if ref > 0 else numbers[-ref - 1]

    advance(2)
    _update(
        session,
        _table(Player),
        "pkz",
        [
            {
                "pkz": number,
                "surname": f.surname,
                "given_name": f.given_name,
                "search_name": search_name(f),
                "sex": f.sex,
                "birth_year": f.birth_year,
                "fide_id": f.fide_id,
                "nation": f.nation,
                "guest": f.guest,
            }
            for number, f, _ in plan.people_changed
        ],
    )
    _update(session, _table(Player), "pkz", [{"pkz": n, "external_id": e} for n, e in plan.people_linked])
    advance(3)
    memberships = _table(Membership)
    _update(session, memberships, "id", [{"id": m, "valid_until": day} for m, _, _, day in plan.memberships_ended])
    _update(session, memberships, "id", [{"id": m[0], "member_no": None} for m in plan.memberships_changed])
    _update(
        session, memberships, "id", [{"id": m[0], "member_no": m[3], "status": m[4]} for m in plan.memberships_changed]
    )
    copy_rows(
        session,
        memberships,
        ("player_pkz", "club_code", "member_no", "status", "valid_from"),
        ((pkz(ref), club, number, status, plan.list_date) for ref, club, number, status in plan.memberships_new),
    )
    advance(4)
    if plan.start_ratings:
        copy_rows(
            session,
            _table(StartRatingRow),
            ("player_pkz", "rating_date", "rating", "rating_index", "evaluated", "set_by"),
            ((pkz(ref), plan.list_date, rating, index, False, by[:100]) for ref, rating, index in plan.start_ratings),
        )
        mark_dirty(session, [(plan.list_date, 0, "", 0)])
    copy_rows(
        session,
        _table(ListBaseline),
        ("player_pkz", "epoch", "last_evaluation", "import_id"),
        ((pkz(ref), plan.list_date, week, import_id) for ref, week in plan.baselines),
    )
    advance(5)
    _audit(session, plan, by=by, actor_token_id=actor_token_id)
    advance(6)
    session.flush()
    advance(7)


def _audit(session: Session, plan: Plan, *, by: str, actor_token_id: int | None) -> None:
    """One entry for the import, one per changed person or membership (new rows are the import's
    own: the import's entry and their baseline name it)."""
    day = plan.list_date.isoformat()
    entries: list[Entry] = [
        (
            "list.import",
            plan.difference.file,
            None,
            None,
            {"list_date": day, "imported_by": by, **plan.difference.counts},
        )
    ]
    for number, after, before in plan.people_changed:
        names = [
            name
            for name in ("surname", "given_name", "sex", "birth_year", "fide_id", "nation", "guest")
            if getattr(before, name) != getattr(after, name)
        ]
        entries.append(
            (
                "list.person",
                f"player {number}",
                {name: getattr(before, name) for name in names},
                {name: getattr(after, name) for name in names},
                {"list_date": day},
            )
        )
    for number, external in plan.people_linked:
        entries.append(("list.link", f"player {number}", None, {"external_id": external}, {"list_date": day}))
    for membership_id, number, club, member_no, status, old_no, old_status in plan.memberships_changed:
        entries.append(
            (
                "list.membership",
                f"membership {membership_id} of {number}",
                {"member_no": old_no, "status": old_status},
                {"member_no": member_no, "status": status},
                {"list_date": day, "club": club},
            )
        )
    for membership_id, number, club, last_day in plan.memberships_ended:
        target = f"membership {membership_id} of {number}"
        entries.append(
            ("list.membership_end", target, None, {"valid_until": last_day}, {"list_date": day, "club": club})
        )
    record_entries(session, actor_token_id, entries)
