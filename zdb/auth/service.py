"""Use cases on API tokens: create (the secret is returned once), revoke, authenticate, and
recording a write in the audit log. Flushes, never commits.

A token is ``zdb_`` followed by 32 random bytes, URL-safe base64. Only its SHA-256 is stored;
its first characters are kept as a prefix, so that a token can be named in lists and revoked
without being known.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth import token_queries
from zdb.auth.errors import AuthenticationError
from zdb.auth.models import ROLES, ApiToken
from zdb.auth.principal import Principal
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Club

__all__ = [
    "PREFIX_LENGTH",
    "TOKEN_MARK",
    "NewToken",
    "authenticate",
    "create_token",
    "hash_secret",
    "revoke_token",
    "token_standing",
]

TOKEN_MARK = "zdb_"
#: characters of the token kept for display: the mark and 8 random characters
PREFIX_LENGTH = len(TOKEN_MARK) + 8
_SCOPE = re.compile(r"[0-9A-Za-z]{1,5}")


@dataclass(frozen=True, slots=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once; never stored


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _check_scope(session: Session, role: str, scope: str | None) -> list[ValidationProblem]:
    if role not in ROLES:
        return [ValidationProblem("role", f"must be one of {', '.join(ROLES)}, got {role!r}")]
    if role == "admin":
        return [] if scope is None else [ValidationProblem("scope", "an admin token has no scope")]
    if scope is None or not _SCOPE.fullmatch(scope):
        what = "a club-code prefix" if role == "referee" else "a club code"
        return [ValidationProblem("scope", f"a {role} token needs {what} (1 to 5 letters or digits), got {scope!r}")]
    if role == "club" and session.get(Club, scope) is None:
        return [ValidationProblem("scope", f"no club has the code {scope!r}")]
    return []


def create_token(session: Session, role: str, scope: str | None = None, label: str = "") -> NewToken:
    problems = _check_scope(session, role, scope)
    if problems:
        raise ValidationError(problems)
    secret = TOKEN_MARK + secrets.token_urlsafe(32)
    token = ApiToken(
        prefix=secret[:PREFIX_LENGTH], secret_hash=hash_secret(secret), role=role, scope=scope, label=label
    )
    session.add(token)
    session.flush()
    record_entry(session, None, "token.create", f"token {token.id}", after={"role": role, "scope": scope})
    return NewToken(token, secret)


def revoke_token(session: Session, prefix_or_id: str) -> ApiToken:
    """Revoke the token with this id or display prefix (an ambiguous prefix is refused)."""
    if prefix_or_id.isdigit():
        found = session.get(ApiToken, int(prefix_or_id))
        candidates = [] if found is None else [found]
    else:
        candidates = token_queries.tokens_by_prefix(session, prefix_or_id)
    if not candidates:
        raise NotFoundError(f"no token has the id or prefix {prefix_or_id!r}")
    if len(candidates) > 1:
        ids = ", ".join(str(t.id) for t in candidates)
        raise ConflictError(f"the prefix {prefix_or_id!r} names several tokens ({ids}): revoke by id")
    (token,) = candidates
    if token.revoked_at is not None:
        raise ConflictError(f"token {token.id} was already revoked")
    token.revoked_at = datetime.now(UTC)
    session.flush()
    record_entry(session, None, "token.revoke", f"token {token.id}")
    return token


def token_standing(session: Session, secret: str) -> str:
    """``valid``, ``revoked`` or ``unknown``: what a sign-in with ``secret`` would find."""
    token = token_queries.token_by_hash(session, hash_secret(secret))
    if token is None:
        return "unknown"
    return "revoked" if token.revoked_at is not None else "valid"


def authenticate(session: Session, secret: str) -> Principal:
    token = token_queries.token_by_hash(session, hash_secret(secret))
    if token is None:
        raise AuthenticationError("the token is not known")
    if token.revoked_at is not None:
        raise AuthenticationError("the token was revoked")
    return Principal(token.role, token.scope, token.id, token.prefix)
