"""Two equal submissions waiting in review (issue 35, items 3 and 4): the second is refused when
it is sent (409, naming the held review), whatever its file format and whether it would wait or
be stored at once, as one equal to a stored tournament is; previews say the same. On PostgreSQL
and SQLite.

The JSON body, the TRF file and the Swiss-Chess file are the same tournament by construction
(the same four people, dates and games: ``tests.api.test_duplicate_tournaments``), so the known
answer — "the same" — is built here, not read from the code under test.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from tests.api.at_once import at_once
from tests.api.test_reviews import _officer, _review_on
from tests.api.test_submissions import _body, _counts, _german_trf, _headers, _post, _post_trf
from tests.api.test_swt_upload import _german_swt, _send
from tests.api.world import World
from zdb.db import engine_for, unit_of_work
from zdb.reviews.models import Review


def _held(answer: Any) -> int:
    assert answer.status_code == 202, answer.text
    return int(answer.json()["review"])


def _refused_naming(answer: Any, review_id: int) -> None:
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert f"review {review_id} " in detail and "waits in review already" in detail, detail


def _waiting(world: World) -> int:
    with unit_of_work(engine_for(world.url)) as session:
        return session.execute(select(func.count()).select_from(Review).where(Review.state == "waiting")).scalar_one()


def test_a_second_equal_submission_is_refused_naming_the_held_one(fresh: World) -> None:
    _review_on(fresh)
    first = _held(_post(fresh, _body(fresh)))
    before = _counts(fresh.url)
    # its newcomer was created when it arrived: each file finds the same four people
    for answer in (
        _post(fresh, _body(fresh)),
        _post(fresh, _body(fresh, acronym="XYZ", name="another name")),
        _post_trf(fresh, _german_trf(fresh)),
        _send(fresh, "POST", "/trf", _german_swt(fresh), form="Herbst.SWT"),
        # the rating office's submission is never held, and is refused all the same
        _post(fresh, _body(fresh), token="admin"),
    ):
        _refused_naming(answer, first)
    assert _counts(fresh.url) == before  # nothing stored, no newcomer, no audit entry
    assert _waiting(fresh) == 1


def test_previews_name_the_held_one(fresh: World) -> None:
    _review_on(fresh)
    first = _held(_post_trf(fresh, _german_trf(fresh)))
    json_preview = fresh.client.post(
        "/api/v1/tournaments/preview", json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    swt_preview = _send(fresh, "POST", "/preview/trf", _german_swt(fresh), form="Herbst.SWT")
    for answer in (json_preview, swt_preview):
        assert answer.status_code == 200, answer.text
        notes = [w["message"] for w in answer.json()["warnings"] if w["place"] == "tournament"]
        assert len(notes) == 1 and f"review {first} " in notes[0] and "would be refused" in notes[0], notes


def test_a_decided_review_no_longer_holds_its_content(fresh: World) -> None:
    _review_on(fresh)
    _, officer = _officer(fresh)
    first = _held(_post(fresh, _body(fresh)))
    rejected = fresh.client.post(f"/api/v1/reviews/{first}/reject", json={"reason": "wrong file"}, headers=officer)
    assert rejected.status_code == 200, rejected.text
    # rejected: the same tournament may be sent again, and waits again
    second = _held(_post(fresh, _body(fresh)))
    assert second != first
    approved = fresh.client.post(f"/api/v1/reviews/{second}/approve", headers=officer)
    assert approved.status_code == 200, approved.text
    # approved: now a stored tournament, refused by the stored-duplicate check, naming it
    again = _post(fresh, _body(fresh))
    assert again.status_code == 409 and f"tournament {approved.json()['tournament_id']} " in again.json()["detail"]


def test_two_equal_submissions_at_once_hold_one(fresh: World) -> None:
    _review_on(fresh)
    # four known people: no newcomer whose creation could decide the race instead
    body = _body(fresh, players=[{"pkz": fresh.pkz[pid]} for pid in "ABCD"])
    waiting = _waiting(fresh)
    answers = at_once(lambda: _post(fresh, body), lambda: _post(fresh, body))
    # one waits; the other is refused (by name after the lock on PostgreSQL, as a concurrent
    # change where only the unique keys tell: SQLite)
    assert sorted(a.status_code for a in answers) == [202, 409], [a.text for a in answers]
    assert _waiting(fresh) == waiting + 1
