"""Malformed and hostile list uploads end ``refused`` with what is wrong in words staff
understand — over the API, stored with the import, and on the staff page in German — never
``failed`` with a Python exception's text: random bytes, a file that is no ZIP, a UTF-16
``spieler.csv``, a ZIP bomb over the bound, an import past its deadline."""

from __future__ import annotations

import io
import itertools
import random
import re
import zipfile
from typing import Any

from fastapi.testclient import TestClient

from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.formats.read_limits import ReadLimits
from zdb.lists.runner import run_list_import
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

#: what a raw exception looks like in a text: ``TypeError: …``, ``BadZipFile``, a traceback
PYTHON = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception|ZipFile)\b|Traceback|itemgetter")


def _admin(url: str) -> dict[str, str]:
    with unit_of_work(engine_for(url)) as session:
        return {"Authorization": f"Bearer {create_token(session, 'admin', label='staff').secret}"}


def _run(client: TestClient, url: str, path: str, upload: tuple[str, bytes], limits: ReadLimits | None = None) -> Any:
    headers = _admin(url)
    sent = client.post(f"/api/v1/lists/{path}", files={"file": upload}, data={"dry_run": "true"}, headers=headers)
    assert sent.status_code == 202, sent.text
    if limits is None:
        run_list_import(engine_for(url), sent.json()["id"])  # the service's own bounds
    else:
        run_list_import(engine_for(url), sent.json()["id"], limits)
    return client.get(sent.headers["Location"], headers=headers).json()


def _refusal_text(answer: dict[str, Any]) -> str:
    assert answer["status"] == "refused", answer
    assert answer["error"] and not PYTHON.search(answer["error"]), answer["error"]
    return str(answer["error"])


def test_random_bytes_as_a_rating_list_are_refused_as_not_a_zip(client: TestClient, database_url: str) -> None:
    """They were refused as "the list carries no date"."""
    answer = _run(client, database_url, "imports", ("liste.zip", random.Random(7).randbytes(5000)))
    assert _refusal_text(answer) == (
        "liste.zip: liste.zip is not a ZIP archive: upload the list as the ZIP it is published in"
    )


def test_random_bytes_as_fide_list_are_refused_naming_the_header(client: TestClient, database_url: str) -> None:
    """They ended ``failed`` with ``TypeError: itemgetter expected 1 argument, got 0``."""
    data = bytes(random.Random(8).choice(range(1, 256)) for _ in range(3000)).replace(b"\n", b"")
    answer = _run(client, database_url, "fide-imports", ("players_list_foa.txt", data))
    assert answer["status"] == "done" and answer["result"]["players"] == 0  # a dry run counts what it read
    assert answer["result"]["problems"] == [
        "players_list_foa.txt:1: no recognisable header: the first line names none of FIDE's columns "
        "(ID Number, Name, Fed, ...)"
    ]


def test_a_utf16_spieler_csv_is_refused_naming_the_encoding(client: TestClient, database_url: str) -> None:
    """It was refused as "no known column in the header", the encoding unnamed."""
    written = io.BytesIO(list_zip_bytes(synthetic_list(3, 10)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info, data.decode("cp1252").encode("utf-16") if info.filename == "spieler.csv" else data)
    answer = _run(client, database_url, "imports", ("liste.zip", buffer.getvalue()))
    assert "UTF-16" in _refusal_text(answer)


def test_a_zip_bomb_is_refused_naming_the_bound(client: TestClient, database_url: str) -> None:
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("spieler.csv", "w") as member,
    ):
        member.write(b"ID,ZPS,Mgl-Nr,Status,Spielername\r\n")
        for _ in range(16):
            member.write(b"\n" * 1024 * 1024)
    limits = ReadLimits(max_unpacked_bytes=4 * 1024 * 1024)
    answer = _run(client, database_url, "imports", ("liste.zip", buffer.getvalue()), limits)
    assert _refusal_text(answer) == (
        "spieler.csv: the unpacked file spieler.csv would be larger than 4 MB (the bound for unpacked uploads, "
        "ZDB_MAX_UNPACKED_BYTES)"
    )


def test_an_import_past_its_deadline_is_refused_saying_so(client: TestClient, database_url: str) -> None:
    ticks = itertools.count()
    limits = ReadLimits(clock=lambda: next(ticks), deadline=0.5, seconds=30)
    answer = _run(client, database_url, "imports", ("liste.zip", list_zip_bytes(synthetic_list(4, 5000))), limits)
    assert "took longer than 30 seconds" in _refusal_text(answer)


def test_the_staff_page_says_the_refusal_in_german(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    client = TestClient(
        create_app(Settings(database_url=postgres_url), recalculation=False), follow_redirects=False, headers=SAME_SITE
    )
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    sent = client.post("/staff/lists", files={"file": ("liste.zip", b"ID,Name\r\n", "application/zip")})
    assert sent.status_code == 303
    run_list_import(engine_for(postgres_url), int(sent.headers["location"].rsplit("/", 1)[1]))
    page = text_of(client.get(sent.headers["location"]).text)
    assert "liste.zip ist kein ZIP-Archiv" in page, page


def test_a_nul_in_a_name_is_a_problem_naming_file_line_and_column(client: TestClient, database_url: str) -> None:
    """It passed the reader and failed the import with the database's words, naming no field."""
    written = io.BytesIO(list_zip_bytes(synthetic_list(5, 3), "portal"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(
                info, data.replace(b'"Zimmermann', b'"Zimmer\x00mann', 1) if info.filename == "spieler.csv" else data
            )
    answer = _run(client, database_url, "imports", ("liste.zip", buffer.getvalue()))
    assert answer["status"] == "done", answer  # a dry run: the difference, and the line it leaves out
    assert answer["result"]["problems"] == [
        "spieler.csv:3: Name,Vorname: holds a control character (NUL); a value never does: the file is damaged"
    ]
