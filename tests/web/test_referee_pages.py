"""The referees' area without a browser: sign-in with a token in an HttpOnly cookie, an upload
with two errors refused with both lines and nothing stored, the fixed file previewed, submitted
once (a second click stores nothing), corrected and withdrawn, each write audited as through
the API. Each test has the world in a database of its own, on each backend."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.api.world import World, build_world
from tests.db.scenario import differences, recalc
from tests.web.html_text import rows_of, text_of
from tests.web.same_site import SAME_SITE
from tests.web.signed_in import signed_in as _signed_in
from tests.web.trf_files import good_trf, two_errors
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.tournaments.models import TournamentRecord

FIELDS = {"acronym": "HBT", "federation": "C03"}


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _upload(client: TestClient, text: str, **fields: str) -> Any:
    files = {"file": ("herbst.trf", text.encode(), "text/plain")}
    return client.post("/referee/upload", data={**FIELDS, "action": "preview", **fields}, files=files)


def _hidden(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', html))


def _count(url: str, model: Any) -> int:
    with unit_of_work(engine_for(url)) as session:
        return int(session.execute(select(func.count()).select_from(model)).scalar_one())


def test_sign_in_keeps_the_token_in_an_httponly_cookie(fresh: World) -> None:
    client = TestClient(fresh.client.app, follow_redirects=False, headers=SAME_SITE)
    assert client.get("/referee").headers["location"].startswith("/referee/sign-in")
    wrong = client.post("/referee/sign-in", data={"token": "zdb_nothing"})
    assert wrong.status_code == 401 and "unbekannt" in wrong.text
    club = client.post("/referee/sign-in", data={"token": fresh.tokens["club_c0327"]})
    assert club.status_code == 403
    revoked = client.post("/referee/sign-in", data={"token": fresh.tokens["revoked"]})
    assert revoked.status_code == 401
    answer = client.post("/referee/sign-in", data={"token": fresh.tokens["referee_c"], "next": "/referee"})
    assert answer.status_code == 303 and answer.headers["location"] == "/referee"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    home = client.get("/referee")
    assert home.status_code == 200 and "Turnierleiter für C" in home.text
    assert client.post("/referee/sign-out").status_code == 303
    assert client.get("/referee").status_code == 303


def test_two_errors_then_preview_submit_once_and_follow(fresh: World) -> None:
    client = _signed_in(fresh)
    tournaments = _count(fresh.url, TournamentRecord)
    broken, lines = two_errors(good_trf(fresh))
    refused = _upload(client, broken)
    assert refused.status_code == 422
    places = set(re.findall(r"<strong>Zeile (\d+)</strong>", refused.text))
    assert {str(n) for n in lines} <= places
    assert _count(fresh.url, TournamentRecord) == tournaments
    missing = _upload(client, good_trf(fresh), acronym="")
    assert missing.status_code == 422 and "acronym" in missing.text
    previewed = _upload(client, good_trf(fresh))
    assert previewed.status_code == 200, previewed.text
    api = fresh.client.post(
        "/api/v1/tournaments/preview/trf",
        params=FIELDS,
        content=good_trf(fresh).encode(),
        headers={"Authorization": f"Bearer {fresh.tokens['referee_c']}", "Content-Type": "text/plain"},
    ).json()
    shown = [(row[1], row[8]) for row in rows_of(previewed.text, "preview")]
    assert len(shown) == len(api["rows"]) == 4
    for (name, after), row in zip(shown, api["rows"], strict=True):
        assert name.startswith(row["name"])
        assert after == ("–" if row["rn"] is None else f"{row['rn']}-{row['i_new']}")
    assert _count(fresh.url, TournamentRecord) == tournaments
    form = {**_hidden(previewed.text), "action": "submit"}
    stored = client.post("/referee/upload", data=form)
    assert stored.status_code == 303
    again = client.post("/referee/upload", data=form)  # a second click
    assert again.headers["location"] == stored.headers["location"]
    assert _count(fresh.url, TournamentRecord) == tournaments + 1
    tid = int(stored.headers["location"].rsplit("/", 1)[1])
    with unit_of_work(engine_for(fresh.url)) as session:
        actions = session.execute(select(AuditEntry.action).where(AuditEntry.target == f"tournament {tid}")).all()
    assert [a for (a,) in actions] == ["tournament.submit"]
    waiting = client.get(f"/referee/tournaments/{tid}")
    assert "data-follow" in waiting.text and "eingegangen" in waiting.text
    assert recalc(fresh.url).clean
    done = client.get(f"/referee/tournaments/{tid}")
    assert "data-follow" not in done.text and "ausgewertet" in done.text
    report = fresh.get(f"/tournaments/{tid}/evaluation").json()
    changes = rows_of(done.text, "changes")
    assert len(changes) == len(report["rows"])
    for shown_row, row in zip(changes, report["rows"], strict=True):
        assert shown_row[0] == f"{row['surname']}, {row['given_name']}"
        assert shown_row[7] == ("–" if row["rn"] is None else f"{row['rn']}-{row['i_new']}")
    assert differences(fresh.url) == []


def test_correct_and_withdraw(fresh: World) -> None:
    client = _signed_in(fresh)
    previewed = _upload(client, good_trf(fresh))
    tid = int(
        client.post("/referee/upload", data={**_hidden(previewed.text), "action": "submit"})
        .headers["location"]
        .rsplit("/", 1)[1]
    )
    corrected_text = good_trf(fresh).replace("012 Herbstturnier", "012 Herbstturnier 2026")
    preview = _upload(client, corrected_text, tournament_id=str(tid))
    assert preview.status_code == 200 and _hidden(preview.text)["tournament_id"] == str(tid)
    corrected = client.post("/referee/upload", data={**_hidden(preview.text), "action": "submit"})
    assert corrected.headers["location"] == f"/referee/tournaments/{tid}"
    assert fresh.get(f"/tournaments/{tid}").json()["version"] == 2
    unconfirmed = client.post(f"/referee/tournaments/{tid}/withdraw", data={})
    assert unconfirmed.status_code == 422
    withdrawn = client.post(f"/referee/tournaments/{tid}/withdraw", data={"confirm": "yes"})
    assert withdrawn.status_code == 303
    assert fresh.get(f"/tournaments/{tid}").json()["status"] == "withdrawn"
    assert client.post(f"/referee/tournaments/{tid}/withdraw", data={"confirm": "yes"}).status_code == 409
    with unit_of_work(engine_for(fresh.url)) as session:
        actions = session.execute(
            select(AuditEntry.action).where(AuditEntry.target == f"tournament {tid}").order_by(AuditEntry.id)
        ).all()
    # The correction's preview is audited too, as through the API.
    assert [a for (a,) in actions] == [
        "tournament.submit",
        "tournament.preview",
        "tournament.correct",
        "tournament.withdraw",
    ]


def test_scope_json_and_foreign_forms(fresh: World) -> None:
    other = _signed_in(fresh, "referee_d")
    outside = _upload(other, good_trf(fresh))
    assert outside.status_code == 403
    client = _signed_in(fresh)
    bad_json = client.post(
        "/referee/upload",
        data={"action": "preview"},
        files={"file": ("t.json", b'{"acronym": "JSN", "federation": "C03", "players": [{"pkz": "x"}]}')},
    )
    assert bad_json.status_code == 422
    assert "body.end_date" in bad_json.text and "body.players[0].pkz" in bad_json.text
    foreign = client.post(
        "/referee/upload",
        data={**FIELDS, "action": "preview"},
        headers={"Origin": "https://elsewhere.example"},
        files={"file": ("t.trf", good_trf(fresh).encode())},
    )
    assert foreign.status_code == 403
    empty = client.post("/referee/upload", data={**FIELDS, "action": "preview"}, files={"file": ("t.trf", b"")})
    assert empty.status_code == 422


def test_preview_shows_the_warnings_and_a_correction_is_previewed_at_its_place(fresh: World) -> None:
    client = _signed_in(fresh)
    # good_trf names Bernd by person number without a birth date: his record's year is used, and
    # Anna's file gives a birth date her record knows; Carla has no GER line. The pairing of
    # round 1 loses its colours: the reader says which it took as white.
    text = good_trf(fresh)
    lines = text.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("001"))
    lines[first] = lines[first][:96] + " " + lines[first][97:]
    previewed = _upload(client, "\n".join(lines) + "\n")
    assert previewed.status_code == 200, previewed.text
    notices = previewed.text[previewed.text.index('class="notices"') :]
    assert f"Zeile {first + 1}" in notices[: notices.index("</ul>")]
    # Submitted, evaluated, then the same file previewed as its correction: the figures are the
    # stored ones (the stored version is not counted under the new one).
    tid = int(
        client.post("/referee/upload", data={**_hidden(previewed.text), "action": "submit"})
        .headers["location"]
        .rsplit("/", 1)[1]
    )
    recalc(fresh.url)
    again = _upload(client, "\n".join(lines) + "\n", tournament_id=str(tid))
    stored = fresh.get(f"/tournaments/{tid}/evaluation").json()["rows"]
    body = again.text[again.text.index('id="preview"') :]
    shown = {
        int(pkz): text_of(cells) for pkz, cells in re.findall(r'href="/players/(\d+)">.*?</th>(.*?)</tr>', body, re.S)
    }
    # Every player is known now (the newcomer was created by the submission).
    assert set(shown) == {row["pkz"] for row in stored}
    for row in stored:
        assert shown[row["pkz"]].startswith(f"{row['r0']}-{row['i0']}" if row["r0"] else "–"), shown


def test_a_name_spelt_otherwise_than_the_record_is_shown_beside_it(fresh: World) -> None:
    """Issue 31, point 1: a player found by his person number under another spelling (a typo, a
    married name) is shown with the file's spelling beside the record's; the page once answered
    500 here while the API's preview of the same file answered 200."""
    client = _signed_in(fresh)
    text = good_trf(fresh).replace("Mueller, Bernd", "Mueller, Bernt")  # player 2, named by person number
    previewed = _upload(client, text)
    assert previewed.status_code == 200, previewed.text
    shown = {row[1] for row in rows_of(previewed.text, "preview")}
    assert "Bernd Mueller (in der Datei: Bernt Mueller)" in shown, shown
    files = {"file": ("herbst.trf", text.encode(), "text/plain")}
    english = client.post("/referee/upload?lang=en", data={**FIELDS, "action": "preview"}, files=files)
    assert english.status_code == 200 and "(in the file: Bernt Mueller)" in text_of(english.text)
