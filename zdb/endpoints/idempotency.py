"""The ``Idempotency-Key`` header: a retried write is answered with the first answer.

Why: an upload that timed out on the referee's side may well have been stored; retrying it
must not store the tournament a second time. The key (any text up to 200 characters, chosen by
the client, a UUID is usual) is kept per token with a SHA-256 of the request (method, path,
query, body) and the first answer; it is stored in the request's own transaction, so a refused
request (4xx, rolled back) leaves no key and may be retried as it is. The key is taken before
the work is done, so two concurrent twins store the tournament once. The same key with another
request is a conflict (409): the client reused a key by mistake.

Keys expire: a key is remembered for a window (``Settings.idempotency_key_hours``, 24 hours by
default: far longer than any retry of an upload, as long as the usual HTTP APIs keep theirs).
After it the key is forgotten, whether or not its row was deleted yet: a request under it is
a new request. The rows are deleted by the token's next keyed write (its own rows only, so
that writers of different tokens never wait on each other's deletions) and, for every token,
by the worker's beat (``forget_expired_keys``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.db import is_postgres
from zdb.endpoints.idempotency_models import IdempotencyKey
from zdb.errors import ConflictError, ValidationError, ValidationProblem

__all__ = [
    "MAX_KEY_LENGTH",
    "StoredAnswer",
    "claim",
    "forget_expired_keys",
    "recall",
    "remember",
    "request_hash",
]

MAX_KEY_LENGTH = 200


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    status: int
    body: dict[str, Any]
    location: str | None
    #: the tournament the first answer stored or corrected (None for an answer not kept yet)
    tournament_id: int | None = None


def request_hash(method: str, path: str, query: str, body: bytes | dict[str, Any]) -> str:
    """SHA-256 of the request; a JSON body is hashed in a canonical form (key order and spacing
    do not make a retry a different request)."""
    data = body if isinstance(body, bytes) else json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), query.encode(), data):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _check(key: str) -> None:
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ValidationError(
            [ValidationProblem("header.Idempotency-Key", f"must have 1 to {MAX_KEY_LENGTH} characters")]
        )


def recall(session: Session, principal: Principal, key: str, digest: str) -> StoredAnswer | None:
    """The first answer given under ``key``; None for a new key. Another request under the
    same key is refused (409). Call ``forget_expired_keys`` first: an expired row is no answer."""
    _check(key)
    assert principal.token_id is not None  # writes need a token
    row = session.get(IdempotencyKey, (principal.token_id, key))
    if row is None:
        return None
    if row.request_hash != digest:
        raise ConflictError(f"the Idempotency-Key {key!r} was used for a different request")
    return StoredAnswer(row.status, row.body, row.location, row.tournament_id)


def forget_expired_keys(session: Session, window: timedelta, *, token_id: int | None = None) -> int:
    """Delete the keys older than ``window`` (of one token, or of all); how many were deleted."""
    statement = delete(IdempotencyKey).where(IdempotencyKey.created_at < datetime.now(UTC) - window)
    if token_id is not None:
        statement = statement.where(IdempotencyKey.token_id == token_id)
    deleted = session.execute(statement, execution_options={"synchronize_session": False})
    return int(getattr(deleted, "rowcount", 0) or 0)


def claim(session: Session, principal: Principal, key: str, digest: str, *, window: timedelta) -> StoredAnswer | None:
    """The first answer under ``key`` within ``window``, or None after taking the key for this
    request (the token's expired keys are deleted first).

    The key's row is written before the work is done, so that a concurrent twin of this request
    waits on it (PostgreSQL's unique index) until this one commits, and is then answered with
    this one's answer instead of storing the tournament again. SQLite serialises writers anyway.
    """
    _check(key)
    forget_expired_keys(session, window, token_id=principal.token_id)
    first = recall(session, principal, key, digest)
    if first is not None:
        return first
    row = IdempotencyKey(token_id=principal.token_id, key=key, request_hash=digest, status=0, body={})
    if not is_postgres(session):
        session.add(row)
        session.flush()
        return None
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        first = recall(session, principal, key, digest)  # the twin has committed meanwhile
        if first is None:  # pragma: no cover - the twin's row is visible once its commit let us go on
            raise ConflictError(f"a request with the Idempotency-Key {key!r} is in progress") from None
        return first
    return None


def remember(
    session: Session,
    principal: Principal,
    key: str,
    answer: StoredAnswer,
    *,
    tournament_id: int | None = None,
) -> None:
    """Keep the answer under the key taken by ``claim``."""
    row = session.get(IdempotencyKey, (principal.token_id, key))
    assert row is not None
    row.status, row.body, row.location, row.tournament_id = answer.status, answer.body, answer.location, tournament_id
    session.flush()
