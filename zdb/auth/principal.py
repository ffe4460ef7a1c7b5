"""Who is asking, and what that allows: the one place where roles and scopes are interpreted.

``admin`` may do everything; a ``referee`` acts in a federation subtree (every club whose code
starts with his scope); a ``club`` token sees its own club's members with their non-public
fields; the public (no token) reads public data only. Club codes are the key of every scope.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.messages import Message

__all__ = ["PUBLIC", "Principal"]


@dataclass(frozen=True, slots=True)
class Principal:
    role: str  # "public", "admin", "referee" or "club"
    scope: str | None = None  # club-code prefix (referee) or club code (club)
    token_id: int | None = None
    token_prefix: str | None = None

    def covers(self, club_code: str) -> bool:
        """Whether a club (or a federation, by its prefix) lies inside this caller's scope: its
        members' non-public fields, a referee's tournaments."""
        if self.role == "admin":
            return True
        if self.role == "referee":
            assert self.scope is not None
            return club_code.startswith(self.scope)
        if self.role == "club":
            return club_code == self.scope
        return False

    def sees_private(self, club_codes: Iterable[str]) -> bool:
        """Whether a player's non-public fields (full birth date) are visible: to an admin
        always, otherwise only when one of his current clubs lies in the caller's scope."""
        return self.role == "admin" or any(self.covers(code) for code in club_codes)

    def require(self, *roles: str) -> None:
        """Refuse a caller without one of ``roles``: 401 without a token, 403 with another role."""
        if self.role in roles:
            return
        wanted = " or ".join(roles)
        if self.role == "public":
            raise AuthenticationError(f"this needs a token with the role {wanted}")
        raise PermissionDeniedError(
            Message("this needs the role {wanted}; the token's role is {role}", wanted=wanted, role=self.role)
        )


PUBLIC = Principal("public")
