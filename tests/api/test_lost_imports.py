"""An import whose worker was lost: never resumed by itself, closed by the sweep with that
reason, run again only when the rating office asks (``zdb.lists.lost_imports``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.lost_imports import WORKER_LOST, close_lost_imports
from zdb.lists.models import ListImport
from zdb.lists.runner import run_list_import
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list


def _upload(url: str) -> tuple[TestClient, dict[str, str], int]:
    with unit_of_work(engine_for(url)) as session:
        secret = create_token(session, "admin", label="staff").secret
    client = TestClient(create_app(Settings(database_url=url), recalculation=False))
    headers = {"Authorization": f"Bearer {secret}"}
    answer = client.post(
        "/api/v1/lists/imports",
        files={"file": ("LV-0-csv.zip", list_zip_bytes(synthetic_list(3, 12)), "application/zip")},
        data={"list_date": "2026-11-30"},
        headers=headers,
    )
    assert answer.status_code == 202, answer.text
    return client, headers, answer.json()["id"]


def _left_running(url: str, import_id: int, heartbeat: datetime) -> None:
    """As a worker killed in the middle leaves it."""
    with unit_of_work(engine_for(url)) as session:
        session.execute(
            update(ListImport).where(ListImport.id == import_id).values(status="running", heartbeat_at=heartbeat)
        )


def _state(client: TestClient, headers: dict[str, str], import_id: int) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/v1/lists/imports/{import_id}", headers=headers).json()
    return answer


def test_a_running_import_is_never_resumed_by_another_delivery(postgres_url: str) -> None:
    client, headers, import_id = _upload(postgres_url)
    _left_running(postgres_url, import_id, datetime.now(UTC))
    assert run_list_import(engine_for(postgres_url), import_id) == "running"
    state = _state(client, headers, import_id)
    assert state["status"] == "running" and state["result"] is None


def test_the_sweep_closes_a_silent_import_and_staff_run_it_again(postgres_url: str) -> None:
    client, headers, import_id = _upload(postgres_url)
    _, _, beating = _upload(postgres_url)
    _left_running(postgres_url, import_id, datetime.now(UTC) - timedelta(minutes=5))
    _left_running(postgres_url, beating, datetime.now(UTC))
    with unit_of_work(engine_for(postgres_url)) as session:
        assert close_lost_imports(session, timedelta(minutes=2)) == [import_id]
    state = _state(client, headers, import_id)
    assert state["status"] == "failed" and state["error"] == WORKER_LOST
    assert _state(client, headers, beating)["status"] == "running"  # its heartbeat is fresh
    # a late delivery of its message would not run it either
    assert run_list_import(engine_for(postgres_url), import_id) == "failed"

    again = client.post(f"/api/v1/lists/imports/{import_id}/rerun", headers=headers)
    assert again.status_code == 202, again.text
    assert again.json()["status"] == "waiting" and again.json()["error"] is None
    assert run_list_import(engine_for(postgres_url), import_id) == "done"
    assert _state(client, headers, import_id)["result"]["counts"]["people_new"] > 0
    refused = client.post(f"/api/v1/lists/imports/{import_id}/rerun", headers=headers)
    assert refused.status_code == 409 and "only a failed import" in refused.json()["detail"]
    assert client.post("/api/v1/lists/imports/999/rerun", headers=headers).status_code == 404


def test_the_failed_import_page_offers_to_run_it_again_in_german(postgres_url: str) -> None:
    client, _, import_id = _upload(postgres_url)
    _left_running(postgres_url, import_id, datetime.now(UTC) - timedelta(minutes=5))
    with unit_of_work(engine_for(postgres_url)) as session:
        close_lost_imports(session, timedelta(minutes=2))
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="pages").secret
    pages = TestClient(client.app, follow_redirects=False, headers={"Origin": "http://testserver"})
    assert pages.post("/referee/sign-in", data={"token": secret, "next": "/staff/lists"}).status_code == 303
    page = pages.get(f"/staff/lists/{import_id}")
    assert "ist ausgefallen" in page.text and "Diesen Import erneut ausführen" in page.text
    assert pages.post(f"/staff/lists/{import_id}/rerun").status_code == 303
    assert run_list_import(engine_for(postgres_url), import_id) == "done"
