"""A schemathesis run against the OpenAPI document, in process (ASGI, no network), on the API
tests' world (``tests/api/world.py``) of each backend.

Every documented operation gets a fixed, small number of derandomized examples, valid ones and
invalid ones, sent without a token and with the admin token: no answer is a 5xx, and every
answer has a documented status code, a documented content type and a body that conforms to the
documented schema. Nothing is excluded.

Any failure fails the suite. (Its first runs found integers beyond the database's columns, NUL
characters, unbounded simulator ratings and an undocumented 400; all four are mended.)
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode

from tests.api.world import World
from zdb.app import API_PREFIX, create_app
from zdb.config import Settings

OPENAPI = f"{API_PREFIX}/openapi.json"
EXAMPLES = 10
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]
#: who asks (a token name of the world, or nobody), and valid (positive) or invalid (negative) requests
VARIANTS = [(token, mode) for token in ("admin", None) for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)]


def _operations() -> list[tuple[str, str]]:
    """Every (method, path) of the document; the document needs no database to be drawn."""
    document = create_app(Settings(database_url="sqlite://"), recalculation=False).openapi()
    return [(method.upper(), path) for path, item in document["paths"].items() for method in item]


OPERATIONS = _operations()


@pytest.fixture(scope="module")
def schema(world: World) -> Any:
    return schemathesis.openapi.from_asgi(OPENAPI, world.client.app)


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"{t or 'anonymous'}-{m.value}" for t, m in VARIANTS])
@pytest.mark.parametrize("operation", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_operation_conforms(
    world: World, schema: Any, operation: tuple[str, str], variant: tuple[str | None, GenerationMode]
) -> None:
    (method, path), (token, mode) = operation, variant
    strategy = schema[path][method].as_strategy(generation_mode=mode)
    headers = {} if token is None else {"Authorization": f"Bearer {world.tokens[token]}"}

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Case[Any]) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS)

    try:
        run()
    except Unsatisfiable:
        pytest.skip("no request of this kind can be drawn for the operation")
