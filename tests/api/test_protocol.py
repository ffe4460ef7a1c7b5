"""The HTTP contract: problem documents for every error, conditional GETs (ETag, 304,
Last-Modified), and an OpenAPI document that documents every answer with an example."""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from typing import Any

import pytest

from tests.api.world import World

PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "errors"}


def _problem(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/problem+json"
    body = answer.json()
    assert set(body) == PROBLEM_KEYS and body["status"] == status
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("path", "params", "place"),
    [
        ("/players", {"limit": 0}, "query.limit"),
        ("/players", {"limit": 1001}, "query.limit"),
        ("/players", {"offset": -1}, "query.offset"),
        ("/players/abc", {}, "path.pkz"),
        ("/players/1", {"at": "2026-02-30"}, "query.at"),
        ("/tournaments", {"status": "lost"}, "query.status"),
        ("/clubs/ABC", {}, "path.code"),
        ("/ratings/top", {"sex": "X"}, "query.sex"),
        ("/ratings/changes", {"changed_since": "0001-01-01T00:00:00+14:00"}, "query.changed_since"),
    ],
)
def test_422_names_the_wrong_field(world: World, path: str, params: dict[str, Any], place: str) -> None:
    body = _problem(world.get(path, **params), 422)
    assert body["type"] == "/api/v1/problems/invalid-request"
    assert [e["place"] for e in body["errors"]] == [place]
    assert all(e["message"] for e in body["errors"])
    assert body["instance"] == f"/api/v1{path}"


@pytest.mark.parametrize(
    ("path", "params", "place"),
    [
        ("/tournaments", {"from": "yesterday"}, "query.from"),
        ("/ratings/changes", {"changed_since": "soon"}, "query.changed_since"),
    ],
)
def test_a_date_not_in_iso_8601_is_a_bad_request_naming_the_field(
    world: World, path: str, params: dict[str, Any], place: str
) -> None:
    # a malformed request, not a value the rules refuse (zdb.endpoints.dependencies.QueryDate)
    body = _problem(world.get(path, **params), 400)
    assert body["type"] == "/api/v1/problems/bad-request"
    assert [e["place"] for e in body["errors"]] == [place]
    assert all(e["message"] for e in body["errors"])


def test_404_and_405(world: World) -> None:
    body = _problem(world.get("/players/99999999"), 404)
    assert body["detail"] == "player 99999999 does not exist" and body["errors"] == []
    body = _problem(world.get("/no/such/thing"), 404)
    assert body["type"] == "/api/v1/problems/not-found"
    answer = world.client.delete("/api/v1/players")
    body = _problem(answer, 405)
    assert answer.headers["allow"] == "GET" and "GET" in body["detail"]


def test_every_problem_type_is_described(world: World) -> None:
    for slug in ("not-found", "invalid-request", "unauthorized", "forbidden", "conflict", "internal-error"):
        described = world.get(f"/problems/{slug}").json()
        assert described["type"] == f"/api/v1/problems/{slug}" and described["description"]
    assert world.get("/problems/nonsense").status_code == 404


def test_conditional_get(world: World) -> None:
    first = world.get("/clubs/C0327/ratings")
    tag = first.headers["etag"]
    # public: a shared cache keeps it for seconds (zdb.api.http_caching)
    assert first.headers["cache-control"].startswith("public, max-age=") and first.headers["vary"] == "Authorization"
    assert parsedate_to_datetime(first.headers["last-modified"]).tzinfo is not None
    assert world.get("/clubs/C0327/ratings").headers["etag"] == tag
    for sent in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        again = world.client.get("/api/v1/clubs/C0327/ratings", headers={"If-None-Match": sent})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == tag and "last-modified" in again.headers
    assert world.client.get("/api/v1/clubs/C0327/ratings", headers={"If-None-Match": '"x"'}).status_code == 200
    # A club token sees more of its own members: another representation, another tag.
    assert world.get("/clubs/C0327/ratings", "club_c0327").headers["etag"] != tag


@pytest.mark.parametrize(
    "path",
    [
        "/players",
        "/tournaments",
        "/clubs",
        "/federations",
        "/ratings/top",
        "/clubs/C0327/ratings",
        "/ratings/changes?changed_since=2000-01-01",
        "/recalculation",
        "/players/10000001",
        "/tournaments/1/evaluation",
    ],
)
def test_every_get_carries_etag_and_last_modified(world: World, path: str) -> None:
    answer = world.client.get(f"/api/v1{path}")
    assert answer.status_code == 200
    assert answer.headers["etag"].startswith('"') and parsedate_to_datetime(answer.headers["last-modified"])
    assert world.client.get(f"/api/v1{path}", headers={"If-None-Match": answer.headers["etag"]}).status_code == 304


def test_absent_values_are_null(world: World) -> None:
    (tournament,) = world.get("/tournaments", q="opn").json()["items"]
    assert "start_date" in tournament and tournament["start_date"] is None
    card = world.get(f"/players/{world.pkz['G']}").json()
    assert card["fide_id"] is None and card["birth_date"] is None and card["rating_at"] is None


def test_openapi_documents_every_answer(world: World) -> None:
    document = world.client.get("/api/v1/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert "Problem" in schemas and "HTTPValidationError" not in schemas
    assert "HTTPBearer" in document["components"]["securitySchemes"]
    operations = [(path, method, op) for path, ops in document["paths"].items() for method, op in ops.items()]
    assert len(operations) >= 18
    for path, method, operation in operations:
        responses = operation["responses"]
        assert {"401", "500"} <= set(responses), (path, method)
        assert any(status.startswith("2") for status in responses), (path, method)
        if operation.get("parameters"):
            assert "422" in responses, path
        if method == "get":
            assert "304" in responses, path
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                content = response["content"]["application/problem+json"]
                assert content["schema"] == {"$ref": "#/components/schemas/Problem"}
                assert content["example"]["status"] == int(status)
            elif status.startswith("2") and "application/json" not in response.get("content", {"application/json": 0}):
                # a file only (FIDE's report): every form of it shown by an example
                assert all(form.get("example") for form in response["content"].values()), (path, status)
            elif status.startswith("2") and status != "204":
                content = response["content"]["application/json"]
                assert content["example"], (path, status)
                schema = content["schema"]
                if "$ref" in schema:
                    properties = schemas[schema["$ref"].rsplit("/", 1)[-1]]["properties"]
                    assert set(content["example"]) == set(properties), path
