"""A page client signed in with one of the world's tokens (the referees' sign-in, which staff
use too), and the audit log's actions on a target: what the staff and referee page tests share."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.api.world import World
from tests.web.same_site import SAME_SITE
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work

__all__ = ["audit_actions", "signed_in"]


def signed_in(world: World, token: str = "referee_c") -> TestClient:
    client = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    answer = client.post("/referee/sign-in", data={"token": world.tokens[token], "next": "/referee"})
    assert answer.status_code == 303, answer.text
    return client


def audit_actions(world: World, target: str) -> list[str]:
    """The actions audited on ``target``, oldest first."""
    with unit_of_work(engine_for(world.url)) as session:
        query = select(AuditEntry.action).where(AuditEntry.target == target).order_by(AuditEntry.id)
        return list(session.scalars(query))
