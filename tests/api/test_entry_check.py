"""The entry check for organisers (issue 35, item 7): one call with an entry list, per entry
known, member or guest at the start date, rated, current DWZ; by person number, club code +
membership number, or name + birth date (the date compared only inside the token's scope).
On PostgreSQL and SQLite."""

from __future__ import annotations

from typing import Any

from tests.api.test_submissions import _headers
from tests.api.world import World


def _check(world: World, token: str | None, start: str, *entries: dict[str, Any]) -> Any:
    return world.client.post(
        "/api/v1/entry-check", json={"start_date": start, "entries": list(entries)}, headers=_headers(world, token)
    )


def _card(world: World, pid: str) -> Any:
    return world.client.get(f"/api/v1/players/{world.pkz[pid]}").json()


def test_each_entry_known_member_or_guest_rated_and_its_dwz(fresh: World) -> None:
    anna, hanna = _card(fresh, "A"), _card(fresh, "H")
    born = f"{anna['birth_year']}-05-17"  # the world's birth dates: 17 May of the year
    answer = _check(
        fresh,
        "referee_c",
        "2026-12-01",
        {"pkz": fresh.pkz["A"]},
        {"club": "C0327", "member_no": 2},
        {"surname": "Müller", "given_name": "Anna", "birth_date": born},
        {"pkz": 999999999},
        {"pkz": fresh.pkz["G"]},
        {"surname": "Niemand"},
        {"club": "D0001", "member_no": 9},
    )
    assert answer.status_code == 200, answer.text
    rows = answer.json()
    assert [r["entry"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    first = rows[0]
    assert (first["known"], first["pkz"], first["member"], first["club"]) == (True, fresh.pkz["A"], True, "C0327")
    assert (first["rated"], first["dwz"], first["dwz_index"]) == (
        anna["rating"] is not None,
        anna["rating"],
        anna["rating_index"],
    )
    assert rows[1]["pkz"] == fresh.pkz["B"] and rows[1]["member"] is True
    assert rows[2]["pkz"] == fresh.pkz["A"]
    assert rows[3]["known"] is False and rows[3]["pkz"] is None
    assert (rows[4]["known"], rows[4]["member"], rows[4]["club"]) == (True, False, None)  # Gerd: a guest
    assert rows[5]["known"] is False and "no identification" in rows[5]["note"]
    assert rows[6]["known"] is False  # Hanna's number 9 of SV Delta ended in 2020
    # on a start date in 2020 she held it (and her membership of SK Musterstadt, the older by id)
    then = _check(fresh, "referee_c", "2020-06-01", {"club": "D0001", "member_no": 9}).json()[0]
    assert (then["pkz"], then["member"], then["dwz"]) == (fresh.pkz["H"], True, hanna["rating"])
    # before any membership of hers began she was a guest
    before = _check(fresh, "referee_c", "2009-06-01", {"pkz": fresh.pkz["H"]}).json()[0]
    assert (before["known"], before["member"], before["club"]) == (True, False, None)


def test_a_birth_date_is_compared_only_inside_the_tokens_scope(fresh: World) -> None:
    year = _card(fresh, "A")["birth_year"]
    wrong = {"surname": "Müller", "given_name": "Anna", "birth_date": f"{year}-01-01"}
    inside = _check(fresh, "referee_c", "2026-12-01", wrong).json()[0]
    assert inside["known"] is False
    outside = _check(fresh, "referee_d", "2026-12-01", wrong).json()[0]
    assert outside["known"] is True and outside["pkz"] == fresh.pkz["A"]  # by name and year alone


def test_bounds_and_tokens(fresh: World) -> None:
    assert _check(fresh, None, "2026-12-01", {"pkz": fresh.pkz["A"]}).status_code == 401
    assert _check(fresh, "club_c0327", "2026-12-01", {"pkz": fresh.pkz["A"]}).status_code == 200
    many = [{"pkz": fresh.pkz["A"]}] * 1001
    assert _check(fresh, "admin", "2026-12-01", *many).status_code == 422
    assert _check(fresh, "admin", "2026-12-01").status_code == 422  # no entries
    assert _check(fresh, "admin", "2026-13-01", {"pkz": fresh.pkz["A"]}).status_code == 422
    assert _check(fresh, "admin", "2026-12-01", {"pkz": fresh.pkz["A"], "rating": 2000}).status_code == 422
