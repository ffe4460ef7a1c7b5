"""The rating portal's tokens (OAuth2 client credentials): staff create and revoke clients, a
client takes a token with its id and secret and renews it with its refresh token; an API call
of the portal door is authenticated by the access token. Flushes, never commits.

The portal's rules (``client-interfaces.md`` §1.1): scopes ``dsb_tournament`` and
``dwz_liste``; a request fails unless every scope it asks for is granted to the client;
access tokens live 300 s; only the newest refresh token of a client is valid (a renewal issues a
new one and the old one is used up); 5 new tokens per client id per 30 minutes, renewals not
counted. The refusals carry the portal's texts byte for byte (``PortalTokenError``). Every issue
and every refusal of a known client is audited.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.portal_models import PortalClient, PortalToken
from zdb.auth.service import hash_secret
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem

__all__ = [
    "ACCESS_LIFETIME",
    "ISSUE_QUOTA",
    "ISSUE_WINDOW",
    "SCOPES",
    "IssuedToken",
    "NewClient",
    "PortalAccess",
    "PortalTokenError",
    "access_of",
    "create_client",
    "issue_token",
    "list_clients",
    "revoke_client",
]

SCOPES = ("dsb_tournament", "dwz_liste")
ACCESS_LIFETIME = timedelta(seconds=300)
ISSUE_QUOTA = 5
ISSUE_WINDOW = timedelta(minutes=30)
_CLIENT_ID = re.compile(r"[A-Za-z0-9._-]{3,64}")
_VKZ = re.compile(r"[0-9A-Za-z]{1,5}")

#: the portal's refusals: status, OAuth2 error code, text (byte-exact, clients compare it)
BAD_CREDENTIALS = (401, "invalid_client", "Bad client credentials")
WRONG_SCOPE = (403, "access_denied", "Wrong or no scope(s) provided")
TOO_MANY = (403, "access_denied", "Too much access tokens")
REFRESH_INVALID = (400, "invalid_grant", "Refresh Token already used or invalid")
UNSUPPORTED_GRANT = (400, "unsupported_grant_type", "Unsupported grant type")


class PortalTokenError(Exception):
    """A refused token request, as the portal answers it: ``{"error", "error_description"}``."""

    def __init__(self, refusal: tuple[int, str, str], *, known_client: bool = False) -> None:
        self.status, self.error, self.description = refusal
        #: the client id names a client (its secret or grant was wrong), not a guess
        self.known_client = known_client
        super().__init__(self.description)


@dataclass(frozen=True, slots=True)
class NewClient:
    client: PortalClient
    secret: str  # shown once; never stored


@dataclass(frozen=True, slots=True)
class IssuedToken:
    access_token: str
    refresh_token: str
    expires_in: int


@dataclass(frozen=True, slots=True)
class PortalAccess:
    """Who calls the portal door with a valid access token."""

    client_id: str
    scopes: frozenset[str]
    vkz: str | None


def _scopes(text: str) -> list[str]:
    return [scope for scope in text.split() if scope]


def create_client(
    session: Session, client_id: str, scopes: list[str], vkz: str | None = None, label: str = ""
) -> NewClient:
    """A new client with a random secret (returned once, stored hashed)."""
    problems = []
    if not _CLIENT_ID.fullmatch(client_id):
        problems.append(ValidationProblem("client_id", "3 to 64 letters, digits, '.', '_' or '-'"))
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if not scopes or unknown:
        problems.append(ValidationProblem("scope", f"one or more of {', '.join(SCOPES)}, got {' '.join(scopes)!r}"))
    if vkz is not None and not _VKZ.fullmatch(vkz):
        problems.append(ValidationProblem("vkz", f"a club-code prefix (1 to 5 letters or digits), got {vkz!r}"))
    if problems:
        raise ValidationError(problems)
    if session.execute(select(PortalClient.id).where(PortalClient.client_id == client_id)).first() is not None:
        raise ConflictError(f"the client id {client_id!r} exists already")
    secret = secrets.token_urlsafe(32)
    client = PortalClient(
        client_id=client_id,
        secret_hash=hash_secret(secret),
        scopes=" ".join(dict.fromkeys(scopes)),
        vkz=vkz,
        label=label,
    )
    session.add(client)
    session.flush()
    record_entry(
        session, None, "portal.client.create", f"portal client {client_id}", after={"scopes": client.scopes, "vkz": vkz}
    )
    return NewClient(client, secret)


def revoke_client(session: Session, client_id: str) -> PortalClient:
    """Revoke a client: its secret and every token it holds stop working."""
    client = session.execute(select(PortalClient).where(PortalClient.client_id == client_id)).scalar_one_or_none()
    if client is None:
        raise NotFoundError(f"no portal client has the id {client_id!r}")
    if client.revoked_at is not None:
        raise ConflictError(f"the portal client {client_id!r} was already revoked")
    client.revoked_at = datetime.now(UTC)
    session.flush()
    record_entry(session, None, "portal.client.revoke", f"portal client {client_id}")
    return client


def list_clients(session: Session) -> list[PortalClient]:
    return list(session.execute(select(PortalClient).order_by(PortalClient.id)).scalars())


def _refuse(
    session: Session, client: PortalClient | None, client_id: str, refusal: tuple[int, str, str]
) -> PortalTokenError:
    """The refusal, audited. An unknown client id is audited too: the log shows who tried."""
    record_entry(
        session,
        None,
        "portal.token.refuse",
        f"portal client {client_id[:64]}",
        status=refusal[0],
        reason=refusal[2],
        known_client=client is not None,
    )
    return PortalTokenError(refusal, known_client=client is not None)


def _client(session: Session, client_id: str, secret: str) -> PortalClient | None:
    """The active client with this id and secret, else None."""
    client = session.execute(select(PortalClient).where(PortalClient.client_id == client_id)).scalar_one_or_none()
    if client is None or client.revoked_at is not None:
        return None
    if not secrets.compare_digest(client.secret_hash, hash_secret(secret)):
        return None
    return client


def issue_token(
    session: Session,
    *,
    grant_type: str,
    client_id: str,
    client_secret: str,
    scope: str,
    refresh_token: str | None,
    now: datetime,
) -> IssuedToken:
    """A new access token and refresh token for the client, or ``PortalTokenError``. A refusal's
    audit entry is flushed before the error is raised: the caller commits it (a refusal writes
    nothing else)."""
    if grant_type not in ("client_credentials", "refresh_token"):
        raise _refuse(session, None, client_id, UNSUPPORTED_GRANT)
    client = _client(session, client_id, client_secret)
    if client is None:
        raise _refuse(session, None, client_id, BAD_CREDENTIALS)
    asked = _scopes(scope)
    granted = set(_scopes(client.scopes))
    if not asked or any(s not in granted for s in asked):
        raise _refuse(session, client, client_id, WRONG_SCOPE)
    t = PortalToken
    if grant_type == "refresh_token":
        previous = None
        if refresh_token:
            previous = session.execute(
                select(t).where(t.client_pk == client.id, t.refresh_hash == hash_secret(refresh_token), t.refresh_valid)
            ).scalar_one_or_none()
        if previous is None:
            raise _refuse(session, client, client_id, REFRESH_INVALID)
    else:
        issued = session.execute(
            select(func.count()).where(
                t.client_pk == client.id, t.grant_type == "client_credentials", t.issued_at > now - ISSUE_WINDOW
            )
        ).scalar_one()
        if issued >= ISSUE_QUOTA:
            raise _refuse(session, client, client_id, TOO_MANY)
    # Only the newest refresh token is valid: every older one of the client is used up now.
    session.execute(update(t).where(t.client_pk == client.id, t.refresh_valid).values(refresh_valid=False))
    access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    session.add(
        PortalToken(
            client_pk=client.id,
            access_hash=hash_secret(access),
            refresh_hash=hash_secret(refresh),
            refresh_valid=True,
            grant_type=grant_type,
            scopes=" ".join(dict.fromkeys(asked)),
            issued_at=now,
            expires_at=now + ACCESS_LIFETIME,
        )
    )
    session.flush()
    record_entry(
        session, None, "portal.token.issue", f"portal client {client_id}", grant_type=grant_type, scope=" ".join(asked)
    )
    return IssuedToken(access, refresh, int(ACCESS_LIFETIME.total_seconds()))


def access_of(session: Session, access_token: str, now: datetime) -> PortalAccess | None:
    """The client behind a valid access token (not expired, client not revoked), else None."""
    t, c = PortalToken, PortalClient
    row = session.execute(
        select(c.client_id, c.vkz, t.scopes)
        .join(c, c.id == t.client_pk)
        .where(t.access_hash == hash_secret(access_token), t.expires_at > now, c.revoked_at.is_(None))
    ).first()
    if row is None:
        return None
    return PortalAccess(row.client_id, frozenset(_scopes(row.scopes)), row.vkz)
