"""The audit entry of an office change: who (the token and its label, kept in the entry so that
it still reads after the token is revoked), what, on which target, the values before and after."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken
from zdb.auth.principal import Principal
from zdb.auth.service import record_write

__all__ = ["changed_values", "record_change"]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value.isoformat() if isinstance(value, date) else value


def changed_values(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields whose value changed, before and after, as JSON values."""
    keys = [k for k in after if before.get(k) != after[k]]
    return {k: _plain(before.get(k)) for k in keys}, {k: _plain(after[k]) for k in keys}


def record_change(
    session: Session,
    caller: Principal,
    action: str,
    target: str,
    *,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    **more: Any,
) -> None:
    token = None if caller.token_id is None else session.get(ApiToken, caller.token_id)
    detail: dict[str, Any] = {
        "by": None if token is None else token.label,
        "before": None if before is None else {k: _plain(v) for k, v in before.items()},
        "after": None if after is None else {k: _plain(v) for k, v in after.items()},
    }
    detail.update({k: _plain(v) for k, v in more.items()})
    record_write(session, caller, action, target, detail)
