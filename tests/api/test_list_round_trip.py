"""The rating-list ZIP through the database: export, import into an empty database, export again
gives the same bytes, in every layout and encoding the ZIP endpoint writes.

The first database is filled from a small generated list (PostgreSQL), the second is an empty
embedded one (SQLite), so the round trip crosses both backends. The three files are compared
byte for byte; the ZIP around them is stamped with each database's last change (the import's
moment, different in the two databases by design), so the ZIPs are compared with that stamp
aside: same entries, same order, same bytes.
"""

from __future__ import annotations

import io
import zipfile
from datetime import date

import pytest
from fastapi.testclient import TestClient

from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.service import import_rating_list
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

LIST_DATE = date(2026, 11, 30)


def _import(url: str, data: bytes) -> None:
    with unit_of_work(engine_for(url)) as session:
        answer = import_rating_list(session, data, file="LV-0-csv.zip", list_date=LIST_DATE)
    assert answer.problems == [], answer.problems


def _export(url: str, **query: str) -> bytes:
    client = TestClient(create_app(Settings(database_url=url), recalculation=False))
    answer = client.get("/api/v1/files/rating-list.zip", params=query)
    assert answer.status_code == 200, answer.text
    return answer.content


def _files(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


@pytest.fixture(scope="module")
def generated() -> bytes:
    # people with an active and a passive membership, names outside Windows-1252, unrated
    # players, missing birth years and member numbers: the quirks of a real list, made up
    return list_zip_bytes(synthetic_list(18, 60))


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "latin-1"])
def test_export_import_export_gives_the_same_bytes(
    generated: bytes, postgres_url: str, sqlite_url: str, encoding: str
) -> None:
    _import(postgres_url, generated)
    first = _export(postgres_url, encoding=encoding)

    _import(sqlite_url, first)
    second = _export(sqlite_url, encoding=encoding)

    first_files, second_files = _files(first), _files(second)
    assert [name for name, _ in first_files] == ["spieler.csv", "vereine.csv", "verbaende.csv"]
    assert first_files[0][1].count(b"\n") > 40  # the list arrived, not only the headers
    for (name, before), (_, after) in zip(first_files, second_files, strict=True):
        assert after == before, name
