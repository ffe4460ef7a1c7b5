"""README's federation's first day, run as written on a fresh embedded database: the list that
``zdb lists synth`` writes is imported at the README's date, and README's ``first-day.json`` is
accepted, while the same tournament ending on the list's date is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from tests.db.scenario import recalc
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.cli import main
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work

README = Path(__file__).resolve().parents[2] / "README.md"


def _first_day_body() -> dict[str, object]:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"where `examples/first-day.json` is\n\n```json\n(.*?)```", text, re.DOTALL)
    assert block is not None, "README's first-day.json block"
    assert block.group(1) == (README.parent / "examples" / "first-day.json").read_text(encoding="utf-8")
    body: dict[str, object] = json.loads(block.group(1))
    return body


def test_the_first_day_works_as_written(sqlite_url: str, tmp_path: Path) -> None:
    path = tmp_path / "liste.zip"
    runner = CliRunner()
    for args in (["lists", "synth", str(path)], ["lists", "import", str(path), "--date", "2026-09-30"]):
        result = runner.invoke(main, [*args, *(["--database-url", sqlite_url] if args[1] == "import" else [])])
        assert result.exit_code == 0, result.output
    with unit_of_work(engine_for(sqlite_url)) as session:
        secret = create_token(session, "referee", "E01", label="referee E01").secret
    client = TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))
    headers = {"Authorization": f"Bearer {secret}"}
    members = client.get("/api/v1/clubs/E0102/members.csv").text
    assert len(members.splitlines()) > 5

    body = _first_day_body()
    inside = {
        **body,
        "start_date": "2026-09-28",
        "end_date": "2026-09-30",
        "round_dates": ["2026-09-28", "2026-09-29", "2026-09-30"],
    }
    refused = client.post("/api/v1/tournaments", json=inside, headers=headers)
    assert refused.status_code == 422
    assert {e["place"] for e in refused.json()["errors"]} == {f"body.players[{k}]" for k in range(4)}

    answer = client.post("/api/v1/tournaments", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    recalc(sqlite_url)
    tournament = client.get(answer.headers["Location"]).json()
    assert tournament["status"] == "evaluated"
