"""TRF files sent as a form upload (``multipart/form-data`` with the field ``file``: what
``curl -F file=@t.trf`` and a browser's file input send) are taken exactly as the same file sent
as the body: submission, preview, correction, idempotent retry, and every problem in one 422
that stores nothing."""

from __future__ import annotations

from typing import Any

from tests.api.test_submissions import _counts, _german_trf, _headers
from tests.api.world import World
from zdb.formats.trf import parse_trf

PARAMS = {"acronym": "TRF", "federation": "C03"}


def _form(world: World, method: str, path: str, files: Any, token: str = "referee_c", **headers: str) -> Any:
    return world.client.request(
        method, f"/api/v1/tournaments{path}", params=PARAMS, files=files, headers=_headers(world, token, **headers)
    )


def _raw(world: World, method: str, path: str, text: str) -> Any:
    headers = _headers(world, "referee_c", **{"Content-Type": "text/plain"})
    return world.client.request(method, f"/api/v1/tournaments{path}", params=PARAMS, content=text, headers=headers)


def test_submit_preview_and_correct_by_form(fresh: World) -> None:
    text = _german_trf(fresh)
    preview = _form(fresh, "POST", "/preview/trf", {"file": ("t.trf", text.encode(), "text/plain")})
    assert preview.status_code == 200, preview.text
    assert preview.json() == _raw(fresh, "POST", "/preview/trf", text).json()
    submitted = _form(fresh, "POST", "/trf", {"file": ("t.trf", text.encode(), "application/octet-stream")})
    assert submitted.status_code == 201, submitted.text
    tid = submitted.json()["id"]
    assert submitted.headers["location"] == f"/api/v1/tournaments/{tid}"
    assert [p["created"] for p in submitted.json()["players"]] == [False, False, False, True]
    corrected = _form(fresh, "PUT", f"/{tid}/trf", {"file": ("t.trf", text.encode())})
    assert corrected.status_code == 200, corrected.text
    assert (corrected.json()["id"], corrected.json()["version"]) == (tid, 2)


def test_form_retry_with_the_same_key_stores_once(fresh: World) -> None:
    text = _german_trf(fresh)
    first = _form(fresh, "POST", "/trf", {"file": ("t.trf", text.encode())}, **{"Idempotency-Key": "form-1"})
    assert first.status_code == 201, first.text
    before = _counts(fresh.url)
    again = _form(fresh, "POST", "/trf", {"file": ("other-name.trf", text.encode())}, **{"Idempotency-Key": "form-1"})
    assert (again.status_code, again.json()) == (201, first.json())
    assert _counts(fresh.url) == before


def test_form_file_with_errors_on_several_lines_names_every_line_and_stores_nothing(fresh: World) -> None:
    lines = _german_trf(fresh).splitlines()
    bad_birth = next(k for k, line in enumerate(lines) if line.startswith("001    1"))
    bad_cell = next(k for k, line in enumerate(lines) if line.startswith("001    3"))
    bad_date = next(k for k, line in enumerate(lines) if line.startswith("001    2"))
    lines[bad_birth] = lines[bad_birth][:69] + "1980/13/45" + lines[bad_birth][79:]
    lines[bad_cell] = lines[bad_cell][:91] + "   4 w X" + lines[bad_cell][99:]
    lines[bad_date] = lines[bad_date][:69] + "1975/02/30" + lines[bad_date][79:]
    text = "\n".join(lines) + "\n"
    wrong = {f"line {bad_birth + 1}", f"line {bad_cell + 1}", f"line {bad_date + 1}"}
    assert {f"line {p.line}" for p in parse_trf(text).errors} == wrong
    before = _counts(fresh.url)
    for path in ("/trf", "/preview/trf"):
        answer = _form(fresh, "POST", path, {"file": ("t.trf", text.encode())})
        assert answer.status_code == 422, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        places = {e["place"] for e in answer.json()["errors"]}
        assert wrong <= places
    assert _counts(fresh.url) == before


def test_form_without_exactly_one_file_is_refused(fresh: World) -> None:
    text = _german_trf(fresh).encode()
    before = _counts(fresh.url)
    missing = _form(fresh, "POST", "/trf", {"trf": ("t.trf", text)})
    assert missing.status_code == 422
    assert [e["place"] for e in missing.json()["errors"]] == ["body.file"]
    twice = _form(fresh, "POST", "/trf", [("file", ("a.trf", text)), ("file", ("b.trf", text))])
    assert twice.status_code == 422
    assert [e["place"] for e in twice.json()["errors"]] == ["body.file"]
    empty = _form(fresh, "POST", "/trf", {"file": ("t.trf", b"  \n")})
    assert empty.status_code == 422
    mixed = fresh.client.post(
        "/api/v1/tournaments/trf",
        params=PARAMS,
        content=b"--x--\r\n",
        headers=_headers(fresh, "referee_c", **{"Content-Type": "multipart/mixed; boundary=x"}),
    )
    assert mixed.status_code == 422
    assert [e["place"] for e in mixed.json()["errors"]] == ["header.Content-Type"]
    assert _form(fresh, "POST", "/trf", {"file": ("t.trf", text)}, token="club_c0327").status_code == 403
    assert _counts(fresh.url) == before


def test_openapi_documents_the_form_upload(fresh: World) -> None:
    paths = fresh.client.get("/api/v1/openapi.json").json()["paths"]
    for path, method in (("/trf", "post"), ("/preview/trf", "post"), ("/{tournament_id}/trf", "put")):
        content = paths[f"/api/v1/tournaments{path}"][method]["requestBody"]["content"]
        form = content["multipart/form-data"]["schema"]
        assert form["required"] == ["file"] and form["properties"]["file"]["format"] == "binary"
        assert {"text/plain", "application/octet-stream"} <= set(content)
