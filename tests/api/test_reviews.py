"""Review by the responsible rating officer (issue 35, item 3): with the federation's rule off a
submission is stored at once (today's behaviour); with it on, the submission waits, nothing of it
is evaluated, the officer sees its preview and impact, approves (then it is stored and
evaluated) or rejects it with a reason the referee reads; two decisions at once, one wins; a
correction waits too while the approved version stays evaluated; trusted referees may be
exempt. On PostgreSQL and SQLite."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select, update

from tests.api.test_submissions import _body, _engine_rows, _headers, _post, _report_rows
from tests.api.world import World
from tests.db.scenario import differences, recalc
from zdb.auth.principal import Principal
from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work
from zdb.errors import ConflictError
from zdb.players.models import Player
from zdb.reviews import service
from zdb.timeline.models import PlayerRating
from zdb.tournaments.models import TournamentRecord, TournamentVersion

OFFICER = "Olga Offizier"


def _admin_put(world: World, path: str, body: dict[str, Any]) -> Any:
    answer = world.client.put(f"/api/v1{path}", json=body, headers=_headers(world, "admin"))
    assert answer.status_code == 200, answer.text
    return answer.json()


def _officer(world: World, prefix: str = "C", name: str = OFFICER) -> tuple[int, dict[str, str]]:
    """A referee's token for region C's officer, named the region's officer; (token id, headers)."""
    with unit_of_work(engine_for(world.url)) as session:
        made = create_token(session, "referee", prefix, label=f"officer {prefix}")
        token_id, secret = made.token.id, made.secret
    _admin_put(
        world, f"/federations/{prefix}/officer", {"name": name, "email": "olga@example.org", "token_id": token_id}
    )
    return token_id, {"Authorization": f"Bearer {secret}"}


def _review_on(world: World, prefix: str = "C", **more: Any) -> None:
    _admin_put(world, f"/federations/{prefix}/review", {"review": "required", **more})


def _tournaments_named(world: World, acronym: str) -> int:
    with unit_of_work(engine_for(world.url)) as session:
        return session.execute(
            select(func.count()).select_from(TournamentVersion).where(TournamentVersion.acronym == acronym)
        ).scalar_one()


def _ratings(world: World) -> dict[int, tuple[int | None, int | None]]:
    with unit_of_work(engine_for(world.url)) as session:
        return {r.player_pkz: (r.rating, r.rating_index) for r in session.scalars(select(PlayerRating))}


def _birth_year(world: World, pid: str) -> int | None:
    with unit_of_work(engine_for(world.url)) as session:
        player = session.get(Player, world.pkz[pid])
        assert player is not None
        return player.birth_year


def _steps(world: World, tid: int) -> list[tuple[str, str, str | None]]:
    states = world.client.get(f"/api/v1/tournaments/{tid}/states").json()
    return [(c["state"], c["by"], c["why"]) for c in states["history"]]


def test_with_the_rule_off_a_submission_is_stored_at_once(fresh: World) -> None:
    # region D asks for review; C says off explicitly: a C03 tournament is stored as today
    _review_on(fresh, "D")
    rule = _admin_put(fresh, "/federations/C/review", {"review": "off"})
    assert (rule["review"], rule["review_from"]) == ("off", "C")
    answer = _post(fresh, _body(fresh))
    assert answer.status_code == 201, answer.text
    assert fresh.client.get("/api/v1/federations/C03/review").json()["review"] == "off"
    assert fresh.client.get("/api/v1/federations/D/review").json()["review"] == "required"
    assert fresh.get("/reviews", "referee_c").json()["total"] == 0


def test_a_submission_waits_for_the_officer_and_is_evaluated_only_after_approval(fresh: World) -> None:
    _review_on(fresh)
    inherited = fresh.client.get("/api/v1/federations/C03/review").json()
    assert (inherited["review"], inherited["review_from"]) == ("required", "C")
    token_id, officer = _officer(fresh)
    before = _ratings(fresh)

    answer = _post(fresh, _body(fresh))
    assert answer.status_code == 202, answer.text
    held = answer.json()
    assert (held["state"], held["responsible"], held["responsible_officer"]) == ("waiting", "C", OFFICER)
    assert answer.headers["location"] == f"/api/v1/reviews/{held['review']}"
    review_id = held["review"]
    # nothing of it is a tournament, and a recalculation moves nobody
    assert _tournaments_named(fresh, "SUB") == 0
    assert recalc(fresh.url).evaluated == 0
    assert _ratings(fresh) == before

    # the referee's list: waiting; the other region's referee does not see it
    mine = fresh.get("/reviews", "referee_c").json()["items"]
    assert [(r["id"], r["state"], r["reason"]) for r in mine] == [(review_id, "waiting", None)]
    assert fresh.get("/reviews", "referee_d").json()["total"] == 0
    assert fresh.client.get(f"/api/v1/reviews/{review_id}", headers=_headers(fresh, "referee_d")).status_code == 404

    # the officer sees the preview and the impact
    detail = fresh.client.get(f"/api/v1/reviews/{review_id}", headers=officer)
    assert detail.status_code == 200, detail.text
    shown = detail.json()
    assert len(shown["preview"]["rows"]) == 4 and shown["players"] == 4 and shown["games"] == 6
    assert shown["impact"]["newcomers"] >= 1  # Nina Neumann had no rating

    # the referee does not decide his own submission; the officer does
    own = fresh.client.post(f"/api/v1/reviews/{review_id}/approve", headers=_headers(fresh, "referee_c"))
    assert own.status_code == 403, own.text
    approved = fresh.client.post(
        f"/api/v1/reviews/{review_id}/approve", json={"reason": "checked with the crosstable"}, headers=officer
    )
    assert approved.status_code == 200, approved.text
    tid = approved.json()["tournament_id"]
    assert approved.json()["state"] == "approved"
    officer_name = f"referee C (token {token_id})"
    assert _steps(fresh, tid) == [
        ("submitted", "referee C (token 2)", None),
        ("in_review", "referee C (token 2)", f"review {review_id}"),
        ("approved", officer_name, "checked with the crosstable"),
    ]
    # evaluated now, as the engine evaluates the stored version
    assert recalc(fresh.url).evaluated >= 1
    report = fresh.get(f"/tournaments/{tid}/evaluation").json()
    assert _report_rows(report) == _engine_rows(fresh.url, tid, 1)[1]
    assert [s[0] for s in _steps(fresh, tid)][-1] == "evaluated"
    assert differences(fresh.url) == []
    # a decided review is not decided again
    again = fresh.client.post(f"/api/v1/reviews/{review_id}/reject", json={"reason": "late"}, headers=officer)
    assert again.status_code == 409 and "approved" in again.json()["detail"]
    audit = fresh.get("/audit-log", "admin", action="review.approve").json()["items"]
    assert audit[0]["target"] == f"review {review_id}"


def test_a_rejection_needs_a_reason_which_the_referee_reads(fresh: World) -> None:
    _review_on(fresh)
    _, officer = _officer(fresh)
    review_id = _post(fresh, _body(fresh)).json()["review"]
    bare = fresh.client.post(f"/api/v1/reviews/{review_id}/reject", json={"reason": "  "}, headers=officer)
    assert bare.status_code == 422, bare.text
    reason = "round 3 was played on another day than the file says"
    rejected = fresh.client.post(f"/api/v1/reviews/{review_id}/reject", json={"reason": reason}, headers=officer)
    assert rejected.status_code == 200, rejected.text
    seen = fresh.get("/reviews", "referee_c", state="rejected").json()["items"]
    assert [(r["id"], r["state"], r["reason"]) for r in seen] == [(review_id, "rejected", reason)]
    assert _tournaments_named(fresh, "SUB") == 0
    late = fresh.client.post(f"/api/v1/reviews/{review_id}/approve", headers=officer)
    assert late.status_code == 409 and "rejected" in late.json()["detail"]


def test_two_officers_deciding_at_once_one_wins(fresh: World) -> None:
    _review_on(fresh)
    _, officer = _officer(fresh)
    review_id = _post(fresh, _body(fresh)).json()["review"]
    answers: list[int] = []
    with unit_of_work(engine_for(fresh.url)) as session:
        # the rating office approves in a transaction not yet committed ...
        service.approve(session, Principal("admin", token_id=1), review_id, by="admin (token 1)")

        def officer_rejects() -> None:
            answer = fresh.client.post(
                f"/api/v1/reviews/{review_id}/reject", json={"reason": "wrong file"}, headers=officer
            )
            answers.append(answer.status_code)

        rival = threading.Thread(target=officer_rejects)
        if engine_for(fresh.url).dialect.name == "postgresql":
            # ... the officer's decision waits for it (the review's row is locked) ...
            rival.start()
            rival.join(timeout=2)
            assert rival.is_alive() and answers == []
    if not rival.is_alive() and not answers:
        rival.start()  # SQLite: one writer at a time; the officer comes second
    rival.join()
    # ... and then finds the review approved: a conflict, nothing of his stored
    assert answers == [409]
    review = fresh.get(f"/reviews/{review_id}", "admin").json()
    assert (review["state"], review["reason"]) == ("approved", None)
    with unit_of_work(engine_for(fresh.url)) as session, pytest.raises(ConflictError):
        service.reject(session, Principal("admin", token_id=1), review_id, by="admin (token 1)", reason="no")


def test_a_correction_waits_while_the_approved_version_stays_evaluated(fresh: World) -> None:
    first = _post(fresh, _body(fresh))
    assert first.status_code == 201, first.text
    tid = first.json()["id"]
    assert recalc(fresh.url).clean
    report = fresh.get(f"/tournaments/{tid}/evaluation").json()
    _review_on(fresh)
    _, officer = _officer(fresh)
    body = _body(fresh, name="Herbstturnier (berichtigt)")
    body["games"][-1]["result"] = "0-1" if body["games"][-1]["result"] != "0-1" else "1-0"
    headers = _headers(fresh, "referee_c")
    held = fresh.client.put(f"/api/v1/tournaments/{tid}", json=body, headers=headers)
    assert held.status_code == 202, held.text
    assert held.json()["tournament_id"] == tid
    # a second correction waits for the decision on the first
    second = fresh.client.put(f"/api/v1/tournaments/{tid}", json=body, headers=headers)
    assert second.status_code == 409 and "waits in review" in second.json()["detail"]
    # the approved version stays evaluated meanwhile
    assert recalc(fresh.url).evaluated == 0
    meanwhile = fresh.get(f"/tournaments/{tid}/evaluation").json()
    assert {k: v for k, v in meanwhile.items() if k != "provisional"} == {
        k: v for k, v in report.items() if k != "provisional"
    }
    # marked provisional while its correction waits (issue 35, item 6)
    assert "in_review" in meanwhile["provisional"]["reasons"]
    assert "in_review" not in report["provisional"]["reasons"]
    with unit_of_work(engine_for(fresh.url)) as session:
        record = session.get(TournamentRecord, tid)
        assert record is not None and (record.current_version, record.evaluated_version) == (1, 1)
    states = fresh.client.get(f"/api/v1/tournaments/{tid}/states").json()
    assert states["state"] == "evaluated" and states["history"][-1]["state"] == "in_review"

    approved = fresh.client.post(f"/api/v1/reviews/{held.json()['review']}/approve", headers=officer)
    assert approved.status_code == 200, approved.text
    assert recalc(fresh.url).clean
    corrected = fresh.get(f"/tournaments/{tid}/evaluation").json()
    assert _report_rows(corrected) == _engine_rows(fresh.url, tid, 2)[1]
    assert [s[0] for s in _steps(fresh, tid)][-3:-1] == ["corrected", "approved"]
    assert differences(fresh.url) == []


def test_trusted_referees_may_be_exempt(fresh: World) -> None:
    _review_on(fresh, trusted_exempt=True)
    # not trusted yet: held
    assert _post(fresh, _body(fresh)).status_code == 202
    trust = fresh.client.put("/api/v1/tokens/2/trusted", headers=_headers(fresh, "admin"))
    assert trust.status_code == 204, trust.text
    # a club's token is no referee to trust
    club = fresh.client.put("/api/v1/tokens/4/trusted", headers=_headers(fresh, "admin"))
    assert club.status_code == 422
    stored = _post(fresh, _body(fresh, start_date="2026-10-09", end_date="2026-10-11", round_dates=[]))
    assert stored.status_code == 201, stored.text
    # where the federation does not exempt them, trusted referees wait too
    _review_on(fresh, trusted_exempt=False)
    held = _post(fresh, _body(fresh, start_date="2026-09-11", end_date="2026-09-13", round_dates=[]))
    assert held.status_code == 202, held.text
    # the rating office is never held
    office = _post(fresh, _body(fresh, start_date="2026-08-14", end_date="2026-08-16", round_dates=[]), "admin")
    assert office.status_code == 201, office.text


def test_a_withdrawal_closes_its_waiting_correction(fresh: World) -> None:
    tid = _post(fresh, _body(fresh)).json()["id"]
    _review_on(fresh)
    _, officer = _officer(fresh)
    headers = _headers(fresh, "referee_c")
    held = fresh.client.put(f"/api/v1/tournaments/{tid}", json=_body(fresh, name="B"), headers=headers)
    assert held.status_code == 202, held.text
    gone = fresh.client.delete(f"/api/v1/tournaments/{tid}", params={"reason": "never played"}, headers=headers)
    assert gone.status_code == 204, gone.text
    closed = fresh.get(f"/reviews/{held.json()['review']}", "referee_c").json()
    assert (closed["state"], closed["reason"]) == ("rejected", "the tournament was withdrawn: never played")
    late = fresh.client.post(f"/api/v1/reviews/{held.json()['review']}/approve", headers=officer)
    assert late.status_code == 409


def test_a_held_submission_learns_birth_years_and_answers_a_retry_only_when_approved(fresh: World) -> None:
    # Erik Weiß's record loses its birth year: the file teaches it, on approval only
    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(update(Player).where(Player.pkz == fresh.pkz["E"]).values(birth_year=None, birth_date=None))
    _review_on(fresh)
    _, officer = _officer(fresh)
    body = _body(fresh)
    body["players"][1] = {"pkz": fresh.pkz["E"], "birth_year": 1990}
    key = {"Idempotency-Key": "review-retry-1"}
    first = _post(fresh, body, **key)
    assert first.status_code == 202, first.text
    again = _post(fresh, body, **key)  # a retry: the same answer, nothing held twice
    assert (again.status_code, again.json()) == (202, first.json())
    assert fresh.get("/reviews", "admin").json()["total"] == 1
    assert _birth_year(fresh, "E") is None
    approved = fresh.client.post(f"/api/v1/reviews/{first.json()['review']}/approve", headers=officer)
    assert approved.status_code == 200, approved.text
    assert _birth_year(fresh, "E") == 1990
    assert fresh.get("/audit-log", "admin", action="player.learn").json()["items"][0]["target"] == (
        f"player {fresh.pkz['E']}"
    )
