"""The OpenAPI document, complete: every operation documents its errors as problem documents
with examples, its 304 for a conditional GET, and an example of every successful answer.

Routers name the errors particular to them (``problems(404, 409)``); the errors every
operation can give (401 for a bad token, 422 for a wrong parameter, 500, 503 while the database
is out of reach) are added here, and
FastAPI's own validation-error schema is replaced by the problem document it actually answers.
Examples of successful answers are put together from the examples of their schemas' fields.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from zdb.api.problems import PROBLEM_MEDIA_TYPE, PROBLEM_TYPES, Problem
from zdb.submissions.schemas import TournamentIn

__all__ = ["install_openapi", "problems"]

_REF = "#/components/schemas/Problem"

_EXAMPLES: dict[int, tuple[str, str, str, list[dict[str, str]]]] = {
    400: ("bad-request", "There was an error parsing the body", "/api/v1/tournaments", []),
    401: ("unauthorized", "the token is not known", "/api/v1/players/10000042", []),
    403: ("forbidden", "this needs the role admin; the token's role is club", "/api/v1/audit-log", []),
    404: ("not-found", "player 10000099 does not exist", "/api/v1/players/10000099", []),
    409: (
        "conflict",
        "tournament 7 has not been evaluated yet",
        "/api/v1/tournaments/7/players/10000042/explanation",
        [],
    ),
    422: (
        "invalid-request",
        "invalid: query.limit",
        "/api/v1/players",
        [{"place": "query.limit", "message": "Input should be less than or equal to 1000"}],
    ),
    500: ("internal-error", "an internal error occurred; it was logged", "/api/v1/players/10000042", []),
    503: (
        "unavailable",
        "the database cannot be reached just now or gave up on the request; nothing was stored, retry later",
        "/api/v1/players/10000042",
        [],
    ),
}


def _problem(status: int) -> dict[str, Any]:
    slug, detail, instance, errors = _EXAMPLES[status]
    kind = PROBLEM_TYPES[slug]
    example = {
        "type": kind.type,
        "title": kind.title,
        "status": status,
        "detail": detail,
        "instance": instance,
        "errors": errors,
    }
    return {
        "description": kind.description,
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": _REF}, "example": example}},
    }


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route for the errors particular to it."""
    return {status: _problem(status) for status in statuses}


def _example(schema: dict[str, Any], components: dict[str, Any], depth: int = 0) -> Any:
    if schema.get("examples"):
        return schema["examples"][0]
    if "$ref" in schema:
        return _example(components[schema["$ref"].rsplit("/", 1)[-1]], components, depth + 1)
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"]
        return _example(options[0], components, depth + 1) if options else None
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: _example(sub, components, depth + 1) for name, sub in properties.items()}
    if kind == "array":
        return [_example(schema.get("items", {}), components, depth + 1)] if depth < 12 else []
    formats = {"date": "2026-09-20", "date-time": "2026-09-21T08:15:00Z"}
    defaults = {"string": formats.get(schema.get("format", ""), "text"), "integer": 1, "number": 1.0, "boolean": True}
    return defaults.get(str(kind))


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes, tags=app.openapi_tags
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        problem = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
        components.update(problem.pop("$defs", {}))
        components["Problem"] = problem
        # The submission's body is read leniently (every problem in one answer), not by FastAPI:
        # its schema is added here, and the operations refer to it.
        tournament = TournamentIn.model_json_schema(ref_template="#/components/schemas/{model}")
        components.update(tournament.pop("$defs", {}))
        components["TournamentIn"] = tournament
        for operations in schema.get("paths", {}).values():
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                if operation.get("parameters") or operation.get("requestBody") or "422" in responses:
                    responses["422"] = _problem(422)
                # a body that is not JSON at all, or a query parameter the operation does not know
                responses.setdefault("400", _problem(400))
                responses.setdefault("401", _problem(401))
                responses.setdefault("500", _problem(500))
                responses.setdefault("503", _problem(503))
                if operation.get("security") == [{"HTTPBearer": []}] and "403" not in responses:
                    # Without a token the public data is answered: the token is optional here.
                    operation["security"] = [{}, {"HTTPBearer": []}]
                if method == "get":
                    responses.setdefault(
                        "304",
                        {
                            "description": "Not modified: the If-None-Match tag is the current ETag (or, without "
                            "If-None-Match, nothing changed since If-Modified-Since)."
                        },
                    )
                for status, response in responses.items():
                    content = response.get("content", {}).get("application/json")
                    if status.startswith("2") and content and "schema" in content and "example" not in content:
                        content["example"] = _example(content["schema"], components)
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
