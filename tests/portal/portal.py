"""Helpers of the portal door's tests: its base address, a client of the token endpoint made
in a world's database, and a token taken through the endpoint."""

from __future__ import annotations

from typing import Any

from tests.api.world import World
from zdb.auth.portal_tokens import create_client
from zdb.db import engine_for, unit_of_work

RS = "/dsbwertungsportal/rs"


def make_client(world: World, client_id: str, scopes: list[str], vkz: str | None = None) -> str:
    """A new client of the token endpoint; its secret."""
    with unit_of_work(engine_for(world.url)) as session:
        return create_client(session, client_id, scopes, vkz).secret


def take_token(world: World, client_id: str, secret: str, scope: str) -> Any:
    return world.client.post(
        f"{RS}/auth/token",
        data={"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret, "scope": scope},
        headers={"Accept": "application/json"},
    )


def bearer(world: World, client_id: str, scopes: list[str], vkz: str | None = None) -> dict[str, str]:
    """The Authorization header of a fresh client's first token."""
    secret = make_client(world, client_id, scopes, vkz)
    answer = take_token(world, client_id, secret, " ".join(scopes))
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}
