"""Uploading a rating list over the API: stored as an import waiting for the worker, run by it
(here the test runs it, as the worker would), followed with GET; admin only."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.cli import main
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.runner import run_list_import
from zdb.lists.service import import_rating_list
from zdb.players.models import Player
from zdb.synthetic.fide_lists import fide_players, write_fide_txt
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list


def _tokens(url: str) -> dict[str, str]:
    with unit_of_work(engine_for(url)) as session:
        return {
            "admin": create_token(session, "admin", label="staff").secret,
            "referee": create_token(session, "referee", "C", label="referee").secret,
        }


def _upload(client: TestClient, secret: str, data: bytes, **form: str) -> Any:
    return client.post(
        "/api/v1/lists/imports",
        files={"file": ("LV-0-csv.zip", data, "application/zip")},
        data={"list_date": "2026-11-30", **form},
        headers={"Authorization": f"Bearer {secret}"},
    )


def _players(url: str) -> int:
    with unit_of_work(engine_for(url)) as session:
        return session.execute(select(func.count()).select_from(Player)).scalar_one()


def test_a_dry_run_then_the_import_answer_the_difference(client: TestClient, database_url: str) -> None:
    tokens = _tokens(database_url)
    data = synthetic_list(9, 40)
    people = len({m.person_id for m in data.members})
    headers = {"Authorization": f"Bearer {tokens['admin']}"}

    answer = _upload(client, tokens["admin"], list_zip_bytes(data), dry_run="true")
    assert answer.status_code == 202, answer.text
    assert answer.json()["status"] == "waiting"
    location = answer.headers["Location"]
    assert run_list_import(engine_for(database_url), answer.json()["id"]) == "done"
    dry = client.get(location, headers=headers).json()
    assert dry["status"] == "done" and dry["result"]["counts"]["people_new"] == people
    assert dry["result"]["applied"] is False and _players(database_url) == 0

    answer = _upload(client, tokens["admin"], list_zip_bytes(data))
    import_id = answer.json()["id"]
    assert run_list_import(engine_for(database_url), import_id) == "done"
    assert run_list_import(engine_for(database_url), import_id) == "done"  # a message delivered twice
    done = client.get(f"/api/v1/lists/imports/{import_id}", headers=headers).json()
    assert done["result"]["applied"] is True and done["result"]["counts"]["people_new"] == people
    assert _players(database_url) == people
    assert 'zdb_list_imports{kind="list",status="done"} 2.0' in client.get("/metrics").text


def test_a_list_with_problems_is_refused_and_stores_nothing(client: TestClient, database_url: str) -> None:
    tokens = _tokens(database_url)
    data = synthetic_list(9, 40)
    bad = replace(data, members=(*data.members, replace(data.members[0], person_id="NU5", club_code="Q1234")))
    answer = _upload(client, tokens["admin"], list_zip_bytes(bad))
    assert run_list_import(engine_for(database_url), answer.json()["id"]) == "refused"
    refused = client.get(answer.headers["Location"], headers={"Authorization": f"Bearer {tokens['admin']}"}).json()
    assert refused["status"] == "refused"
    assert refused["result"]["problems"] == [f"spieler.csv:{len(bad.members) + 1}: the club Q1234 is not known"]
    assert _players(database_url) == 0


def test_only_an_admin_uploads(client: TestClient, database_url: str) -> None:
    tokens = _tokens(database_url)
    assert _upload(client, tokens["referee"], b"PK").status_code == 403
    assert client.get("/api/v1/lists/imports/1").status_code == 401


def test_the_embedded_mode_runs_an_upload_after_its_commit(sqlite_url: str) -> None:
    """``make run``: no broker, the import runs in a thread of the serving process."""
    tokens = _tokens(sqlite_url)
    data = synthetic_list(9, 20)
    with TestClient(create_app(Settings(database_url=sqlite_url))) as served:
        answer = _upload(served, tokens["admin"], list_zip_bytes(data))
        assert answer.status_code == 202
        headers = {"Authorization": f"Bearer {tokens['admin']}"}
        deadline = time.monotonic() + 30
        state = answer.json()
        while state["status"] in ("waiting", "running") and time.monotonic() < deadline:
            time.sleep(0.1)
            state = served.get(answer.headers["Location"], headers=headers).json()
    assert state["status"] == "done", state
    assert _players(sqlite_url) == len({m.person_id for m in data.members})


def test_every_import_is_listed_newest_first_with_its_real_progress(
    client: TestClient, database_url: str, tmp_path: Path
) -> None:
    tokens = _tokens(database_url)
    headers = {"Authorization": f"Bearer {tokens['admin']}"}
    data = synthetic_list(9, 40)
    zipped = list_zip_bytes(data)
    fide = tmp_path / "players_list_foa.txt"
    with fide.open("wb") as out:
        write_fide_txt(fide_players(3, 25), out)

    with unit_of_work(engine_for(database_url)) as session:  # as `zdb lists import` does
        import_rating_list(session, zipped, file="command.zip", list_date=date(2026, 10, 31))
    dry = _upload(client, tokens["admin"], zipped, dry_run="true").json()["id"]
    assert run_list_import(engine_for(database_url), dry) == "done"
    sent = client.post(
        "/api/v1/lists/fide-imports",
        files={"file": ("players_list_foa.txt", fide.read_bytes(), "text/plain")},
        data={"edition": "2026-11-01"},
        headers=headers,
    ).json()["id"]
    assert run_list_import(engine_for(database_url), sent) == "done"
    command = CliRunner().invoke(
        main, ["fide", "import", str(fide), "--date", "2026-12-01", "--database-url", database_url]
    )
    assert command.exit_code == 0, command.output

    listing = client.get("/api/v1/lists/imports", headers=headers)
    assert listing.status_code == 200, listing.text
    page = listing.json()
    assert page["total"] == 4
    shown = [(i["kind"], i["file_name"], i["status"], i["progress"]) for i in page["items"]]
    assert shown == [
        ("fide", "players_list_foa.txt", "done", {"done": 25, "total": 25}),  # the command's
        ("fide", "players_list_foa.txt", "done", {"done": 25, "total": 25}),  # the upload's
        ("list", "LV-0-csv.zip", "done", {"done": 2, "total": 2}),  # read and compared
        ("list", "command.zip", "done", {"done": 9, "total": 9}),  # and written
    ]
    assert [i["id"] for i in page["items"]] == sorted((i["id"] for i in page["items"]), reverse=True)
    assert "result" not in page["items"][0]
    for item in page["items"]:
        one = client.get(f"/api/v1/lists/imports/{item['id']}", headers=headers).json()
        assert one["progress"] == item["progress"] and one["finished_at"] is not None
    second = client.get("/api/v1/lists/imports", params={"limit": 2, "offset": 1}, headers=headers).json()
    assert [i["id"] for i in second["items"]] == [i["id"] for i in page["items"][1:3]]
    assert client.get("/api/v1/lists/imports").status_code == 401
    referee = {"Authorization": f"Bearer {tokens['referee']}"}
    assert client.get("/api/v1/lists/imports", headers=referee).status_code == 403
