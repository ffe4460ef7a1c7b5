"""The one writer of the audit log. Every entry has one shape of detail: ``by`` (the label of
the caller's token, kept in the entry so that it still reads as it was when the label changes),
``before`` and ``after`` (the values a write changed, as JSON values, or None), and more fields
that say what the entry needs besides (the file, the list date, the version). Flushes, never
commits: an entry is part of its write's unit of work and rolls back with it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from zdb.audit.models import TOKEN_LABELS, AuditEntry
from zdb.bulk import copy_rows

__all__ = ["Entry", "changed_values", "record_entries", "record_entry"]

#: an entry of ``record_entries``: action, target, before, after, more
Entry = tuple[str, str, Mapping[str, Any] | None, Mapping[str, Any] | None, Mapping[str, Any]]

_OWN_FIELDS = ("by", "before", "after")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value.isoformat() if isinstance(value, date) else value


def changed_values(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields whose value changed, before and after, as JSON values."""
    keys = [k for k in after if before.get(k) != after[k]]
    return {k: _plain(before.get(k)) for k in keys}, {k: _plain(after[k]) for k in keys}


def _label(session: Session, token_id: int | None) -> str | None:
    if token_id is None:
        return None
    return session.execute(select(TOKEN_LABELS.c.label).where(TOKEN_LABELS.c.id == token_id)).scalar_one_or_none()


def _detail(
    by: str | None, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, more: Mapping[str, Any]
) -> dict[str, Any]:
    clash = [name for name in _OWN_FIELDS if name in more]
    if clash:  # a programming error: the shape's own fields are never overwritten
        raise ValueError(f"an audit entry's more fields may not be named {', '.join(clash)}")
    return {
        "by": by,
        "before": None if before is None else {k: _plain(v) for k, v in before.items()},
        "after": None if after is None else {k: _plain(v) for k, v in after.items()},
        **{k: _plain(v) for k, v in more.items()},
    }


def record_entry(
    session: Session,
    token_id: int | None,
    action: str,
    target: str,
    *,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    **more: Any,
) -> AuditEntry:
    """Record one write (``token_id`` None: a write made at the command line, by no token)."""
    entry = AuditEntry(
        actor_token_id=token_id,
        action=action,
        target=target,
        detail=_detail(_label(session, token_id), before, after, more),
    )
    session.add(entry)
    session.flush()
    return entry


def record_entries(session: Session, token_id: int | None, entries: Iterable[Entry]) -> None:
    """Record the entries of one write of many rows (a list import) in one COPY, all by one
    caller."""
    by = _label(session, token_id)
    rows = (
        (token_id, action, target[:200], _detail(by, before, after, more))
        for action, target, before, after, more in entries
    )
    table: Table = AuditEntry.__table__  # type: ignore[assignment]
    copy_rows(session, table, ("actor_token_id", "action", "target", "detail"), rows)
