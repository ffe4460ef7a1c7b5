"""The referee page takes a Swiss-Chess SWT as it takes a TRF: previewed with the rows of the API's
preview of the same tournament as TRF, submitted, and its problems shown with the record in the page's language."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_submissions import _german_trf
from tests.api.test_swt_upload import _german_swt
from tests.api.world import World
from tests.web.html_text import rows_of
from tests.web.test_referee_pages import FIELDS, _count, _hidden, _signed_in, fresh
from zdb.tournaments.models import TournamentRecord

__all__ = ["fresh"]  # the world in this test's own database


def _upload(client: TestClient, data: bytes, name: str = "Herbst.SWT") -> Any:
    files = {"file": (name, data, "application/octet-stream")}
    return client.post("/referee/upload", data={**FIELDS, "action": "preview"}, files=files)


def test_an_swt_is_previewed_and_submitted_from_the_page(fresh: World) -> None:
    client = _signed_in(fresh)
    tournaments = _count(fresh.url, TournamentRecord)
    previewed = _upload(client, _german_swt(fresh))
    assert previewed.status_code == 200, previewed.text
    api = fresh.client.post(
        "/api/v1/tournaments/preview/trf",
        params=FIELDS,
        content=_german_trf(fresh).encode(),
        headers={"Authorization": f"Bearer {fresh.tokens['referee_c']}", "Content-Type": "text/plain"},
    ).json()
    shown = [(row[1], row[8]) for row in rows_of(previewed.text, "preview")]
    assert len(shown) == len(api["rows"]) == 4
    for (name, after), row in zip(shown, api["rows"], strict=True):
        assert name.startswith(row["name"])
        assert after == ("–" if row["rn"] is None else f"{row['rn']}-{row['i_new']}")
    stored = client.post("/referee/upload", data={**_hidden(previewed.text), "action": "submit"})
    assert stored.status_code == 303
    assert _count(fresh.url, TournamentRecord) == tournaments + 1


def test_swt_problems_name_the_player_in_german(fresh: World) -> None:
    client = _signed_in(fresh)
    refused = _upload(client, _german_swt(fresh, p2_birth="19751345"))
    assert refused.status_code == 422
    shown = re.findall(r"<strong>([^<]+)</strong>: ([^<]+)</li>", refused.text)
    assert ("Spieler 2", "Geburtsdatum: Geburtsdatum &#39;1975/13/45&#39; ist kein gültiges Datum") in shown, shown
    other = bytearray(_german_swt(fresh))
    other[0x261:0x263] = (950).to_bytes(2, "little")
    refused = _upload(client, bytes(other))
    assert refused.status_code == 422
    assert "Allgemeine Turnierdaten" in refused.text and "Swiss-Chess 7.xx und 8.xx" in refused.text
