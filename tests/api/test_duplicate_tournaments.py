"""No tournament twice: the same tournament submitted again — as JSON, TRF or Swiss-Chess file,
through the API or the referee page — is refused (409) naming the stored one; one sharing most
of its games with a stored tournament of overlapping dates is refused until the referee
confirms; previews say the same; two equal submissions at once store one.

The three files are the same tournament by construction (``_body``, ``_german_trf`` and
``_german_swt`` of the submission tests: the same four people, dates and games), so the known
answer — "the same" — is built here, not read from the code under test.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from tests.api.at_once import at_once
from tests.api.test_submissions import _body, _counts, _games, _german_trf, _headers, _post, _post_trf
from tests.api.test_swt_upload import _german_swt, _send
from tests.api.world import World
from tests.web.same_site import SAME_SITE
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.tournaments.models import TournamentFingerprint, TournamentRecord


def _live(url: str) -> int:
    with unit_of_work(engine_for(url)) as session:
        return session.execute(
            select(func.count()).select_from(TournamentRecord).where(TournamentRecord.status != "withdrawn")
        ).scalar_one()


def _stored(answer: Any) -> int:
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def _refused_naming(answer: Any, tournament_id: int) -> str:
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert f"tournament {tournament_id} " in detail, detail
    return str(detail)


def test_the_same_tournament_in_any_format_is_refused_naming_the_stored_one(fresh: World) -> None:
    first = _stored(_post(fresh, _body(fresh)))
    before = _counts(fresh.url)
    # The newcomer of the first submission is known now: each file finds the same four people.
    for answer in (
        _post(fresh, _body(fresh)),
        _post(fresh, _body(fresh, acronym="XYZ", name="another name", time_control="90 min + 30 s")),
        _post_trf(fresh, _german_trf(fresh)),
        _send(fresh, "POST", "/trf", _german_swt(fresh), form="Herbst.SWT"),
    ):
        assert "same players, dates and results" in _refused_naming(answer, first)
    assert _counts(fresh.url) == before  # nothing stored, no newcomer, no audit entry


def test_colours_swapped_are_the_same_games(fresh: World) -> None:
    first = _stored(_post(fresh, _body(fresh)))
    flipped = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}
    games = [{**g, "white": g["black"], "black": g["white"], "result": flipped[g["result"]]} for g in _games(4)]
    _refused_naming(_post(fresh, _body(fresh, games=games)), first)


def test_previews_say_the_same(fresh: World) -> None:
    first = _stored(_post_trf(fresh, _german_trf(fresh)))
    headers = _headers(fresh, "referee_c")
    json_preview = fresh.client.post("/api/v1/tournaments/preview", json=_body(fresh), headers=headers)
    swt_preview = _send(fresh, "POST", "/preview/trf", _german_swt(fresh), form="Herbst.SWT")
    for answer in (json_preview, swt_preview):
        assert answer.status_code == 200, answer.text
        notes = [w["message"] for w in answer.json()["warnings"] if w["place"] == "tournament"]
        assert len(notes) == 1 and f"tournament {first} " in notes[0] and "would be refused" in notes[0], notes


def test_sharing_most_games_needs_a_confirmation(fresh: World) -> None:
    live = _live(fresh.url) + 1
    first = _stored(_post(fresh, _body(fresh)))
    # The same weekend, one game's result changed: 5 of the 6 games shared, not equal.
    games = _games(4)
    games[0] = {**games[0], "result": "0-1" if games[0]["result"] != "0-1" else "1-0"}
    body = _body(fresh, games=games)
    preview = fresh.client.post("/api/v1/tournaments/preview", json=body, headers=_headers(fresh, "referee_c"))
    notes = [w["message"] for w in preview.json()["warnings"] if w["place"] == "tournament"]
    assert len(notes) == 1 and "shares 5 of 6 games" in notes[0] and "confirm_duplicate" in notes[0], notes
    detail = _refused_naming(_post(fresh, body), first)
    assert "shares 5 of 6 games" in detail and "confirm_duplicate=true" in detail
    assert _live(fresh.url) == live
    headers = _headers(fresh, "referee_c")
    confirm = {"confirm_duplicate": "true"}
    confirmed = fresh.client.post("/api/v1/tournaments", params=confirm, json=body, headers=headers)
    second = _stored(confirmed)
    assert second != first
    warned = [w for w in confirmed.json()["warnings"] if w["place"] == "confirm_duplicate"]
    assert len(warned) == 1 and f"tournament {first} " in warned[0]["message"]
    with unit_of_work(engine_for(fresh.url)) as session:
        entry = session.execute(
            select(AuditEntry).where(
                AuditEntry.action == "tournament.submit", AuditEntry.target == f"tournament {second}"
            )
        ).scalar_one()
        assert entry.detail is not None and "confirmed_duplicate" in entry.detail


def test_dates_apart_or_few_games_shared_are_other_tournaments(fresh: World) -> None:
    _stored(_post(fresh, _body(fresh)))
    # The same pairings and results four weeks earlier (a return match of the four): stored.
    later = _body(
        fresh, start_date="2026-10-09", end_date="2026-10-11", round_dates=["2026-10-09", "2026-10-10", "2026-10-11"]
    )
    _stored(_post(fresh, later))
    # The same weekend with two of the six games shared (every other result changed): stored.
    games = _games(4)
    other = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}
    games = [g if k in (0, 1) else {**g, "result": other[g["result"]]} for k, g in enumerate(games)]
    _stored(_post(fresh, _body(fresh, games=games)))


def test_a_correction_is_not_its_own_duplicate_and_a_withdrawn_one_is_no_longer_compared(fresh: World) -> None:
    headers = _headers(fresh, "referee_c")
    first = _stored(_post(fresh, _body(fresh)))
    corrected = fresh.client.put(f"/api/v1/tournaments/{first}", json=_body(fresh, name="corrected"), headers=headers)
    assert corrected.status_code == 200, corrected.text
    # Another tournament corrected into the first one's content is refused, naming the first.
    games = _games(4)
    games[0] = {**games[0], "result": "0-1" if games[0]["result"] != "0-1" else "1-0"}
    later = _body(fresh, games=games, start_date="2026-10-09", end_date="2026-10-11", round_dates=[])
    second = _stored(_post(fresh, later))
    _refused_naming(fresh.client.put(f"/api/v1/tournaments/{second}", json=_body(fresh), headers=headers), first)
    assert fresh.client.delete(f"/api/v1/tournaments/{first}", headers=headers).status_code == 204
    with unit_of_work(engine_for(fresh.url)) as session:
        kept = set(session.execute(select(TournamentFingerprint.tournament_id)).scalars())
    assert kept == {second}
    _stored(_post(fresh, _body(fresh)))  # withdrawn: it may be submitted again


def test_the_referee_page_refuses_the_same_tournament(fresh: World) -> None:
    live = _live(fresh.url) + 1
    first = _stored(_post_trf(fresh, _german_trf(fresh)))
    client = fresh.client
    client.headers.update(SAME_SITE)  # a form of this site's own pages
    signed = client.post(
        "/referee/sign-in", data={"token": fresh.tokens["referee_c"], "next": "/referee"}, follow_redirects=False
    )
    assert signed.status_code == 303, signed.text
    files = {"file": ("Herbst.SWT", _german_swt(fresh), "application/octet-stream")}
    form = {"acronym": "SWT", "federation": "C03", "action": "preview"}
    preview = client.post("/referee/upload", data=form, files=files, headers={"Accept-Language": "de"})
    assert preview.status_code == 200, preview.text
    assert f"Turnier {first} " in preview.text and "confirm_duplicate" not in preview.text
    key = re.search(r'name="key" value="([0-9a-f]+)"', preview.text)
    data = re.search(r'name="data" value="([^"]+)"', preview.text)
    assert key and data
    submit = {**form, "action": "submit", "key": key.group(1), "data": data.group(1), "filename": "Herbst.SWT"}
    answer = client.post("/referee/upload", data=submit, headers={"Accept-Language": "de"}, follow_redirects=False)
    assert answer.status_code == 409, answer.text
    assert f"Turnier {first} " in answer.text
    assert _live(fresh.url) == live


def test_two_equal_submissions_at_once_store_one(fresh: World) -> None:
    body, live = _body(fresh), _live(fresh.url) + 1
    answers = at_once(lambda: _post(fresh, body), lambda: _post(fresh, body))
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    assert _live(fresh.url) == live
