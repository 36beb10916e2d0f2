"""Property-based fuzzing of every HTTP endpoint from the server's own OpenAPI schema.

Whatever schemathesis generates from the schema — valid, boundary or malformed — the server
answers without a 5xx, gives a coded error body for every 4xx, and keeps serving.
"""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameshelf.server import create_app

from .conftest import RunningServer

SCHEMA = schemathesis.openapi.from_dict(create_app("sqlite://", bot_workers=0).openapi())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_no_endpoint_fails_or_answers_without_a_code(
    operation: schemathesis.APIOperation, server: RunningServer
) -> None:
    seeded = httpx.post(f"{server.url}/api/matches", json={"game": "cage"}).json()["id"]

    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=operation.as_strategy(), real_id=st.booleans())
    def check(case: schemathesis.Case, real_id: bool) -> None:
        if real_id and case.path_parameters and "match_id" in case.path_parameters:
            case.path_parameters["match_id"] = seeded
        response = case.call(base_url=server.url)
        assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text}"
        if response.status_code >= 400:
            error = response.json()["error"]
            assert error["code"] and error["message"]

    check()
    assert httpx.get(f"{server.url}/healthz").json()["status"] == "ok"
