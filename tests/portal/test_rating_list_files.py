"""The rating list's clubs and ZIP through the portal door, on both backends: ``clubs`` by
``vkz`` prefix, and ``download/LV-0-…`` (the whole federation) and ``LV-<region>-…`` (one
regional federation) the same bytes as the API's portal-layout ZIP of that federation."""

from __future__ import annotations

import io
import zipfile

from tests.api.world import CLUBS, World
from tests.portal.portal import RS


def test_clubs_by_vkz_prefix(world: World) -> None:
    body = world.client.get(f"{RS}/dwz/dwzliste/clubs", params={"vkz": "C"}).json()
    assert [(c["clubVkz"], c["clubName"]) for c in body["data"]] == [
        (code, n) for code, n, _ in CLUBS if code[0] == "C"
    ]
    assert body["data"][1]["federation"] == "C" and body["data"][1]["parentFederation"] == "C03"
    assert body["metadata"] == {"totalCount": 2}
    assert world.client.get(f"{RS}/dwz/dwzliste/clubs").json()["metadata"] == {"totalCount": len(CLUBS)}


def test_the_list_files_are_the_portal_layout_zip(world: World) -> None:
    for name, federation in (("LV-0-dwzliste.zip", ""), ("LV-C-dwzliste.zip", "C")):
        answer = world.client.get(f"{RS}/dwz/dwzliste/download/{name}")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/zip"
        api = world.client.get("/api/v1/files/rating-list.zip", params={"layout": "portal", "federation": federation})
        assert answer.content == api.content, name
        with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
            assert archive.namelist() == ["spieler.csv", "vereine.csv", "verbaende.csv"]


def test_an_unknown_list_file_or_region_is_a_404(world: World) -> None:
    for name in ("LV-Z-dwzliste.zip", "spieler.csv", "LV--dwzliste.zip"):
        answer = world.client.get(f"{RS}/dwz/dwzliste/download/{name}")
        assert answer.status_code == 404, name
        assert set(answer.json()) == {"error", "error_description"}
