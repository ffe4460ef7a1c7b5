"""What the API answers about the caller and the audit log."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from zdb.common.utc import UtcDateTime

__all__ = ["AuditEntryOut", "CallerOut"]


class CallerOut(BaseModel):
    role: Literal["public", "admin", "referee", "club"]
    scope: str | None = Field(description="club-code prefix (referee) or club code (club)", examples=["C03"])
    token_prefix: str | None = Field(description="the first characters of the token", examples=["zdb_Xa3k9QpL"])


class AuditEntryOut(BaseModel):
    id: int = Field(examples=[1])
    at: UtcDateTime = Field(examples=["2026-09-21T07:58:00Z"])
    actor_token_id: int | None = Field(description="null: a command on the server", examples=[3])
    action: str = Field(examples=["token.create"])
    target: str = Field(examples=["token 3"])
    detail: dict[str, Any] | None = Field(examples=[{"role": "referee", "scope": "C03"}])
