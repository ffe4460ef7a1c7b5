"""Role boundaries: the public never sees a birth date; a club token sees its own members'
non-public fields and no other club's; a referee those of his region; an admin everything.
Bad, revoked and malformed tokens are refused with 401, the wrong role with 403."""

from __future__ import annotations

import pytest

from tests.api.world import MEMBERSHIPS, NAMES, REPLAY, World

BIRTH_YEARS = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}


def _current_clubs(pid: str) -> list[str]:
    return [club for club, _, _, until in MEMBERSHIPS.get(pid, []) if until is None]


def _sees(token: str | None, pid: str) -> bool:
    """Who may see a player's non-public fields, from the world's tokens and memberships."""
    scopes = {"admin": "", "referee_c": "C", "referee_d": "D"}
    clubs = _current_clubs(pid)
    if token is None:
        return False
    if token in scopes:
        return token == "admin" or any(c.startswith(scopes[token]) for c in clubs)
    return token.removeprefix("club_").upper() in clubs


TOKENS = [None, "admin", "referee_c", "referee_d", "club_c0327", "club_d0001"]


@pytest.mark.parametrize("token", TOKENS)
def test_birth_dates_on_the_player_card(world: World, token: str | None) -> None:
    for pid in NAMES:
        card = world.get(f"/players/{world.pkz[pid]}", token).json()
        visible = _sees(token, pid)
        assert card["private_fields_visible"] is visible, (token, pid)
        year = BIRTH_YEARS.get(pid)
        assert card["birth_date"] == (f"{year}-05-17" if visible and year else None), (token, pid)
        assert card["birth_year"] == year  # the birth year is public


@pytest.mark.parametrize("token", TOKENS)
def test_birth_dates_in_the_club_list(world: World, token: str | None) -> None:
    for club in ("C0327", "D0001"):
        answer = world.get(f"/clubs/{club}/ratings", token).json()
        assert answer["items"]
        for member in answer["items"]:
            pid = world.pid[member["pkz"]]
            visible = token == "admin" or (_sees(token, pid) and club in _current_clubs(pid))
            assert member["private_fields_visible"] is visible, (token, club, pid)
            assert (member["birth_date"] is not None) == (visible and BIRTH_YEARS.get(pid) is not None)


def test_public_lists_never_carry_birth_dates(world: World) -> None:
    for path in ("/players", "/ratings/top"):
        for item in world.get(path, "admin").json()["items"]:
            assert "birth_date" not in item


@pytest.mark.parametrize(
    ("token", "role", "scope"),
    [(None, "public", None), ("admin", "admin", None), ("referee_c", "referee", "C"), ("club_d0001", "club", "D0001")],
)
def test_me(world: World, token: str | None, role: str, scope: str | None) -> None:
    me = world.get("/me", token).json()
    assert (me["role"], me["scope"]) == (role, scope)
    assert (me["token_prefix"] is None) == (token is None)
    if token is not None:
        assert world.tokens[token].startswith(me["token_prefix"])


@pytest.mark.parametrize(
    "header",
    ["Bearer zdb_unknown", "Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "zdb_no_scheme"],
)
def test_bad_credentials_are_refused(world: World, header: str) -> None:
    answer = world.client.get("/api/v1/players", headers={"Authorization": header})
    assert answer.status_code == 401
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.headers["www-authenticate"].startswith("Bearer")
    assert answer.json()["type"].endswith("/unauthorized")


def test_a_revoked_token_is_refused(world: World) -> None:
    answer = world.get("/clubs/C0327/ratings", "revoked")
    assert answer.status_code == 401 and "revoked" in answer.json()["detail"]


def test_the_audit_log_is_for_admins(world: World) -> None:
    log = world.get("/audit-log", "admin").json()
    actions = [entry["action"] for entry in log["items"]]
    assert sorted(actions) == sorted(["token.create"] * len(world.tokens) + ["token.revoke"])
    assert log["total"] == len(actions)
    assert world.get("/audit-log", "admin", action="token.revoke").json()["total"] == 1
    for token in ("referee_c", "club_c0327"):
        refused = world.get("/audit-log", token)
        assert refused.status_code == 403 and refused.json()["type"].endswith("/forbidden")
    assert world.get("/audit-log").status_code == 401
