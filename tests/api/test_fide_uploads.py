"""Uploading FIDE's list over the API: the text list, the XML or FIDE's ZIP of one, stored as an
import waiting for the worker, run by it (here the test runs it, as the worker would), and
followed with ``GET /lists/imports/{id}``; admin only, within the list uploads' size limit."""

from __future__ import annotations

import io
import zipfile
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.models import FideRatingRow
from zdb.lists.runner import run_list_import
from zdb.synthetic.fide_lists import fide_players, write_fide_txt, write_fide_xml

PLAYERS = 30


def _admin(url: str) -> dict[str, str]:
    with unit_of_work(engine_for(url)) as session:
        return {"Authorization": f"Bearer {create_token(session, 'admin', label='staff').secret}"}


def _text(xml: bool = False) -> bytes:
    out = io.BytesIO()
    (write_fide_xml if xml else write_fide_txt)(fide_players(3, PLAYERS), out)
    return out.getvalue()


def _zipped(**members: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _upload(client: TestClient, headers: dict[str, str], name: str, data: bytes, **form: str) -> Any:
    return client.post("/api/v1/lists/fide-imports", files={"file": (name, data)}, data=form, headers=headers)


def _editions(url: str) -> dict[str, int]:
    with unit_of_work(engine_for(url)) as session:
        rows = session.execute(select(FideRatingRow.edition, func.count()).group_by(FideRatingRow.edition))
        return {day.isoformat(): count for day, count in rows}


def test_fides_zip_is_stored_as_the_edition_of_its_date(client: TestClient, database_url: str) -> None:
    headers = _admin(database_url)
    answer = _upload(
        client, headers, "players_list.zip", _zipped(**{"players_list_foa.txt": _text()}), edition="2026-10-01"
    )
    assert answer.status_code == 202, answer.text
    assert answer.json()["kind"] == "fide" and answer.json()["status"] == "waiting"
    assert run_list_import(engine_for(database_url), answer.json()["id"]) == "done"
    assert run_list_import(engine_for(database_url), answer.json()["id"]) == "done"  # delivered twice
    done = client.get(answer.headers["Location"], headers=headers).json()
    assert done["status"] == "done" and done["list_date"] == "2026-10-01", done
    assert done["result"]["players"] == PLAYERS and done["result"]["applied"] is True
    assert _editions(database_url) == {"2026-10-01": PLAYERS}


def test_the_xml_and_a_dry_run(client: TestClient, database_url: str) -> None:
    headers = _admin(database_url)
    dry = _upload(client, headers, "players_list_xml_foa.xml", _text(xml=True), edition="2026-11-01", dry_run="true")
    assert run_list_import(engine_for(database_url), dry.json()["id"]) == "done"
    result = client.get(dry.headers["Location"], headers=headers).json()["result"]
    assert result["players"] == PLAYERS and result["applied"] is False
    assert _editions(database_url) == {}
    real = _upload(client, headers, "players_list_xml.zip", _zipped(**{"players_list_xml_foa.xml": _text(xml=True)}))
    assert run_list_import(engine_for(database_url), real.json()["id"]) == "done"
    assert sum(_editions(database_url).values()) == PLAYERS


def test_unreadable_uploads_are_refused_and_store_nothing(client: TestClient, database_url: str) -> None:
    headers = _admin(database_url)
    two = _upload(client, headers, "two.zip", _zipped(**{"a.txt": _text(), "b.txt": _text()}), edition="2026-10-01")
    assert run_list_import(engine_for(database_url), two.json()["id"]) == "refused"
    error = client.get(two.headers["Location"], headers=headers).json()["error"]
    assert "one .txt or .xml file" in error and "a.txt, b.txt" in error

    lines = _text().splitlines(keepends=True)
    broken = b"".join([*lines[:5], b"12x45 not a player line\n", *lines[5:]])
    bad = _upload(client, headers, "players_list_foa.txt", broken, edition="2026-10-01")
    assert run_list_import(engine_for(database_url), bad.json()["id"]) == "refused"
    assert "players_list_foa.txt" in client.get(bad.headers["Location"], headers=headers).json()["error"]
    assert _editions(database_url) == {}


def test_only_an_admin_uploads_and_the_size_is_bounded(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        referee = create_token(session, "referee", "C", label="referee").secret
    admin = _admin(database_url)
    client = TestClient(
        create_app(Settings(database_url=database_url, max_list_upload_bytes=4096), recalculation=False)
    )
    assert _upload(client, {"Authorization": f"Bearer {referee}"}, "a.txt", b"x").status_code == 403
    assert _upload(client, admin, "a.txt", b"").status_code == 422
    too_large = _upload(client, admin, "players_list_foa.txt", _text() * 20)
    assert too_large.status_code == 413, too_large.text
