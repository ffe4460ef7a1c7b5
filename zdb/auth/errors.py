"""The two errors of access control: no valid credentials (401) and the wrong role (403)."""

from __future__ import annotations

from zdb.errors import DomainError

__all__ = ["AuthenticationError", "PermissionDeniedError"]


class AuthenticationError(DomainError):
    """The request carries credentials that are malformed, unknown or revoked."""


class PermissionDeniedError(DomainError):
    """The caller is known, but his role or scope does not allow this."""
